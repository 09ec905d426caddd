import { describe, expect, it } from 'vitest'
import { AnalysisError } from '#app/features/analyses/index.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { createTranslator } from '#app/i18n/translate.ts'
import { comparable, fixtureGrid, noorFixtures } from '#tests/noor-fixtures.ts'
import { analyseAbsence, defaultWarningThresholds, recomputeTotals, type AbsenceAnalysis } from './analyse-absence.ts'

// Noor's own absence exports (docs/noor-layouts.md): per-student totals over several sheets, the
// same as a Windows-1256 CSV, daily records in an Excel 97–2003 file.

const en = createTranslator('en', getMessages('en', ['absence']))
const fixtures = noorFixtures('absence')

/** The analysis in the fixtures' terms: skip reasons in English, with their sheet. */
function asFixture(analysis: AbsenceAnalysis) {
  return {
    ...analysis.report,
    skipped: analysis.report.skipped.map(({ sheet, row, reason }) => ({
      ...(sheet !== undefined && { sheet }),
      row,
      reason: en.t(reason.key, reason.values),
    })),
    students: analysis.students,
  }
}

describe("Noor's absence exports", () => {
  it('are there: totals as .xlsx and .csv, daily records as .xls', () => {
    expect(fixtures.map((f) => f.file).sort()).toEqual(['absence-daily-noor.xls', 'absence-totals-ar.xlsx', 'absence-totals.csv'])
  })

  for (const fixture of fixtures) {
    it(`${fixture.file}: every figure and the recognised object of its expected.json`, () => {
      const analysis = analyseAbsence(fixtureGrid(fixture.path), fixture.schoolDays === undefined ? {} : { schoolDays: fixture.schoolDays })
      const { actual, expected } = comparable(asFixture(analysis), fixture.expected, ['byClassroom', 'students'])
      expect(actual).toEqual(expected)
    })
  }

  it('absence-totals.csv: without a period or school days the upload is refused, asking for them', () => {
    const csv = fixtures.find((f) => f.file === 'absence-totals.csv')
    expect.assert(csv)
    let error: unknown
    try {
      analyseAbsence(fixtureGrid(csv.path))
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(AnalysisError)
    expect(error).toMatchObject({ status: 422, messageKey: 'absence.errors.schoolDaysNeeded' })
    expect(en.t((error as AnalysisError).messageKey, (error as AnalysisError).details.values)).toMatch(/number of school days/)
  })

  it('absence-totals-ar.xlsx: the school days from the Hijri period, and the report recomputed for others from the stored rows', () => {
    const totals = fixtures.find((f) => f.file === 'absence-totals-ar.xlsx')
    expect.assert(totals)
    const analysis = analyseAbsence(fixtureGrid(totals.path))
    expect(analysis.meta).toMatchObject({ from: '1447/03/01', to: '1447/04/15' })
    expect.assert(analysis.records)
    // 20 school days: the student with 17 excused and 20 unexcused days is still out, and more join them.
    const fewer = recomputeTotals(analysis.records, 20, defaultWarningThresholds)
    expect(fewer.report.summary.days).toBe(20)
    expect(fewer.report.recognised?.schoolDays).toBe(20)
    for (const student of fewer.students) {
      expect(student.records).toBe(20)
      expect(student.present).toBe(20 - student.excused - student.unexcused)
    }
    expect(fewer.report.summary.records).toBe(20 * fewer.students.length)
    expect(fewer.report.skipped.length).toBeGreaterThanOrEqual(analysis.report.skipped.length)
    // 40 school days: the one skipped row is read, and the figures are the same rows over 40 days.
    const more = recomputeTotals(analysis.records, 40, defaultWarningThresholds)
    expect(more.report.skipped).toEqual([])
    expect(more.students).toHaveLength(analysis.students.length + 1)
    const sum = (key: 'excused' | 'unexcused' | 'late') => more.students.reduce((total, s) => total + s[key], 0)
    expect(more.report.summary).toMatchObject({
      records: 40 * more.students.length,
      excused: sum('excused'),
      unexcused: sum('unexcused'),
      late: sum('late'),
    })
  })

  it('absence-daily-noor.xls: lateness before unexcused, period absences apart, grade cells split into grade and section', () => {
    const daily = fixtures.find((f) => f.file === 'absence-daily-noor.xls')
    expect.assert(daily)
    const analysis = analyseAbsence(fixtureGrid(daily.path))
    expect(analysis.report.periodAbsences).toBe(5)
    expect(analysis.report.bySection.map((s) => s.section)).toEqual(['السنة المشتركة', 'مسار العلوم'])
    expect(new Set(analysis.students.map((s) => s.grade))).toEqual(new Set(['الأول الثانوي', 'الثاني الثانوي']))
    const total = analysis.students.reduce((sum, s) => sum + s.records, 0)
    expect(total).toBe(analysis.report.summary.records)
  })
})

describe("Noor's files that cannot be read", () => {
  const cover = {
    name: 'الغلاف',
    rows: [
      { row: 1, cells: ['اسم المدرسة', 'متوسطة النور'] },
      { row: 2, cells: ['المرحلة', 'المتوسطة'] },
    ],
    merges: [],
  }
  const refusalOf = (run: () => unknown) => {
    try {
      run()
    } catch (error) {
      return error
    }
    throw new Error('expected a refusal')
  }

  it('a workbook whose every sheet is a cover: refused, saying which columns were looked for', () => {
    const error = refusalOf(() => analyseAbsence({ container: 'xlsx', sheets: [cover, { ...cover, name: 'School Info' }] }))
    expect(error).toMatchObject({
      status: 422,
      messageKey: 'absence.errors.missingColumns',
      details: { missingColumns: ['student', 'grade', 'classroom', 'date', 'status'] },
    })
    expect(en.t('absence.errors.missingColumns', { within: 40, columns: 'x' })).toMatch(
      /^Invalid file format\. Please download the sample file and modify it\./,
    )
  })

  it('a totals sheet without a student column: refused, naming the sheet and row of the closest header', () => {
    const sheet = {
      name: 'Sheet1',
      rows: [
        { row: 1, cells: ['الصف', 'الأول المتوسط'] },
        { row: 2, cells: ['الفصل', '1'] },
        { row: 4, cells: ['م', 'الغياب بعذر', 'الغياب بدون عذر'] },
        { row: 5, cells: [1, 2, 3] },
      ],
      merges: [],
    }
    const error = refusalOf(() => analyseAbsence({ container: 'xlsx', sheets: [cover, sheet] }, { schoolDays: 30 }))
    expect(error).toMatchObject({
      messageKey: 'absence.errors.missingColumnsAt',
      details: { values: { sheet: 'Sheet1', row: 4 }, missingColumns: ['student'] },
    })
  })

  it('a totals file whose counts all exceed the school days: refused, with the first reasons', () => {
    const rows = [
      { row: 1, cells: ['الصف', 'الأول المتوسط', 'الفصل', '1'] },
      { row: 2, cells: ['الاسم', 'الغياب بعذر', 'الغياب بدون عذر'] },
    ]
    for (let i = 0; i < 6; i++) rows.push({ row: 3 + i, cells: [`طالب رقم ${i} الغامدي`, '30', '20'] })
    const error = refusalOf(() => analyseAbsence({ container: 'csv', sheets: [{ name: null, rows, merges: [] }] }, { schoolDays: 40 }))
    expect(error).toMatchObject({ messageKey: 'absence.errors.tooManySkipped', details: { values: { skipped: 6, rows: 6 } } })
    const first = (error as AnalysisError).details.skipped?.[0]
    expect(first && en.t(first.reason.key, first.reason.values)).toBe('excused and unexcused days exceed the school days')
  })

  it('school days outside 1–366 are refused', () => {
    const rows = [
      { row: 1, cells: ['الصف', 'الأول المتوسط', 'الفصل', '1'] },
      { row: 2, cells: ['الاسم', 'الغياب بعذر', 'الغياب بدون عذر'] },
      { row: 3, cells: ['علي أحمد محمد', 1, 2] },
    ]
    for (const days of [0, 367, 2.5])
      expect(
        refusalOf(() => analyseAbsence({ container: 'csv', sheets: [{ name: null, rows, merges: [] }] }, { schoolDays: days })),
      ).toMatchObject({ messageKey: 'absence.errors.schoolDaysInvalid' })
  })
})
