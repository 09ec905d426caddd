import { and, eq, inArray, sql } from 'drizzle-orm'
import { entriesNamed, studentLines, studentsNamed, type StoredAbsence } from '#app/features/absence/index.server.ts'
import { minimumSearchWords, type AbsenceSummary, type ClassroomFigures } from '#app/features/absence/index.ts'
import { findAnalysis, listAnalyses } from '#app/features/analyses/index.server.ts'
import { ladderOf } from '#app/features/follow-up/index.server.ts'
import { normalizeLabel, normalizeName } from '#app/features/analyses/index.ts'
import { DomainError } from '#app/lib/errors.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { analyses } from '#app/platform/db/schema.ts'
import {
  alongTime,
  classroomTimelines,
  compareAnalyses,
  studentTimelines,
  type ClassroomTimeline,
  type Comparison,
  type StudentTimeline,
  type UploadFigures,
  type UploadHead,
} from './figures.ts'

/** A school the teacher has absence analyses of (null: the analyses whose file named none). */
export interface TrendSchool {
  readonly school: string | null
  readonly analyses: number
}

export interface AbsenceTrends {
  readonly schools: TrendSchool[]
  /** The school shown: the one asked for, else the one of the newest analysis. */
  readonly school: string | null
  readonly uploads: UploadFigures[]
  readonly classrooms: ClassroomTimeline[]
  /** With a name searched: the students found, each along the uploads. */
  readonly students: StudentTimeline[] | null
}

export interface AbsenceTrendsOptions {
  readonly db: Db
  readonly userId: string
  /** The school asked for (as the list names it); undefined: the newest analysis' school; '' the analyses without one. */
  readonly school?: string | undefined
  /** A student's name (three words at least), to follow the student along the uploads. */
  readonly q?: string | null | undefined
}

type Row = { id: string; title: string; meta: Record<string, string>; headline: Record<string, unknown>; createdAt: Date }

const schoolKey = (school: string | null | undefined) => normalizeLabel(school ?? '')
const dayText = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : null)
const headOf = (r: Row): UploadHead => ({
  id: r.id,
  title: r.title,
  createdAt: r.createdAt.toISOString(),
  from: dayText(r.headline.from),
  to: dayText(r.headline.to),
})

/**
 * The teacher's absence analyses of one school along time (the newest twelve): the school's and
 * each classroom's attendance rate and unexcused days per upload, and, with a name, the students
 * found. Reads the list's light columns for every analysis, each chosen upload's summary and
 * classrooms (never its dates or skipped rows), and the students only through the name index.
 */
export async function absenceTrends({ db, userId, school, q }: AbsenceTrendsOptions): Promise<AbsenceTrends> {
  const rows: Row[] = await db
    .select({ id: analyses.id, title: analyses.title, meta: analyses.meta, headline: analyses.headline, createdAt: analyses.createdAt })
    .from(analyses)
    .where(and(eq(analyses.userId, userId), eq(analyses.kind, 'absence'), eq(analyses.complete, true)))
  const groups = new Map<string, { school: string | null; rows: Row[] }>()
  for (const row of rows) {
    const name = row.meta.school?.trim() || null
    const key = schoolKey(name)
    const group = groups.get(key) ?? { school: name, rows: [] }
    group.rows.push(row)
    groups.set(key, group)
  }
  const newest = alongTime(rows.map(headOf), 1)[0]
  const newestSchool = newest ? (rows.find((r) => r.id === newest.id)?.meta.school ?? null) : null
  const chosen = groups.get(schoolKey(school === undefined ? newestSchool : school)) ?? null
  const schools = [...groups.values()]
    .map((g) => ({ school: g.school, analyses: g.rows.length }))
    .sort((x, y) => (x.school === null ? 1 : y.school === null ? -1 : x.school.localeCompare(y.school, 'ar')))
  if (!chosen) {
    if (q) studentsQuery(q)
    return { schools, school: null, uploads: [], classrooms: [], students: q ? [] : null }
  }
  const heads = alongTime(chosen.rows.map(headOf))
  const uploads = await uploadFigures(db, userId, heads)
  let students: StudentTimeline[] | null = null
  if (q) {
    studentsQuery(q)
    // Through the name index of each upload; an analysis saved before entries is read whole.
    const withEntries = new Set(
      (
        await db
          .select({ id: analyses.id })
          .from(analyses)
          .where(
            and(
              eq(analyses.userId, userId),
              inArray(
                analyses.id,
                heads.map((h) => h.id),
              ),
              sql`${analyses.records}->>'entries' is not null`,
            ),
          )
      ).map((r) => r.id),
    )
    const found = []
    for (const head of heads) {
      if (withEntries.has(head.id)) {
        found.push(await entriesNamed({ db, analysisId: head.id, q }))
        continue
      }
      const stored = await findAnalysis({ db, userId, id: head.id })
      found.push(stored?.kind === 'absence' ? await studentsNamed({ db, stored: stored as StoredAbsence, q }) : [])
    }
    students = studentTimelines(found)
  }
  return { schools, school: chosen.school, uploads, classrooms: classroomTimelines(uploads), students }
}

/** A name search shorter than three words is refused as the report's search refuses it (422). */
function studentsQuery(q: string): void {
  if (normalizeName(q).split(' ').filter(Boolean).length < minimumSearchWords)
    throw new DomainError(422, 'absence.search.tooShort', { q: ['absence.search.tooShort'] })
}

/** Each upload's school figures and classrooms, read from its report's two small parts. */
async function uploadFigures(db: Db, userId: string, heads: readonly UploadHead[]): Promise<UploadFigures[]> {
  if (heads.length === 0) return []
  const read = await db
    .select({
      id: analyses.id,
      summary: sql<AbsenceSummary>`${analyses.report}->'summary'`,
      byClassroom: sql<ClassroomFigures[]>`${analyses.report}->'byClassroom'`,
    })
    .from(analyses)
    .where(
      and(
        eq(analyses.userId, userId),
        inArray(
          analyses.id,
          heads.map((h) => h.id),
        ),
      ),
    )
  const byId = new Map(read.map((r) => [r.id, r]))
  return heads.flatMap((head) => {
    const r = byId.get(head.id)
    if (!r) return []
    return [
      {
        ...head,
        attendanceRate: r.summary.attendanceRate,
        unexcusedRate: r.summary.unexcusedRate,
        unexcused: r.summary.unexcused,
        students: r.summary.students,
        byClassroom: r.byClassroom.map((g) => ({
          grade: g.grade,
          classroom: g.classroom,
          attendanceRate: g.attendanceRate,
          unexcused: g.unexcused,
        })),
      },
    ]
  })
}

export interface CompareOptions {
  readonly db: Db
  readonly userId: string
  readonly a: string
  readonly b: string
}

export type AbsenceComparison = Comparison & { readonly a: UploadFigures; readonly b: UploadFigures }

/**
 * Two of the teacher's absence analyses compared, b read as the later: the change per classroom,
 * the students whose absence rose most, the students new to a step of her ladder. Another
 * teacher's analysis, or one that is not an absence analysis, is not found (404).
 */
export async function compareAbsence({ db, userId, a, b }: CompareOptions): Promise<AbsenceComparison> {
  const [first, second] = await Promise.all([findAnalysis({ db, userId, id: a }), findAnalysis({ db, userId, id: b })])
  if (first?.kind !== 'absence' || second?.kind !== 'absence') throw new DomainError(404, 'common.errors.notFoundApi')
  const storedA = first as StoredAbsence
  const storedB = second as StoredAbsence
  const [figuresA, figuresB] = [first, second].map((s): UploadFigures => ({
    ...headOf(s),
    attendanceRate: s.report.summary.attendanceRate,
    unexcusedRate: s.report.summary.unexcusedRate,
    unexcused: s.report.summary.unexcused,
    students: s.report.summary.students,
    byClassroom: s.report.byClassroom,
  })) as [UploadFigures, UploadFigures]
  const [studentsA, studentsB, ladder] = await Promise.all([
    studentLines({ db, stored: storedA }),
    studentLines({ db, stored: storedB }),
    ladderOf({ db, userId }),
  ])
  return { a: figuresA, b: figuresB, ...compareAnalyses({ a: figuresA, b: figuresB, studentsA, studentsB, ladder }) }
}

/** The teacher's absence analyses to choose two from, newest first, as the timeline names them. */
export async function compareChoices({ db, userId }: { db: Db; userId: string }): Promise<UploadHead[]> {
  const list = await listAnalyses({ db, userId, kind: 'absence' })
  return list.map((a) => headOf({ id: a.id, title: a.title, meta: a.meta, headline: a.headline, createdAt: a.createdAt }))
}
