import { stepOf, type LadderStep } from '#app/features/follow-up/index.ts'
import { classroomKey } from './tiers.ts'

/**
 * The follow-up steps of an analysis' students (issue 18, docs/follow-up.md): each student's step
 * on the teacher's ladder from the unexcused days, counted per classroom. Like the tiers, computed
 * when the report is read with the ladder in force then (decision 018): nothing is stored.
 */

/** A student's step as the report shows it: its position (1 = first) and the ladder's step. */
export type StudentStep = { readonly number: number } & LadderStep

export function studentStep(unexcused: number, ladder: readonly LadderStep[]): StudentStep | null {
  const index = stepOf(unexcused, ladder)
  const step = index === null ? undefined : ladder[index]
  return index === null || !step ? null : { number: index + 1, ...step }
}

/** Students at each step (index = step − 1) and how many reached one. */
export interface StepTally {
  readonly atStep: readonly number[]
  readonly reached: number
  readonly students: number
}
export type ClassroomSteps = { readonly grade: string; readonly classroom: string } & StepTally

export interface AbsenceSteps {
  readonly ladder: readonly LadderStep[]
  readonly summary: StepTally
  readonly byClassroom: readonly ClassroomSteps[]
}

type Mutable = { atStep: number[]; reached: number; students: number }

/**
 * Adds up students (or groups of students with the same unexcused days, `count`) per classroom
 * in the report's order; a classroom the report does not list goes last.
 */
export function countSteps(
  students: Iterable<{ readonly grade: string; readonly classroom: string; readonly unexcused: number; readonly count?: number }>,
  order: readonly { readonly grade: string; readonly classroom: string }[],
  ladder: readonly LadderStep[],
): AbsenceSteps {
  const empty = (): Mutable => ({ atStep: ladder.map(() => 0), reached: 0, students: 0 })
  const tallies = new Map<string, { grade: string; classroom: string } & Mutable>()
  for (const c of order) tallies.set(classroomKey(c), { grade: c.grade, classroom: c.classroom, ...empty() })
  const summary = empty()
  for (const s of students) {
    const key = classroomKey(s)
    let tally = tallies.get(key)
    if (!tally) tallies.set(key, (tally = { grade: s.grade, classroom: s.classroom, ...empty() }))
    const count = s.count ?? 1
    tally.students += count
    summary.students += count
    const index = stepOf(s.unexcused, ladder)
    if (index === null) continue
    tally.atStep[index] = (tally.atStep[index] ?? 0) + count
    summary.atStep[index] = (summary.atStep[index] ?? 0) + count
    tally.reached += count
    summary.reached += count
  }
  return { ladder, summary, byClassroom: [...tallies.values()] }
}
