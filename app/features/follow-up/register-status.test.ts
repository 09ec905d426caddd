import { describe, expect, it } from 'vitest'
import { firstSunday, hind, noura, reem, sara, schoolDays, threeUploads } from '#tests/follow-up-workbooks.ts'
import { ladderPresets } from './ladder.ts'
import { registerStatus, schoolYearOf, schoolYearsOf, studentsAtStep, type RegisterEntry, type RosterInput } from './register-status.ts'
import { studentKey } from './student-key.ts'

// The register's rules (docs/follow-up.md) on three hand-made uploads of one class a month apart
// (tests/follow-up-workbooks.ts says who is where); every expectation below worked out by hand.

const lastDayOf = (days: number) => schoolDays(firstSunday, days).at(-1)!.toISOString().slice(0, 10)
const rosters: RosterInput[] = threeUploads.map((u, i) => ({
  id: `a${i + 1}`,
  title: u.title,
  createdAt: new Date(Date.UTC(2025, 9 + i, 20)),
  lastDay: lastDayOf(u.days),
  students: u.students.map((s) => ({
    name: s.name,
    studentId: s.studentId ?? null,
    grade: s.grade,
    classroom: s.classroom,
    unexcused: s.unexcused,
  })),
}))
const [october, november] = rosters as [RosterInput, RosterInput, RosterInput]
const standard = ladderPresets.standard
const key = (s: { name: string; studentId?: string; grade: string }, classroom = '1') =>
  studentKey({ studentId: s.studentId ?? null, name: s.name, grade: s.grade, classroom })

let ids = 0
const entry = (
  who: { name: string; studentId?: string; grade: string },
  classroom: string,
  step: number,
  status: RegisterEntry['status'],
): RegisterEntry => ({
  id: `e${++ids}`,
  schoolYear: 2025,
  studentKey: key(who, classroom),
  studentName: who.name,
  studentId: who.studentId ?? null,
  grade: who.grade,
  classroom,
  step,
  stepDays: standard[step - 1]!.days,
  stepName: null,
  document: standard[step - 1]!.document,
  unexcused: 0,
  issuedOn: '2025-10-20',
  issuedBy: 'Teacher',
  status,
  notes: '',
})
const steps = (view: { atStep: readonly { name: string; step: number; classroom: string }[] }) =>
  view.atStep.map((s) => [s.name, s.classroom, s.step])

describe('the school year', () => {
  it('starts on 1 August', () => {
    expect(schoolYearOf('2025-08-01')).toBe(2025)
    expect(schoolYearOf('2025-07-31')).toBe(2024)
    expect(schoolYearOf('2026-06-30')).toBe(2025)
    expect(schoolYearOf('2025-12-11')).toBe(2025)
  })
  it('of an analysis: its last day, else the day it was uploaded; the years latest first', () => {
    expect(rosters.map((r) => r.lastDay)).toEqual(['2025-10-16', '2025-11-13', '2025-12-11'])
    const undated = { lastDay: null, createdAt: new Date('2026-09-02T10:00:00Z') }
    expect(schoolYearsOf([...rosters, undated], [{ schoolYear: 2023 }])).toEqual([2026, 2025, 2023])
  })
})

describe('students at a step across three uploads (standard ladder)', () => {
  it('after the first upload: exactly 3 days is step 1, 2 days no step, 5 days step 2, exactly 25 days step 5', () => {
    // In classroom and name order.
    expect(steps(registerStatus([october], [], standard, 2025))).toEqual([
      [reem.name, '1', 2],
      [sara.name, '1', 1],
      [hind.name, '1', 5],
    ])
  })

  it('a later upload moves a student up and follows one who changed classroom by ID; one who left stays as last seen', () => {
    const view = registerStatus(rosters, [], standard, 2025)
    // سارة 6 (step 2, up from 1), نورة 3 (step 1), ريم 10 in classroom 2 (step 3), هند 25 from October.
    expect(Object.fromEntries(view.atStep.map((s) => [s.name, [s.classroom, s.unexcused, s.step, s.analysisTitle]]))).toEqual({
      [sara.name]: ['1', 6, 2, 'December'],
      [noura.name]: ['1', 3, 1, 'December'],
      [reem.name]: ['2', 10, 3, 'December'],
      [hind.name]: ['1', 25, 5, 'October'],
    })
    // ريم is one student, not two: her key is her ID.
    expect(view.atStep.filter((s) => s.name === reem.name)).toHaveLength(1)
  })

  it('counts issued and outstanding per classroom, and outstanding falls as documents are recorded', () => {
    // After October: سارة (1), ريم (2), هند (5) owed a document; record سارة's step 1 as signed and ريم's step 2 as declined.
    const issued = [entry(sara, '1', 1, 'signed'), entry(reem, '1', 2, 'declined')]
    expect(
      registerStatus([october], [], standard, 2025)
        .outstanding.map((s) => s.name)
        .sort(),
    ).toEqual([hind.name, reem.name, sara.name].sort())
    expect(registerStatus([october], issued, standard, 2025).outstanding.map((s) => s.name)).toEqual([hind.name])
    expect(registerStatus([october], issued, standard, 2025).byClassroom).toEqual([
      { grade: 'الأول المتوسط', classroom: '1', reached: 3, issued: 2, outstanding: 1 },
    ])

    // November: سارة reached step 2 (owed again), ريم still step 2 in classroom 2 (recorded), هند as in October.
    const afterNovember = registerStatus([october, november], issued, standard, 2025)
    expect(afterNovember.outstanding.map((s) => [s.name, s.step])).toEqual([
      [sara.name, 2],
      [hind.name, 5],
    ])
    expect(afterNovember.byClassroom).toEqual([
      { grade: 'الأول المتوسط', classroom: '1', reached: 2, issued: 2, outstanding: 2 },
      { grade: 'الأول المتوسط', classroom: '2', reached: 1, issued: 0, outstanding: 0 },
    ])

    // December: نورة reaches step 1 and ريم step 3: four owed a document.
    const afterDecember = registerStatus(rosters, issued, standard, 2025)
    expect(afterDecember.outstanding.map((s) => [s.name, s.step]).sort()).toEqual(
      [
        [sara.name, 2],
        [noura.name, 1],
        [reem.name, 3],
        [hind.name, 5],
      ].sort(),
    )
    // A document at the student's step or a later one settles it.
    expect(registerStatus(rosters, [...issued, entry(reem, '2', 3, 'awaiting')], standard, 2025).outstanding).toHaveLength(3)
  })

  it('reads only the school year asked for', () => {
    const nextYear = { ...october, id: 'a4', lastDay: '2026-09-30' }
    // سارة's 2025 document does not settle her step in 2026.
    const view = registerStatus([nextYear], [entry(sara, '1', 1, 'signed')], standard, 2026)
    expect(view.issued).toEqual([])
    expect(view.outstanding.map((s) => s.name)).toEqual([reem.name, sara.name, hind.name])
    expect(studentsAtStep([nextYear], standard, 2025)).toEqual([])
  })
})

describe('the short ladder (10, 15, 20)', () => {
  it('places only 10 days and more: ريم step 1 (exactly 10), هند step 3 (25 ≥ 20)', () => {
    expect(steps(registerStatus(rosters, [], ladderPresets.short, 2025))).toEqual([
      [hind.name, '1', 3],
      [reem.name, '2', 1],
    ])
  })
  it('matches entries by the step’s position: a step-2 document settles ريم’s step 1', () => {
    const view = registerStatus(rosters, [entry(reem, '1', 2, 'signed')], ladderPresets.short, 2025)
    expect(view.outstanding.map((s) => s.name)).toEqual([hind.name])
  })
})
