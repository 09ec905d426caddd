import { normalizeName } from '#app/features/analyses/index.ts'

/**
 * How a student is recognised across a teacher's analyses (issue 18): by the student's ID when the
 * file gave one, else by the normalised name with grade and classroom. So a student who changes
 * classroom stays the same student when the files carry IDs; without IDs a change of classroom
 * reads as a new student (nothing else tells two namesakes apart).
 */
export interface StudentIdentity {
  readonly studentId: string | null
  readonly name: string
  readonly grade: string
  readonly classroom: string
}

const clean = (text: string) => normalizeName(text).toLowerCase()

export function studentKey(student: StudentIdentity): string {
  const id = student.studentId?.trim()
  if (id) return `id:${id}`
  return `name:${clean(student.name)}\u0000${clean(student.grade)}\u0000${clean(student.classroom)}`
}
