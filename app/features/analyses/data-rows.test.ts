import { describe, expect, it } from 'vitest'
import type { SheetRow } from '#app/platform/xlsx/types.ts'
import { AnalysisError } from './analysis-error.ts'
import { refuseMostlySkipped, requireTable, Roster, studentKeyOf } from './data-rows.ts'
import type { TableSpec } from './table.ts'

const spec: TableSpec<'name' | 'score', 'school'> = {
  columns: { name: { headers: ['اسم الطالب'], required: true }, score: { headers: ['الدرجة'], required: true } },
  titleLabels: { school: ['اسم المدرسة'] },
}

const rows = (...lines: SheetRow['cells'][]): SheetRow[] => lines.map((cells, i) => ({ row: i + 1, cells }))

function refusal(run: () => unknown): AnalysisError {
  try {
    run()
  } catch (error) {
    if (error instanceof AnalysisError) return error
    throw error
  }
  throw new Error('expected a refusal')
}

describe('requireTable', () => {
  it("returns the table, or refuses in the analysis's namespace", () => {
    expect(requireTable(rows(['اسم الطالب', 'الدرجة'], ['علي', 1]), spec, 'grades').rows).toHaveLength(1)
    expect(refusal(() => requireTable(rows(['اسم الطالب']), spec, 'grades'))).toMatchObject({
      status: 422,
      messageKey: 'grades.errors.missingColumns',
      details: { missingColumns: ['score'] },
    })
    expect(refusal(() => requireTable(rows(['اسم الطالب', 'الدرجة']), spec, 'absence')).messageKey).toBe('absence.errors.noDataRows')
  })
})

describe('refuseMostlySkipped', () => {
  const skipped = Array.from({ length: 30 }, (_, i) => ({ row: i + 2, reason: { key: 'x.skip.y' } }))

  it('accepts up to half of the rows skipped and refuses more, with the first 20 reasons', () => {
    expect(() => refuseMostlySkipped(skipped, 60, 'x')).not.toThrow()
    const error = refusal(() => refuseMostlySkipped(skipped, 59, 'x'))
    expect(error).toMatchObject({ messageKey: 'x.errors.tooManySkipped', details: { values: { skipped: 30, rows: 59 } } })
    expect(error.details.skipped).toEqual(skipped.slice(0, 20))
  })
})

describe('Roster', () => {
  const roster = () => new Roster({ student: 0, grade: 1, classroom: 2, studentId: 3 })

  it('says why a row cannot be placed', () => {
    const r = roster()
    expect([r.place([' ', 'الأول', '1']), r.place(['علي', null, '1']), r.place(['علي', 'الأول'])]).toEqual([
      'noName',
      'noGrade',
      'noClassroom',
    ])
  })

  it('gives one classroom object per grade and classroom, however written, labelled as first written', () => {
    const r = roster()
    const first = r.place(['علي', 'الأوَّل المتوسط', '٢'])
    const second = r.place(['سعد', 'الاول المتوسط', 2])
    expect(typeof first === 'object' && typeof second === 'object' && first.classroom === second.classroom).toBe(true)
    expect(r.classroomOf('الأول المتوسط', '2')).toEqual({ grade: 'الأول المتوسط', classroom: '2' })
  })

  it('knows a student by ID, else by normalised name in the classroom', () => {
    const r = roster()
    const byId = r.place(['علي أحمد', 'الأول', '1', '١٢٣'])
    const renamed = r.place(['علي أحمد الغامدي', 'الأول', '1', '123'])
    const byName = r.place(['أسامة', 'الأول', '1', ''])
    const spelled = r.place(['اُسامه', 'الاول', '1'])
    expect(byId).toMatchObject({ name: 'علي أحمد', studentId: '123' })
    expect(typeof byId === 'object' && typeof renamed === 'object' && byId.studentKey === renamed.studentKey).toBe(true)
    expect(byName).toMatchObject({ name: 'أسامة', studentId: null })
    expect(typeof byName === 'object' && typeof spelled === 'object' && byName.studentKey === spelled.studentKey).toBe(true)
    // An ID that reads like a name key is still another student.
    const classroom = r.classroomOf('الأول', '1')
    expect(studentKeyOf('x', 'x', classroom)).not.toBe(studentKeyOf('x', null, classroom))
  })
})
