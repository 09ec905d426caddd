import { and, eq } from 'drizzle-orm'
import { absenceRosterHeads, absenceRosters } from '#app/features/absence/index.server.ts'
import { DomainError } from '#app/lib/errors.ts'
import { isUuid } from '#app/lib/ids.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { followUpRegister } from '#app/platform/db/schema.ts'
import { ladderDocuments, type LadderDocument, type LadderStep } from './ladder.ts'
import { ladderOf } from './ladder-settings.server.ts'
import {
  analysisDay,
  registerStatus,
  schoolYearOf,
  schoolYearsOf,
  studentsAtStep,
  type RegisterEntry,
  type RegisterStatus,
  type RegisterStatusView,
} from './register-status.ts'
import type { RegisterPageData } from './register-view.tsx'

// The follow-up register (docs/follow-up.md): the documents a teacher issued, her own copy of
// them, and who is still owed one, matched across her absence analyses of the school year.

/**
 * How a page or an API client names a student of the register: the student's key (studentKey)
 * in base64url, since a key may hold characters a form field cannot carry.
 */
export const studentRef = (key: string) => Buffer.from(key, 'utf8').toString('base64url')
const keyOfRef = (ref: string) => Buffer.from(ref, 'base64url').toString('utf8')

/**
 * A key as the database keeps it: PostgreSQL's text takes no NUL, which studentKey puts between a
 * name, grade and classroom, so the unit separator stands for it there (and back when read).
 */
const keyToColumn = (key: string) => key.replaceAll('\u0000', '\u001f')
const keyFromColumn = (column: string) => column.replaceAll('\u001f', '\u0000')

type Row = typeof followUpRegister.$inferSelect
const isDocument = (value: string): value is LadderDocument => (ladderDocuments as readonly string[]).includes(value)

function entryOf(row: Row): RegisterEntry {
  return {
    id: row.id,
    schoolYear: row.schoolYear,
    studentKey: keyFromColumn(row.studentKey),
    studentName: row.studentName,
    studentId: row.studentId,
    grade: row.grade,
    classroom: row.classroom,
    step: row.step,
    stepDays: row.stepDays,
    stepName: row.stepName,
    document: isDocument(row.document) ? row.document : 'firstWarning',
    unexcused: row.unexcused,
    issuedOn: row.issuedOn,
    issuedBy: row.issuedBy,
    status: row.status,
    notes: row.notes,
  }
}

export interface FollowUpRegisterOptions {
  readonly db: Db
  readonly userId: string
  /** The school year asked for (its starting year); the latest with analyses or entries when not given or unknown. */
  readonly schoolYear?: number | null
}

export interface FollowUpRegisterView extends RegisterStatusView {
  readonly schoolYears: readonly number[]
  readonly ladder: readonly LadderStep[]
}

/** The teacher's register for a school year: the students at a step, those owed a document, the entries, per classroom. */
export async function findFollowUpRegister({ db, userId, schoolYear }: FollowUpRegisterOptions): Promise<FollowUpRegisterView> {
  const rows = await db.select().from(followUpRegister).where(eq(followUpRegister.userId, userId))
  const entries = rows.map(entryOf)
  const heads = await absenceRosterHeads({ db, userId })
  const years = schoolYearsOf(heads, entries)
  const year = schoolYear && years.includes(schoolYear) ? schoolYear : (years[0] ?? schoolYearOf(new Date().toISOString().slice(0, 10)))
  const rosters = await absenceRosters({ db, userId, keep: (head) => schoolYearOf(analysisDay(head)) === year })
  const ladder = await ladderOf({ db, userId })
  return { ...registerStatus(rosters, entries, ladder, year), schoolYears: years, ladder }
}

export interface RecordIssueOptions {
  readonly db: Db
  readonly userId: string
  readonly issue: {
    readonly student: string
    readonly step: number
    readonly school_year: number
    readonly issued_on: string
    readonly issued_by: string
    readonly status: RegisterStatus
    readonly notes: string
  }
}

/**
 * Records a document issued to one of the teacher's students at a step the student has reached
 * in the school year (as her latest analysis has it). The register copies who the student is and
 * what the step was, so the entry outlives every analysis. Another teacher's student is not found.
 */
export async function recordIssue({ db, userId, issue }: RecordIssueOptions): Promise<RegisterEntry> {
  const key = keyOfRef(issue.student)
  const rosters = await absenceRosters({ db, userId, keep: (head) => schoolYearOf(analysisDay(head)) === issue.school_year })
  const ladder = await ladderOf({ db, userId })
  const student = studentsAtStep(rosters, ladder, issue.school_year).find((s) => s.key === key)
  if (!student) throw new DomainError(404, 'follow-up-register.errors.notFound')
  const step = ladder[issue.step - 1]
  if (!step || issue.step > student.step)
    throw new DomainError(422, 'follow-up-register.errors.stepNotReached', { step: ['follow-up-register.errors.stepNotReached'] })
  const [row] = await db
    .insert(followUpRegister)
    .values({
      userId,
      schoolYear: issue.school_year,
      studentKey: keyToColumn(key),
      studentName: student.name,
      studentId: student.studentId,
      grade: student.grade,
      classroom: student.classroom,
      step: issue.step,
      stepDays: step.days,
      stepName: step.name,
      document: step.document,
      unexcused: student.unexcused,
      issuedOn: issue.issued_on,
      issuedBy: issue.issued_by,
      status: issue.status,
      notes: issue.notes,
    })
    .onConflictDoNothing()
    .returning()
  if (!row) throw new DomainError(409, 'follow-up-register.errors.alreadyIssued', { step: ['follow-up-register.errors.alreadyIssued'] })
  return entryOf(row)
}

export interface UpdateRegisterEntryOptions {
  readonly db: Db
  readonly userId: string
  readonly id: string
  readonly changes: {
    readonly status?: RegisterStatus | undefined
    readonly notes?: string | undefined
    readonly issued_on?: string | undefined
    readonly issued_by?: string | undefined
  }
}

/** Changes an entry's status, notes, date or issuer; another teacher's entry is not found (404). */
export async function updateRegisterEntry({ db, userId, id, changes }: UpdateRegisterEntryOptions): Promise<RegisterEntry> {
  if (!isUuid(id)) throw new DomainError(404, 'follow-up-register.errors.entryNotFound')
  const [row] = await db
    .update(followUpRegister)
    .set({
      ...(changes.status !== undefined && { status: changes.status }),
      ...(changes.notes !== undefined && { notes: changes.notes }),
      ...(changes.issued_on !== undefined && { issuedOn: changes.issued_on }),
      ...(changes.issued_by !== undefined && { issuedBy: changes.issued_by }),
      updatedAt: new Date(),
    })
    .where(and(eq(followUpRegister.id, id), eq(followUpRegister.userId, userId)))
    .returning()
  if (!row) throw new DomainError(404, 'follow-up-register.errors.entryNotFound')
  return entryOf(row)
}

export interface DeleteRegisterEntryOptions {
  readonly db: Db
  readonly userId: string
  readonly id: string
}

/** Deletes an entry (a document recorded by mistake): the student is owed it again. */
export async function deleteRegisterEntry({ db, userId, id }: DeleteRegisterEntryOptions): Promise<void> {
  if (!isUuid(id)) throw new DomainError(404, 'follow-up-register.errors.entryNotFound')
  const gone = await db
    .delete(followUpRegister)
    .where(and(eq(followUpRegister.id, id), eq(followUpRegister.userId, userId)))
    .returning({ id: followUpRegister.id })
  if (gone.length === 0) throw new DomainError(404, 'follow-up-register.errors.entryNotFound')
}

/** The register as its page shows it: the students owed a document named by `studentRef`, not by key. */
export async function followUpRegisterPage(options: FollowUpRegisterOptions): Promise<RegisterPageData> {
  const view = await findFollowUpRegister(options)
  return {
    schoolYear: view.schoolYear,
    schoolYears: view.schoolYears,
    reached: view.atStep.length,
    outstanding: view.outstanding.map((s) => ({
      ref: studentRef(s.key),
      name: s.name,
      grade: s.grade,
      classroom: s.classroom,
      unexcused: s.unexcused,
      step: s.step,
      ladderStep: s.ladderStep,
      analysisTitle: s.analysisTitle,
    })),
    issued: view.issued,
    byClassroom: view.byClassroom,
  }
}
