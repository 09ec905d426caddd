import { describe, expect, it } from 'vitest'
import { defaultLadder, ladderPresets } from '#app/features/follow-up/index.ts'
import {
  alongTime,
  attendanceOf,
  classroomTimelines,
  compareAnalyses,
  studentTimelines,
  type StudentCounts,
  type UploadFigures,
} from './figures.ts'

// Three uploads of one school, a term's running totals (20, 40 and 60 school days), worked out by
// hand. Four students: Sara's unexcused days rise (2, 4, 6: no step, first warning, second
// warning); Noura leaves before the third upload; Reem moves from classroom 1 to 2 in the third
// (matched by her ID); Hind stays at ten unexcused days and then eleven.

const G = 'الأول المتوسط'
const sara = { name: 'سارة علي أحمد', studentId: '1100000001', grade: G }
const noura = { name: 'نورة خالد سعد', studentId: '1100000002', grade: G }
const reem = { name: 'ريم سعود فهد', studentId: '1100000003', grade: G }
const hind = { name: 'هند عمر ناصر', studentId: '1100000004', grade: G }
const s = (who: typeof sara, classroom: string, records: number, excused: number, unexcused: number): StudentCounts => ({
  ...who,
  classroom,
  records,
  excused,
  unexcused,
})

const students = [
  [s(sara, '1', 20, 0, 2), s(noura, '1', 20, 0, 1), s(reem, '1', 20, 2, 0), s(hind, '2', 20, 0, 10)],
  [s(sara, '1', 40, 1, 4), s(noura, '1', 40, 0, 1), s(reem, '1', 40, 2, 3), s(hind, '2', 40, 0, 10)],
  [s(sara, '1', 60, 1, 6), s(reem, '2', 60, 5, 3), s(hind, '2', 60, 0, 11)],
]

// Classroom 1 in upload 1: 60 records, 2 excused, 3 unexcused → 55 present: 91.67%. Classroom 2: 10 of 20: 50%.
const upload = (id: string, to: string, createdAt: string, byClassroom: UploadFigures['byClassroom']): UploadFigures => ({
  id,
  title: id,
  createdAt,
  from: '2025-08-24',
  to,
  attendanceRate: 0,
  unexcusedRate: 0,
  unexcused: 0,
  students: 0,
  byClassroom,
})
const u1 = upload('u1', '2025-09-18', '2025-11-20T08:00:00.000Z', [
  { grade: G, classroom: '1', attendanceRate: 91.67, unexcused: 3 },
  { grade: G, classroom: '2', attendanceRate: 50, unexcused: 10 },
])
// 120 records, 3 excused, 8 unexcused → 109: 90.83%; classroom 2: 30 of 40: 75%.
const u2 = upload('u2', '2025-10-16', '2025-11-19T08:00:00.000Z', [
  { grade: G, classroom: '1', attendanceRate: 90.83, unexcused: 8 },
  { grade: G, classroom: '2', attendanceRate: 75, unexcused: 10 },
])
// Sara alone in classroom 1: 53 of 60: 88.33%; classroom 2 (Reem, Hind): 120 records, 5 + 14 missed → 101: 84.17%.
const u3 = upload('u3', '2025-11-13', '2025-11-18T08:00:00.000Z', [
  { grade: G, classroom: '1', attendanceRate: 88.33, unexcused: 6 },
  { grade: G, classroom: '2', attendanceRate: 84.17, unexcused: 14 },
])

describe('the timeline', () => {
  it('orders uploads by the end of their period, not by when they were uploaded, and keeps the newest', () => {
    // Uploaded newest first (u3 on the 18th, u1 on the 20th): the periods put u1 first.
    expect(alongTime([u3, u1, u2]).map((u) => u.id)).toEqual(['u1', 'u2', 'u3'])
    expect(alongTime([u3, u1, u2], 2).map((u) => u.id)).toEqual(['u2', 'u3'])
    // Without a period, the day it was uploaded.
    const undated = { ...u1, id: 'u0', to: null, createdAt: '2025-09-01T10:00:00.000Z' }
    expect(alongTime([u1, undated]).map((u) => u.id)).toEqual(['u0', 'u1'])
  })

  it('gives each classroom its figures per upload', () => {
    expect(classroomTimelines([u1, u2, u3])).toEqual([
      {
        grade: G,
        classroom: '1',
        points: [
          { attendanceRate: 91.67, unexcused: 3 },
          { attendanceRate: 90.83, unexcused: 8 },
          { attendanceRate: 88.33, unexcused: 6 },
        ],
      },
      {
        grade: G,
        classroom: '2',
        points: [
          { attendanceRate: 50, unexcused: 10 },
          { attendanceRate: 75, unexcused: 10 },
          { attendanceRate: 84.17, unexcused: 14 },
        ],
      },
    ])
  })

  it('follows a student by ID across a change of classroom, and leaves a gap where she is not', () => {
    const found = students.map((list) => list.filter((x) => x.name === reem.name || x.name === noura.name))
    const lines = studentTimelines(found)
    expect(lines).toHaveLength(2)
    const reemLine = lines.find((l) => l.name === reem.name)
    const nouraLine = lines.find((l) => l.name === noura.name)
    // Reem: 18 of 20 (90%), 35 of 40 (87.5%), 52 of 60 (86.67%), in classroom 2 at the end.
    expect(reemLine).toMatchObject({
      name: reem.name,
      classroom: '2',
      points: [
        { attendanceRate: 90, unexcused: 0, classroom: '1' },
        { attendanceRate: 87.5, unexcused: 3, classroom: '1' },
        { attendanceRate: 86.67, unexcused: 3, classroom: '2' },
      ],
    })
    // Noura: 19 of 20 (95%), 39 of 40 (97.5%), then gone.
    expect(nouraLine?.points).toEqual([
      { attendanceRate: 95, unexcused: 1, grade: G, classroom: '1' },
      { attendanceRate: 97.5, unexcused: 1, grade: G, classroom: '1' },
      null,
    ])
  })

  it('without IDs, a change of classroom is another student', () => {
    const noId = (x: StudentCounts) => ({ ...x, studentId: null })
    const found = [[noId(students[1]![2]!)], [noId(students[2]![1]!)]]
    expect(studentTimelines(found)).toHaveLength(2)
  })

  it('counts a student’s attendance from the days present', () => {
    expect(attendanceOf({ records: 60, excused: 1, unexcused: 6 })).toBe(88.33)
    expect(attendanceOf({ records: 0, excused: 0, unexcused: 0 })).toBe(0)
  })
})

describe('two uploads compared', () => {
  const second = compareAnalyses({ a: u2, b: u3, studentsA: students[1]!, studentsB: students[2]!, ladder: defaultLadder })

  it('gives each classroom’s change in attendance (points) and unexcused days', () => {
    expect(second.classrooms).toEqual([
      {
        grade: G,
        classroom: '1',
        a: { attendanceRate: 90.83, unexcused: 8 },
        b: { attendanceRate: 88.33, unexcused: 6 },
        change: { attendanceRate: -2.5, unexcused: -2 },
      },
      {
        grade: G,
        classroom: '2',
        a: { attendanceRate: 75, unexcused: 10 },
        b: { attendanceRate: 84.17, unexcused: 14 },
        change: { attendanceRate: 9.17, unexcused: 4 },
      },
    ])
  })

  it('counts who is in both, who joined and who left', () => {
    expect(second.students).toEqual({ matched: 3, joined: 0, left: 1 })
  })

  it('ranks the rises in days missed: Reem +3 (from classroom 1), Sara +2, Hind +1', () => {
    expect(second.roseMost.map((r) => [r.name, r.change.absent, r.change.unexcused])).toEqual([
      [reem.name, 3, 0],
      [sara.name, 2, 2],
      [hind.name, 1, 1],
    ])
    expect(second.roseMost[0]?.previousClassroom).toEqual({ grade: G, classroom: '1' })
    expect(second.roseMost[1]?.previousClassroom).toBeNull()
    // Sara: 5 of 40 days missed (12.5%), then 7 of 60 (11.67%).
    expect(second.roseMost[1]?.a).toEqual({ absent: 5, unexcused: 4, absenceRate: 12.5 })
    expect(second.roseMost[1]?.b).toEqual({ absent: 7, unexcused: 6, absenceRate: 11.67 })
  })

  it('names the students new to a step: Sara from the first warning (4 days) to the second (6)', () => {
    expect(second.newToStep).toEqual([
      {
        name: sara.name,
        studentId: sara.studentId,
        grade: G,
        classroom: '1',
        step: 1,
        days: 5,
        document: 'secondWarning',
        stepName: null,
        unexcused: 6,
        previousUnexcused: 4,
        previousStep: 0,
      },
    ])
    expect(second.newToStepTotal).toBe(1)
  })

  it('from the first upload: Sara (4 days) and Reem (3, exactly the first step) reach the first warning; Hind stays', () => {
    const first = compareAnalyses({ a: u1, b: u2, studentsA: students[0]!, studentsB: students[1]!, ladder: defaultLadder })
    expect(first.newToStep.map((x) => [x.name, x.step, x.previousStep])).toEqual([
      [sara.name, 0, null],
      [reem.name, 0, null],
    ])
    expect(first.students).toEqual({ matched: 4, joined: 0, left: 0 })
  })

  it('uses the ladder given: on the short preset (10, 15, 20) nobody in the third upload is new to a step', () => {
    const short = compareAnalyses({ a: u2, b: u3, studentsA: students[1]!, studentsB: students[2]!, ladder: ladderPresets.short })
    // Hind: 10 then 11 days, step 0 both times.
    expect(short.newToStep).toEqual([])
  })

  it('counts a student only in the second as new, and new to her step', () => {
    const joined = s({ name: 'لمى فهد سالم', studentId: '1100000009', grade: G }, '2', 60, 0, 25)
    const c = compareAnalyses({ a: u2, b: u3, studentsA: students[1]!, studentsB: [...students[2]!, joined], ladder: defaultLadder })
    expect(c.students).toEqual({ matched: 3, joined: 1, left: 1 })
    expect(c.newToStep[0]).toMatchObject({ name: 'لمى فهد سالم', step: 4, document: 'enrolmentChange', previousUnexcused: null })
  })
})
