import { compareClassrooms, compareNames } from '#app/features/analyses/index.ts'
import type { StudentFigures } from '#app/features/absence/index.ts'
import { stepOf, type LadderStep } from './ladder.ts'

// Which students a step's documents are for, in the order they are printed (docs/follow-up-letters.md).
// Pure: the PDF, the workbook, the report's block and the tests read the same lists.

/** What a step's document prints of a student. */
export interface StepStudent {
  readonly name: string
  readonly studentId: string | null
  readonly grade: string
  readonly classroom: string
  readonly unexcused: number
  /** Daily files: the days of unexcused absence, oldest first (`YYYY-MM-DD`, Gregorian and Umm al-Qura); null for a totals file. */
  readonly unexcusedDays: readonly { readonly date: string; readonly hijri: string; readonly weekday: number }[] | null
}

/**
 * The students at step `stepIndex` (0 = the first): those whose unexcused days reached it and not
 * yet the next (stepOf), in one classroom when `classroom` is given (`grade / classroom` as the
 * report writes it, or the classroom alone), in classroom order (grade, then number), then by name.
 */
export function lettersAtStep(
  students: readonly StudentFigures[],
  ladder: readonly LadderStep[],
  stepIndex: number,
  classroom?: string | null,
): StepStudent[] {
  const wanted = classroom?.trim() || null
  return students
    .filter((s) => stepOf(s.unexcused, ladder) === stepIndex)
    .filter((s) => wanted === null || isClassroom(s, wanted))
    .sort((a, b) => compareClassrooms(a, b) || compareNames(a.name, b.name))
    .map((s) => ({
      name: s.name,
      studentId: s.studentId,
      grade: s.grade,
      classroom: s.classroom,
      unexcused: s.unexcused,
      unexcusedDays: s.absences
        ? s.absences.filter((a) => a.type === 'unexcused').map((a) => ({ date: a.date, hijri: a.hijri, weekday: a.weekday }))
        : null,
    }))
}

/** A classroom as the report labels it (`الأول المتوسط / 1`), or its number alone. */
export const classroomLabel = (s: { grade: string; classroom: string }) => `${s.grade} / ${s.classroom}`
const isClassroom = (s: { grade: string; classroom: string }, wanted: string) => classroomLabel(s) === wanted || s.classroom === wanted

/** A step's count of students and the classrooms they are in (school order), for the report's block. */
export interface StepTally {
  readonly students: number
  readonly classrooms: readonly string[]
}

/**
 * How many students are at each step of the ladder (index = step) and in which classrooms, from
 * how many students of each classroom have each number of unexcused days.
 */
export function studentsPerStep(
  tally: readonly { grade: string; classroom: string; unexcused: number; students: number }[],
  ladder: readonly LadderStep[],
): StepTally[] {
  const steps = ladder.map(() => ({ students: 0, classrooms: [] as { grade: string; classroom: string }[] }))
  for (const row of tally) {
    const step = stepOf(row.unexcused, ladder)
    const at = step === null ? undefined : steps[step]
    if (!at || row.students <= 0) continue
    at.students += row.students
    if (!at.classrooms.some((c) => c.grade === row.grade && c.classroom === row.classroom))
      at.classrooms.push({ grade: row.grade, classroom: row.classroom })
  }
  return steps.map((s) => ({ students: s.students, classrooms: s.classrooms.sort(compareClassrooms).map(classroomLabel) }))
}
