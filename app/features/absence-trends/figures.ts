import type { ClassroomFigures, StudentFigures } from '#app/features/absence/index.ts'
import { compareClassrooms, compareNames, percent, roundHalfAway } from '#app/features/analyses/index.ts'
import { stepOf, studentKey, type LadderDocument, type LadderStep } from '#app/features/follow-up/index.ts'

/**
 * Trends across a teacher's absence analyses of one school, and two analyses compared (issue 18,
 * docs/absence-trends.md). Pure: the uploads' figures in, timelines and changes out. Students are
 * the same student across uploads by studentKey (their ID, else name, grade and classroom).
 */

/** An upload on the timeline: where it sits in time and its school's figures. */
export interface UploadHead {
  readonly id: string
  readonly title: string
  readonly createdAt: string
  /** The period the file covers (ISO days), when known. */
  readonly from: string | null
  readonly to: string | null
}

export interface UploadFigures extends UploadHead {
  readonly attendanceRate: number
  readonly unexcusedRate: number
  /** Unexcused days of every student together. */
  readonly unexcused: number
  readonly students: number
  readonly byClassroom: readonly Pick<ClassroomFigures, 'grade' | 'classroom' | 'attendanceRate' | 'unexcused'>[]
}

/** The most uploads a timeline holds (the newest): its charts and tables stay readable. */
export const timelineLimit = 12

/** The day an upload stands for: the end of its period, else the day it was uploaded. */
export const dayOf = (u: Pick<UploadHead, 'to' | 'createdAt'>) => u.to ?? u.createdAt.slice(0, 10)

/** Uploads oldest first (by the day each stands for, then by upload), the newest `limit`. */
export function alongTime<U extends Pick<UploadHead, 'to' | 'createdAt' | 'id'>>(uploads: readonly U[], limit = timelineLimit): U[] {
  const sorted = uploads.toSorted(
    (a, b) => dayOf(a).localeCompare(dayOf(b)) || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id),
  )
  return sorted.slice(Math.max(0, sorted.length - limit))
}

export type Point = { readonly attendanceRate: number; readonly unexcused: number }

export interface ClassroomTimeline {
  readonly grade: string
  readonly classroom: string
  /** One per upload, oldest first; null where the upload has no such classroom. */
  readonly points: readonly (Point | null)[]
}

/** Each classroom of any upload with its figures in each, in school order. */
export function classroomTimelines(uploads: readonly UploadFigures[]): ClassroomTimeline[] {
  const key = (g: { grade: string; classroom: string }) => `${g.grade}\u0000${g.classroom}`
  const found = new Map<string, { grade: string; classroom: string }>()
  for (const u of uploads)
    for (const g of u.byClassroom) if (!found.has(key(g))) found.set(key(g), { grade: g.grade, classroom: g.classroom })
  return [...found.values()].sort(compareClassrooms).map((c) => ({
    ...c,
    points: uploads.map((u) => {
      const g = u.byClassroom.find((x) => key(x) === key(c))
      return g ? { attendanceRate: g.attendanceRate, unexcused: g.unexcused } : null
    }),
  }))
}

/** What a student's timeline and the comparison read of a student. */
export type StudentCounts = Pick<StudentFigures, 'name' | 'studentId' | 'grade' | 'classroom' | 'records' | 'excused' | 'unexcused'>

export type StudentPoint = Point & { readonly grade: string; readonly classroom: string }

export interface StudentTimeline {
  readonly key: string
  /** As the newest upload that has the student writes them. */
  readonly name: string
  readonly studentId: string | null
  readonly grade: string
  readonly classroom: string
  readonly points: readonly (StudentPoint | null)[]
}

/** The most students one search follows along the timeline. */
export const studentTimelineLimit = 10

/** The students found in each upload (same order as the uploads), one timeline per student. */
export function studentTimelines(found: readonly (readonly StudentCounts[])[]): StudentTimeline[] {
  const byKey = new Map<string, (StudentPoint | null)[]>()
  const latest = new Map<string, StudentCounts>()
  found.forEach((students, i) => {
    for (const s of students) {
      const key = studentKey(s)
      let points = byKey.get(key)
      if (!points) {
        points = found.map(() => null)
        byKey.set(key, points)
      }
      if (points[i]) continue
      points[i] = { attendanceRate: attendanceOf(s), unexcused: s.unexcused, grade: s.grade, classroom: s.classroom }
      latest.set(key, s)
    }
  })
  return [...byKey.entries()]
    .map(([key, points]) => {
      const s = latest.get(key) as StudentCounts
      return { key, name: s.name, studentId: s.studentId, grade: s.grade, classroom: s.classroom, points }
    })
    .sort((a, b) => compareNames(a.name, b.name) || compareClassrooms(a, b))
    .slice(0, studentTimelineLimit)
}

/** A student's attendance rate: present days over school days (100 − the share missed). */
export function attendanceOf(s: Pick<StudentCounts, 'records' | 'excused' | 'unexcused'>): number {
  return s.records > 0 ? percent(s.records - s.excused - s.unexcused, s.records) : 0
}

const change = (from: number, to: number) => roundHalfAway(to - from, 2)

export interface ClassroomChange {
  readonly grade: string
  readonly classroom: string
  readonly a: Point | null
  readonly b: Point | null
  /** b − a, when the classroom is in both. */
  readonly change: Point | null
}

export type Absent = { readonly absent: number; readonly unexcused: number; readonly absenceRate: number }

export interface StudentRise {
  readonly name: string
  readonly studentId: string | null
  readonly grade: string
  readonly classroom: string
  /** The classroom in the first analysis, when the student changed classroom (matched by ID). */
  readonly previousClassroom: { readonly grade: string; readonly classroom: string } | null
  readonly a: Absent
  readonly b: Absent
  readonly change: { readonly absent: number; readonly unexcused: number }
}

export interface NewToStep {
  readonly name: string
  readonly studentId: string | null
  readonly grade: string
  readonly classroom: string
  /** The step reached in the second analysis: its index on the ladder, its days, document and name. */
  readonly step: number
  readonly days: number
  readonly document: LadderDocument
  readonly stepName: string | null
  readonly unexcused: number
  /** Unexcused days in the first analysis; null for a student not in it. */
  readonly previousUnexcused: number | null
  /** The step in the first analysis; null for none (or not in it). */
  readonly previousStep: number | null
}

export interface Comparison {
  readonly classrooms: ClassroomChange[]
  /** The students whose days missed (excused and unexcused) rose most, most first: at most `riseLimit`. */
  readonly roseMost: StudentRise[]
  /** Students at a higher step than before, highest step first: at most `newToStepLimit`, `newToStepTotal` in all. */
  readonly newToStep: NewToStep[]
  readonly newToStepTotal: number
  /** Students in both, only in the second (new), only in the first (left). */
  readonly students: { readonly matched: number; readonly joined: number; readonly left: number }
}

export const riseLimit = 10
export const newToStepLimit = 100

export interface CompareInput {
  readonly a: Pick<UploadFigures, 'byClassroom'>
  readonly b: Pick<UploadFigures, 'byClassroom'>
  readonly studentsA: readonly StudentCounts[]
  readonly studentsB: readonly StudentCounts[]
  readonly ladder: readonly LadderStep[]
}

const absentOf = (s: StudentCounts): Absent => ({
  absent: s.excused + s.unexcused,
  unexcused: s.unexcused,
  absenceRate: percent(s.excused + s.unexcused, s.records),
})

/** Analysis a against analysis b (b is read as the later one): classrooms, rises, new steps. */
export function compareAnalyses({ a, b, studentsA, studentsB, ladder }: CompareInput): Comparison {
  const key = (g: { grade: string; classroom: string }) => `${g.grade}\u0000${g.classroom}`
  const inA = new Map(a.byClassroom.map((g) => [key(g), g]))
  const inB = new Map(b.byClassroom.map((g) => [key(g), g]))
  const all = new Map<string, { grade: string; classroom: string }>()
  for (const g of [...a.byClassroom, ...b.byClassroom]) if (!all.has(key(g))) all.set(key(g), { grade: g.grade, classroom: g.classroom })
  const point = (g: Point | undefined): Point | null => (g ? { attendanceRate: g.attendanceRate, unexcused: g.unexcused } : null)
  const classrooms = [...all.values()].sort(compareClassrooms).map((c): ClassroomChange => {
    const from = point(inA.get(key(c)))
    const to = point(inB.get(key(c)))
    return {
      ...c,
      a: from,
      b: to,
      change:
        from && to ? { attendanceRate: change(from.attendanceRate, to.attendanceRate), unexcused: to.unexcused - from.unexcused } : null,
    }
  })

  const before = new Map<string, StudentCounts>()
  for (const s of studentsA) if (!before.has(studentKey(s))) before.set(studentKey(s), s)
  const seen = new Set<string>()
  const rises: StudentRise[] = []
  const stepped: NewToStep[] = []
  let matched = 0
  let joined = 0
  for (const s of studentsB) {
    const k = studentKey(s)
    if (seen.has(k)) continue
    seen.add(k)
    const old = before.get(k)
    if (old) matched++
    else joined++
    if (old) {
      const was = absentOf(old)
      const now = absentOf(s)
      const rise = { absent: now.absent - was.absent, unexcused: now.unexcused - was.unexcused }
      if (rise.absent > 0) {
        const moved = old.grade !== s.grade || old.classroom !== s.classroom
        rises.push({
          name: s.name,
          studentId: s.studentId,
          grade: s.grade,
          classroom: s.classroom,
          previousClassroom: moved ? { grade: old.grade, classroom: old.classroom } : null,
          a: was,
          b: now,
          change: rise,
        })
      }
    }
    const step = stepOf(s.unexcused, ladder)
    const previousStep = old ? stepOf(old.unexcused, ladder) : null
    const reached = step === null ? undefined : ladder[step]
    if (step !== null && reached && (previousStep === null || previousStep < step))
      stepped.push({
        name: s.name,
        studentId: s.studentId,
        grade: s.grade,
        classroom: s.classroom,
        step,
        days: reached.days,
        document: reached.document,
        stepName: reached.name,
        unexcused: s.unexcused,
        previousUnexcused: old ? old.unexcused : null,
        previousStep,
      })
  }
  const byName = (x: { name: string; grade: string; classroom: string }, y: { name: string; grade: string; classroom: string }) =>
    compareNames(x.name, y.name) || compareClassrooms(x, y)
  rises.sort((x, y) => y.change.absent - x.change.absent || y.change.unexcused - x.change.unexcused || byName(x, y))
  stepped.sort((x, y) => y.step - x.step || y.unexcused - x.unexcused || byName(x, y))
  return {
    classrooms,
    roseMost: rises.slice(0, riseLimit),
    newToStep: stepped.slice(0, newToStepLimit),
    newToStepTotal: stepped.length,
    students: { matched, joined, left: before.size - matched },
  }
}
