import { stepOf, type LadderDocument, type LadderStep } from './ladder.ts'
import { studentKey } from './student-key.ts'

// What the follow-up register shows (docs/follow-up.md): who has reached a step in the school
// year, which documents were issued, and who is still owed one. Pure, so the rules are tested on
// small hand-made uploads.

/**
 * The school year a day belongs to, by the Gregorian year it starts in: Saudi school years start
 * in August or September, so a day from 1 August belongs to the year starting then, a day before
 * it to the year before (2025-08-01 and 2026-07-31 are both 2025, that is 2025–2026).
 */
export function schoolYearOf(isoDay: string): number {
  const [year = 1970, month = 1] = isoDay.split('-').map(Number)
  return month >= 8 ? year : year - 1
}

/** The day an analysis speaks for: its last day, else the day it was uploaded. */
export function analysisDay(head: { readonly lastDay: string | null; readonly createdAt: Date }): string {
  return head.lastDay ?? head.createdAt.toISOString().slice(0, 10)
}

export const registerStatuses = ['awaiting', 'signed', 'declined'] as const
export type RegisterStatus = (typeof registerStatuses)[number]

/** An entry of the register: its own copy of the student and of what was issued. */
export interface RegisterEntry {
  readonly id: string
  readonly schoolYear: number
  readonly studentKey: string
  readonly studentName: string
  readonly studentId: string | null
  readonly grade: string
  readonly classroom: string
  /** The step's position when issued (1 = first), its days, name (null: the document's) and document. */
  readonly step: number
  readonly stepDays: number
  readonly stepName: string | null
  readonly document: LadderDocument
  readonly unexcused: number
  readonly issuedOn: string
  readonly issuedBy: string
  readonly status: RegisterStatus
  readonly notes: string
}

export interface RosterInput {
  readonly id: string
  readonly title: string
  readonly createdAt: Date
  readonly lastDay: string | null
  readonly students: readonly {
    readonly name: string
    readonly studentId: string | null
    readonly grade: string
    readonly classroom: string
    readonly unexcused: number
  }[]
}

/** A student at a step, as the latest analysis of the school year containing the student has it. */
export interface StudentAtStep {
  readonly key: string
  readonly name: string
  readonly studentId: string | null
  readonly grade: string
  readonly classroom: string
  readonly unexcused: number
  /** The highest step reached (1 = first) and that step of the ladder. */
  readonly step: number
  readonly ladderStep: LadderStep
  /** The analysis the figures come from. */
  readonly analysisId: string
  readonly analysisTitle: string
  readonly analysisDay: string
}

export interface ClassroomFollowUp {
  readonly grade: string
  readonly classroom: string
  /** Students at a step (latest analysis), documents issued (the register's copy), students still owed one. */
  readonly reached: number
  readonly issued: number
  readonly outstanding: number
}

export interface RegisterStatusView {
  readonly schoolYear: number
  readonly atStep: readonly StudentAtStep[]
  readonly outstanding: readonly StudentAtStep[]
  readonly issued: readonly RegisterEntry[]
  readonly byClassroom: readonly ClassroomFollowUp[]
}

const classroomKey = (c: { grade: string; classroom: string }) => `${c.grade}\u0000${c.classroom}`
const byClassroomAndName = (a: { grade: string; classroom: string; name: string }, b: typeof a) =>
  a.grade.localeCompare(b.grade, 'ar', { numeric: true }) ||
  a.classroom.localeCompare(b.classroom, 'ar', { numeric: true }) ||
  a.name.localeCompare(b.name, 'ar')

/**
 * The students of the school year at a step: each student (studentKey) as the latest of the
 * year's analyses containing the student has it (the latest day, then the latest upload), with the
 * step of those unexcused days on the ladder in force now.
 */
export function studentsAtStep(rosters: readonly RosterInput[], ladder: readonly LadderStep[], schoolYear: number): StudentAtStep[] {
  const ofYear = rosters
    .map((r) => ({ roster: r, day: analysisDay(r) }))
    .filter((r) => schoolYearOf(r.day) === schoolYear)
    .sort((a, b) => a.day.localeCompare(b.day) || a.roster.createdAt.getTime() - b.roster.createdAt.getTime())
  const latest = new Map<string, StudentAtStep | null>()
  for (const { roster, day } of ofYear)
    for (const s of roster.students) {
      const key = studentKey(s)
      const index = stepOf(s.unexcused, ladder)
      const ladderStep = index === null ? undefined : ladder[index]
      // A later analysis replaces an earlier one, also when the student has dropped below every step.
      latest.set(
        key,
        index === null || !ladderStep
          ? null
          : {
              key,
              name: s.name,
              studentId: s.studentId,
              grade: s.grade,
              classroom: s.classroom,
              unexcused: s.unexcused,
              step: index + 1,
              ladderStep,
              analysisId: roster.id,
              analysisTitle: roster.title,
              analysisDay: day,
            },
      )
    }
  return [...latest.values()].filter((s): s is StudentAtStep => s !== null).sort(byClassroomAndName)
}

/**
 * The register of a school year: the students owed a document (at a step with no entry at that
 * step or a later one), the entries, and both counted per classroom (a student owed one where the
 * latest analysis places the student; an entry where it was issued).
 */
export function registerStatus(
  rosters: readonly RosterInput[],
  entries: readonly RegisterEntry[],
  ladder: readonly LadderStep[],
  schoolYear: number,
): RegisterStatusView {
  const atStep = studentsAtStep(rosters, ladder, schoolYear)
  const issued = entries.filter((e) => e.schoolYear === schoolYear)
  const highestIssued = new Map<string, number>()
  for (const e of issued) highestIssued.set(e.studentKey, Math.max(highestIssued.get(e.studentKey) ?? 0, e.step))
  const outstanding = atStep.filter((s) => (highestIssued.get(s.key) ?? 0) < s.step)
  const classrooms = new Map<string, { grade: string; classroom: string; reached: number; issued: number; outstanding: number }>()
  const tally = (c: { grade: string; classroom: string }) => {
    const key = classroomKey(c)
    let row = classrooms.get(key)
    if (!row) classrooms.set(key, (row = { grade: c.grade, classroom: c.classroom, reached: 0, issued: 0, outstanding: 0 }))
    return row
  }
  for (const s of atStep) tally(s).reached++
  for (const s of outstanding) tally(s).outstanding++
  for (const e of issued) tally(e).issued++
  const byClassroom = [...classrooms.values()].sort(
    (a, b) => a.grade.localeCompare(b.grade, 'ar', { numeric: true }) || a.classroom.localeCompare(b.classroom, 'ar', { numeric: true }),
  )
  const sortedIssued = issued.toSorted(
    (a, b) => byClassroomAndName({ ...a, name: a.studentName }, { ...b, name: b.studentName }) || a.step - b.step,
  )
  return { schoolYear, atStep, outstanding, issued: sortedIssued, byClassroom }
}

/** The school years the teacher's analyses and register speak for, latest first. */
export function schoolYearsOf(
  rosters: readonly Pick<RosterInput, 'lastDay' | 'createdAt'>[],
  entries: readonly { schoolYear: number }[],
): number[] {
  const years = new Set<number>([...rosters.map((r) => schoolYearOf(analysisDay(r))), ...entries.map((e) => e.schoolYear)])
  return [...years].sort((a, b) => b - a)
}
