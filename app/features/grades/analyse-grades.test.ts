import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AnalysisError, compareClassrooms } from '#app/features/analyses/index.ts'
import { catalogue, getMessages } from '#app/i18n/messages.server.ts'
import { createTranslator, lookup } from '#app/i18n/translate.ts'
import { DomainError } from '#app/lib/errors.ts'
import type { CellValue, SheetRow } from '#app/platform/xlsx/types.ts'
import { byJson, project, shapeOf, type Json } from '#tests/expected-json.ts'
import { readWorkbookRows } from '#tests/workbook-rows.ts'
import {
  analyseGrades,
  gradesColumns,
  gradesSheetNames,
  readScore,
  recomputeGrades,
  type GradesAnalysis,
  type GradesReport,
  type SubjectReport,
} from './analyse-grades.ts'
import { bandKeys, bandPresets, type GradeBand } from './bands.ts'
import type { ScoreFigures } from './grade-figures.ts'
import { sampleStudents } from './sample-data.ts'
import { gradesSampleWorkbook } from './sample-workbook.server.ts'

// ---- factories ------------------------------------------------------------------------------

const arabicHeader = ['اسم الطالب', 'رقم الهوية', 'الصف', 'الفصل', 'المادة', 'الدرجة', 'الدرجة العظمى']
const fieldsOfRow = ['name', 'id', 'grade', 'classroom', 'subject', 'score', 'max'] as const
type Field = (typeof fieldsOfRow)[number]
type RowFields = Partial<Record<Field, CellValue>>

/** One data row in the sample's column order, with the fields a test does not care about filled in. */
function row(fields: RowFields = {}): CellValue[] {
  const defaults: Required<RowFields> = {
    name: 'علي أحمد محمد الغامدي',
    id: '1000000001',
    grade: 'الأول المتوسط',
    classroom: '1',
    subject: 'الرياضيات',
    score: 80,
    max: 100,
  }
  return fieldsOfRow.map((field) => (field in fields ? (fields[field] as CellValue) : defaults[field]))
}

/** Students 1…n of one classroom, each with a score (null: an empty, absent cell). */
function students(scores: readonly (CellValue | undefined)[], fields: RowFields = {}): CellValue[][] {
  return scores.map((score, i) =>
    row({ id: `${fields.classroom ?? '1'}-${i + 1}`, name: `طالب رقم ${i + 1}`, ...fields, score: score ?? null }),
  )
}

/** A sheet: title rows, the header row, then the data rows, numbered as Excel would. */
function sheet(data: CellValue[][], header: CellValue[] = arabicHeader, title: CellValue[][] = []): SheetRow[] {
  return [...title, header, ...data].map((cells, i) => ({ row: i + 1, cells }))
}

/** The data rows cut down to some fields, in the given order (other layouts). */
function pick(rows: CellValue[][], fields: readonly Field[]): CellValue[][] {
  return rows.map((cells) => fields.map((field) => cells[fieldsOfRow.indexOf(field)] ?? null))
}

function refusal(run: () => unknown): AnalysisError {
  try {
    run()
  } catch (error) {
    if (error instanceof AnalysisError) return error
    throw error
  }
  throw new Error('expected the analysis to refuse the file')
}

const subjectOf = (analysis: GradesAnalysis, index = 0) => analysis.report.subjects[index] as SubjectReport
const summaryOf = (analysis: GradesAnalysis, index = 0) => subjectOf(analysis, index).summary
const en = createTranslator('en', getMessages('en', ['grades']))
const readGradesRows = (file: string | Uint8Array) => readWorkbookRows(file, gradesSheetNames)

// ---- fixtures -------------------------------------------------------------------------------

const fixtureDir = path.resolve(import.meta.dirname, 'fixtures')
const fixtures = readdirSync(fixtureDir).filter((file) => file.endsWith('.xlsx'))

/** The report in the fixtures' terms: skip reasons in English. */
function asFixture(report: GradesReport) {
  return { ...report, skipped: report.skipped.map(({ row: at, reason }) => ({ row: at, reason: en.t(reason.key, reason.values) })) }
}

describe('the shared fixtures', () => {
  it('are there', () => {
    expect(fixtures).toEqual(['english-two-subjects.xlsx', 'small-ar.xlsx'])
  })

  for (const file of fixtures) {
    it(`${file}: every figure of ${file.replace('.xlsx', '.expected.json')}`, () => {
      const expected = JSON.parse(readFileSync(path.join(fixtureDir, file.replace(/\.xlsx$/, '.expected.json')), 'utf8')) as Record<
        string,
        Json
      >
      const { rows, sheetName } = readGradesRows(path.join(fixtureDir, file))
      const actual = project(asFixture(analyseGrades(rows, { sheetName }).report), shapeOf(expected)) as Record<string, unknown>
      // The spec orders classrooms by grade then number; the fixtures list them in file order,
      // so they are compared as sets here (their order is tested below, and in the figures).
      const unordered = (value: Record<string, unknown>) => ({
        ...value,
        subjects: (value.subjects as Record<string, unknown>[]).map((s) => ({ ...s, byClassroom: byJson(s.byClassroom) })),
      })
      expect(unordered(actual)).toEqual(unordered(expected))
    })
  }

  it('small-ar.xlsx: the title block, the sheet name, classrooms in school order, the five highest and lowest', () => {
    const { rows, sheetName } = readGradesRows(path.join(fixtureDir, 'small-ar.xlsx'))
    const analysis = analyseGrades(rows, { sheetName })
    expect(analysis.meta).toEqual({ school: 'متوسطة النور', exam: 'اختبار منتصف الفصل', sheetName: 'الدرجات' })
    const subject = subjectOf(analysis)
    expect(subject.byClassroom.map((c) => `${c.grade} / ${c.classroom}`)).toEqual([
      'الأول المتوسط / 1',
      'الأول المتوسط / 2',
      'الثاني المتوسط / 1',
    ])
    expect(subject.summary.highest5.map((s) => s.score)).toEqual([100, 99, 98.5, 94.5, 93.5])
    // 41.5 twice: by name (إبراهيم before عبدالرحمن).
    expect(subject.summary.lowest5).toEqual([
      { name: 'محمد مشاري فهد الزهراني', score: 40.5 },
      { name: 'إبراهيم عبدالله ناصر الشمري', score: 41.5 },
      { name: 'عبدالرحمن أحمد فهد الغامدي', score: 41.5 },
      { name: 'راكان فيصل سعد القحطاني', score: 45 },
      { name: 'أحمد بندر عمر الزهراني', score: 47 },
    ])
    expect(analysis.records.subjects[0]?.students).toHaveLength(36)
    expect(analysis.records.subjects[0]?.students.find((s) => s.score === null)).toEqual({
      name: 'عبدالله عمر مشاري الشهري',
      studentId: '1100689802',
      grade: 'الأول المتوسط',
      classroom: '2',
      score: null,
    })
  })

  it('english-two-subjects.xlsx: subjects in file order, each with its own max', () => {
    const { rows } = readGradesRows(path.join(fixtureDir, 'english-two-subjects.xlsx'))
    const analysis = analyseGrades(rows)
    expect(analysis.report.subjects.map((s) => [s.subject, s.max])).toEqual([
      ['Science', 40],
      ['Math', 100],
    ])
    expect(analysis.report.skipped).toEqual([
      { row: 32, reason: { key: 'grades.skip.unreadableScore', values: { value: 'abc' } } },
      { row: 79, reason: { key: 'grades.skip.scoreAboveMax', values: { value: 105, max: 100 } } },
    ])
  })
})

describe('the sample workbooks', () => {
  for (const lang of ['ar', 'en'] as const) {
    it(`${lang}: analyses with no skipped rows, two subjects out of 50, one absent student in each`, () => {
      const { rows, sheetName } = readGradesRows(gradesSampleWorkbook(lang))
      const analysis = analyseGrades(rows, { sheetName })
      expect(analysis.report.skipped).toEqual([])
      expect(analysis.meta).toMatchObject({ maxScore: 50, sheetName: lang === 'ar' ? 'الدرجات' : 'Grades' })
      expect(Object.keys(analysis.meta).sort()).toEqual(['exam', 'maxScore', 'school', 'sheetName', 'subject', 'term'])
      expect(analysis.report.subjects.map((s) => s.max)).toEqual([50, 50])
      for (const subject of analysis.report.subjects) {
        expect(subject.summary).toMatchObject({ students: sampleStudents.length - 1, absent: 1 })
        expect(subject.byClassroom.map((c) => c.classroom)).toEqual(['1', '2', '3'])
        // The sample covers every band.
        expect(subject.summary.bands.every((band) => band.count > 0)).toBe(true)
      }
      const math = sampleStudents.flatMap((s) => (s.scores.math === 'absent' ? [] : [s.scores.math]))
      expect(summaryOf(analysis).total).toBe(math.reduce((a, b) => a + b, 0))
    })
  }
})

// ---- own cases ------------------------------------------------------------------------------

describe('scores', () => {
  it('counts absent markers and empty cells as absent, out of every score figure', () => {
    const analysis = analyseGrades(sheet(students(['غائب', 'غ', 'absent', 'ABSENT', ' غَائِب ', '', null, 60, 80])))
    expect(analysis.report.skipped).toEqual([])
    expect(summaryOf(analysis)).toMatchObject({ students: 2, absent: 7, total: 140, average: 70, lowest: 60 })
    expect(analysis.records.subjects[0]?.students.filter((s) => s.score === null)).toHaveLength(7)
  })

  it('reads decimals with `.` or `٫` and Arabic-Indic digits', () => {
    const analysis = analyseGrades(sheet(students(['٤٢٫٥', '42.5', '٩٠', '۹۰', ' 7.25 ', 12.125, '٠٫٥'], { max: '١٠٠' })))
    expect(analysis.report.skipped).toEqual([])
    expect(analysis.records.subjects[0]?.students.map((s) => s.score)).toEqual([42.5, 42.5, 90, 90, 7.25, 12.125, 0.5])
    expect(summaryOf(analysis)).toMatchObject({ total: 284.875, highest: 90, lowest: 0.5, median: 42.5 })
    expect([readScore('٣٫٧٥'), readScore('-0'), readScore(1 / 3), readScore(true), readScore({ kind: 'date', serial: 45000 })]).toEqual([
      3.75,
      0,
      0.333333,
      null,
      null,
    ])
  })

  it('skips unreadable, negative and too high scores with the value it found', () => {
    const analysis = analyseGrades(sheet(students(['abc', '42,5', '-3', -0.5, 100.5, 100, true, 50, 60, 70, 80, 90])))
    expect(analysis.report.skipped).toEqual([
      { row: 2, reason: { key: 'grades.skip.unreadableScore', values: { value: 'abc' } } },
      { row: 3, reason: { key: 'grades.skip.unreadableScore', values: { value: '42,5' } } },
      { row: 4, reason: { key: 'grades.skip.negativeScore', values: { value: '-3' } } },
      { row: 5, reason: { key: 'grades.skip.negativeScore', values: { value: '-0.5' } } },
      { row: 6, reason: { key: 'grades.skip.scoreAboveMax', values: { value: 100.5, max: 100 } } },
      { row: 8, reason: { key: 'grades.skip.unreadableScore', values: { value: 'true' } } },
    ])
    expect(summaryOf(analysis)).toMatchObject({ students: 6, highest: 100, lowest: 50 })
  })

  it('skips a second row for the same student and subject, naming the first; another subject is no duplicate', () => {
    const analysis = analyseGrades(
      sheet([
        row({ score: 'غائب' }),
        row({ score: 70 }),
        row({ subject: 'العلوم', score: 90 }),
        row({ score: 'x', id: '2' }),
        row({ score: 75, id: '2' }),
        row({ score: 76, id: '2' }),
      ]),
    )
    expect(analysis.report.skipped).toEqual([
      { row: 3, reason: { key: 'grades.skip.duplicate', values: { firstRow: 2 } } },
      { row: 5, reason: { key: 'grades.skip.unreadableScore', values: { value: 'x' } } },
      { row: 7, reason: { key: 'grades.skip.duplicate', values: { firstRow: 6 } } },
    ])
    expect(analysis.report.subjects.map((s) => [s.subject, s.summary.students, s.summary.absent])).toEqual([
      ['الرياضيات', 1, 1],
      ['العلوم', 1, 0],
    ])
  })

  it('tells students apart by normalised name, grade and classroom without an ID column', () => {
    const header = ['اسم الطالب', 'الصف', 'الفصل', 'الدرجة']
    const rows = pick(
      [
        row({ name: 'أسامة إبراهيم الغامدي' }),
        row({ name: 'اُسامه ابراهيم الغامدى' }),
        row({ name: 'أسامة إبراهيم الغامدي', classroom: '2' }),
      ],
      ['name', 'grade', 'classroom', 'score'],
    )
    const analysis = analyseGrades(sheet(rows, header))
    expect(analysis.report.skipped).toEqual([{ row: 3, reason: { key: 'grades.skip.duplicate', values: { firstRow: 2 } } }])
    expect(analysis.records.subjects[0]?.students.map((s) => [s.name, s.studentId, s.classroom])).toEqual([
      ['أسامة إبراهيم الغامدي', null, '1'],
      ['أسامة إبراهيم الغامدي', null, '2'],
    ])
  })

  it('skips rows without a name, a grade or a classroom', () => {
    const analysis = analyseGrades(
      sheet([
        row({ name: ' ' }),
        row({ id: '2', grade: null }),
        row({ id: '3', classroom: '' }),
        ...students([1, 2, 3], { classroom: '4' }),
      ]),
    )
    expect(analysis.report.skipped.map((s) => s.reason)).toEqual([
      { key: 'grades.skip.noName' },
      { key: 'grades.skip.noGrade' },
      { key: 'grades.skip.noClassroom' },
    ])
  })
})

describe('subjects and maxima', () => {
  it('analyses two subjects each on its own, in order of first appearance, names compared normalised', () => {
    const analysis = analyseGrades(
      sheet([
        ...students([30, 40], { subject: 'العلوم', max: 40 }),
        ...students([50, 100], { subject: 'الرياضيات' }),
        ...students([20], { subject: 'العلوم ', max: '٤٠', id: 'x' }),
        ...students([75], { subject: 'الرِّياضيات', id: 'y' }),
      ]),
    )
    expect(analysis.report.subjects.map((s) => [s.subject, s.max, s.summary.students, s.summary.total, s.summary.average])).toEqual([
      ['العلوم', 40, 3, 90, 30],
      ['الرياضيات', 100, 3, 225, 75],
    ])
    // Percent of max: 40/40 and 100/100 are both excellent.
    expect(analysis.report.subjects.map((s) => s.summary.bands[0]?.count)).toEqual([1, 1])
  })

  it("takes the max from the title block when there is no max column, else 100; the subject likewise, else '—'", () => {
    const header = ['اسم الطالب', 'الصف', 'الفصل', 'الدرجة']
    const data = pick(students([18, 40, 36]), ['name', 'grade', 'classroom', 'score'])
    const title: CellValue[][] = [['الدرجة العظمى', '٤٠'], ['المادة: الفيزياء'], []]
    const titled = analyseGrades(sheet(data, header, title))
    expect(titled.meta).toEqual({ maxScore: 40, subject: 'الفيزياء' })
    expect(titled.report.subjects.map((s) => [s.subject, s.max])).toEqual([['الفيزياء', 40]])
    expect(summaryOf(titled)).toMatchObject({ passRate: 66.67, top: { count: 1, average: 100 }, weak: { count: 1, average: 45 } })
    const bare = analyseGrades(sheet(pick(students([18, 40, 36]), ['name', 'grade', 'classroom', 'score']), header))
    expect(bare.meta).toEqual({})
    expect(bare.report.subjects.map((s) => [s.subject, s.max])).toEqual([['—', 100]])
    expect(summaryOf(bare).passRate).toBe(0)
  })

  it("uses the title block's max for empty max cells, the row's own otherwise", () => {
    const analysis = analyseGrades(
      sheet([...students([10, 20], { max: null }), ...students([15], { max: 20, id: 'z' })], arabicHeader, [['الدرجة العظمى', 20]]),
    )
    expect(analysis.report.skipped).toEqual([])
    expect(subjectOf(analysis).max).toBe(20)
  })

  it('skips an unreadable max and a max other than the subject’s, but not on an absent row', () => {
    const analysis = analyseGrades(
      sheet([
        ...students([30, 35], { max: 40 }),
        row({ id: 'a', score: 30, max: 'أربعون' }),
        row({ id: 'b', score: 30, max: 0 }),
        row({ id: 'c', score: 30, max: 50 }),
        row({ id: 'd', score: 'غائب', max: 'x' }),
        row({ id: 'e', score: 20, max: '40' }),
        row({ id: 'f', score: 25, max: 40 }),
      ]),
    )
    expect(analysis.report.skipped).toEqual([
      { row: 4, reason: { key: 'grades.skip.unreadableMax', values: { value: 'أربعون' } } },
      { row: 5, reason: { key: 'grades.skip.unreadableMax', values: { value: '0' } } },
      { row: 6, reason: { key: 'grades.skip.otherMax', values: { value: 50, max: 40 } } },
    ])
    expect(summaryOf(analysis)).toMatchObject({ students: 4, absent: 1 })
  })

  it("takes an all-absent subject's max from its rows, else the title block, else 100", () => {
    const analysis = analyseGrades(sheet([...students([10, 20]), row({ id: 'q', subject: 'الفنية', score: 'غ', max: 20 })]))
    expect(analysis.report.subjects.map((s) => [s.subject, s.max, s.summary.students, s.summary.absent])).toEqual([
      ['الرياضيات', 100, 2, 0],
      ['الفنية', 20, 0, 1],
    ])
  })
})

describe('layout', () => {
  it('reads English headers in another order, ignoring extra columns', () => {
    const header = ['Mark', 'Notes', 'Out of', 'Classroom', 'Grade', 'Student', 'ID', 'Subject']
    const data = pick(students([18, 'absent', 20], { subject: 'Science', max: 20 }), [
      'score',
      'id',
      'max',
      'classroom',
      'grade',
      'name',
      'id',
      'subject',
    ]).map((cells) => cells.map((cell, i) => (i === 1 ? 'a note' : cell)))
    const analysis = analyseGrades(
      sheet(data, header, [
        ['School', 'Al-Noor'],
        ['Exam', 'Final'],
        ['Term', 'First'],
        ['Subject', 'Physics'],
        ['Max score', 30],
      ]),
    )
    expect(analysis.meta).toEqual({ school: 'Al-Noor', exam: 'Final', term: 'First', subject: 'Physics', maxScore: 30 })
    expect(analysis.report.subjects.map((s) => [s.subject, s.max])).toEqual([['Science', 20]])
    expect(summaryOf(analysis)).toMatchObject({ students: 2, absent: 1, total: 38, average: 19 })
    expect(analysis.records.subjects[0]?.students[0]).toEqual({
      name: 'طالب رقم 1',
      studentId: '1-1',
      grade: 'الأول المتوسط',
      classroom: '1',
      score: 18,
    })
  })

  it('accepts the other Arabic headers', () => {
    const header = ['الاسم', 'رقم الطالب', 'رقم الصف', 'الشعبة', 'الدرجة المستحقة', 'النهاية العظمى']
    const analysis = analyseGrades(
      sheet(pick(students([9, 10], { max: 10 }), ['name', 'id', 'grade', 'classroom', 'score', 'max']), header),
    )
    expect(subjectOf(analysis)).toMatchObject({ subject: '—', max: 10, summary: { students: 2, total: 19 } })
  })

  it('numbers skipped rows as Excel shows them, below a title block and across empty rows', () => {
    const rows: SheetRow[] = [
      { row: 2, cells: ['اسم المدرسة', 'متوسطة النور'] },
      { row: 4, cells: arabicHeader },
      { row: 5, cells: row() },
      { row: 8, cells: row({ id: '2', score: '؟' }) },
      { row: 9, cells: row({ id: '3' }) },
    ]
    expect(analyseGrades(rows).report.skipped).toEqual([{ row: 8, reason: { key: 'grades.skip.unreadableScore', values: { value: '؟' } } }])
  })
})

describe('refusals', () => {
  it('refuses a sheet without the header row, naming the missing columns', () => {
    const error = refusal(() => analyseGrades(sheet([['علي', 90]], ['lorem', 'ipsum'])))
    expect(error).toMatchObject({
      status: 422,
      messageKey: 'grades.errors.missingColumns',
      details: { missingColumns: ['student', 'grade', 'classroom', 'score'] },
    })
    const closest = refusal(() => analyseGrades(sheet([row()], ['اسم الطالب', 'الصف', 'الفصل', 'النتيجة'])))
    expect(closest).toMatchObject({
      messageKey: 'grades.errors.missingColumnsAt',
      details: { values: { row: 1 }, missingColumns: ['score'] },
    })
  })

  it('refuses a table without data rows', () => {
    expect(refusal(() => analyseGrades(sheet([[], [null, ' ']])))).toMatchObject({ status: 422, messageKey: 'grades.errors.noDataRows' })
  })

  it('accepts exactly half of the rows skipped and refuses more than half, with the first 20 reasons', () => {
    const half = analyseGrades(sheet([...students([50, 60]), row({ id: 'a', score: 'x' }), row({ id: 'b', score: -1 })]))
    expect(half.report.skipped).toHaveLength(2)
    const error = refusal(() =>
      analyseGrades(sheet([...students([50]), ...Array.from({ length: 25 }, (_, i) => row({ id: `x${i}`, score: 200 }))])),
    )
    expect(error).toMatchObject({ status: 422, messageKey: 'grades.errors.tooManySkipped', details: { values: { skipped: 25, rows: 26 } } })
    expect(error.details.skipped).toHaveLength(20)
    expect(error.details.skipped?.[0]).toEqual({ row: 3, reason: { key: 'grades.skip.scoreAboveMax', values: { value: 200, max: 100 } } })
  })
})

describe('figures', () => {
  it('computes every figure of a small group by hand', () => {
    const analysis = analyseGrades(sheet(students([10, 20, 30, 40, 'غائب'], { max: 40 })))
    expect(summaryOf(analysis)).toEqual({
      students: 4,
      absent: 1,
      total: 100,
      average: 25,
      highest: 40,
      lowest: 10,
      median: 25,
      stdDev: 11.18, // √125
      passRate: 75,
      bands: [
        { key: 'excellent', count: 1, percentage: 25 },
        { key: 'veryGood', count: 0, percentage: 0 },
        { key: 'good', count: 1, percentage: 25 },
        { key: 'acceptable', count: 1, percentage: 25 },
        { key: 'weak', count: 1, percentage: 25 },
      ],
      // k = max(1, round(0.27 × 4)) = 1
      top: { count: 1, average: 100 },
      weak: { count: 1, average: 25 },
      gap: 75,
      highest5: [
        { name: 'طالب رقم 4', score: 40 },
        { name: 'طالب رقم 3', score: 30 },
        { name: 'طالب رقم 2', score: 20 },
        { name: 'طالب رقم 1', score: 10 },
      ],
      lowest5: [
        { name: 'طالب رقم 1', score: 10 },
        { name: 'طالب رقم 2', score: 20 },
        { name: 'طالب رقم 3', score: 30 },
        { name: 'طالب رقم 4', score: 40 },
      ],
    })
  })

  it('rounds half away from zero, exactly', () => {
    // Average, median and deviation are 0.125 exactly; the gap 100·(0.25 − 0)/1.
    const analysis = analyseGrades(sheet(students([0, 0.25], { max: 1 })))
    expect(summaryOf(analysis)).toMatchObject({
      total: 0.25,
      average: 0.13,
      median: 0.13,
      stdDev: 0.13,
      top: { average: 25 },
      weak: { average: 0 },
      gap: 25,
    })
    // Two-thirds, and a percent of a decimal max.
    const thirds = analyseGrades(sheet(students([1, 1, 0], { max: 3 })))
    expect(summaryOf(thirds)).toMatchObject({ average: 0.67, passRate: 0, stdDev: 0.47, weak: { count: 1, average: 0 } })
    expect(summaryOf(analyseGrades(sheet(students([2.5, 1.25], { max: 7.5 })))).top.average).toBe(33.33)
  })

  it('keeps ties together in the top and weak groups, with k rounded half up', () => {
    const tied = summaryOf(analyseGrades(sheet(students([50, 50, 50, 40, 30]))))
    expect([tied.top, tied.weak]).toEqual([
      { count: 3, average: 50 },
      { count: 1, average: 30 },
    ])
    // 0.27 × 50 = 13.5 → k = 14.
    const fifty = summaryOf(analyseGrades(sheet(students(Array.from({ length: 50 }, (_, i) => i + 1)))))
    expect([fifty.top.count, fifty.weak.count]).toEqual([14, 14])
    // Everyone tied: both groups are everyone, the gap is 0.
    const same = summaryOf(analyseGrades(sheet(students([70, 70, 70]))))
    expect([same.top.count, same.weak.count, same.gap, same.stdDev]).toEqual([3, 3, 0, 0])
  })

  it('lists the five highest and lowest, ties by name', () => {
    const names = ['يوسف', 'أحمد', 'بدر', 'خالد', 'ماجد', 'إياد', 'زياد']
    const data = names.map((name, i) => row({ id: String(i), name, score: i < 6 ? 90 : 10 }))
    const summary = summaryOf(analyseGrades(sheet(data)))
    expect(summary.highest5.map((s) => s.name)).toEqual(['أحمد', 'إياد', 'بدر', 'خالد', 'ماجد'])
    expect(summary.lowest5.map((s) => s.name)).toEqual(['زياد', 'أحمد', 'إياد', 'بدر', 'خالد'])
  })

  it('gives a classroom whose students were all absent zero counts and null figures', () => {
    const analysis = analyseGrades(sheet([...students([60, 70]), ...students(['غائب', 'غائب'], { classroom: '2' })]))
    const empty = subjectOf(analysis).byClassroom[1]
    expect(empty).toEqual({
      grade: 'الأول المتوسط',
      classroom: '2',
      students: 0,
      absent: 2,
      total: 0,
      average: null,
      highest: null,
      lowest: null,
      median: null,
      stdDev: null,
      passRate: null,
      bands: bandPresets.default.map(({ key }) => ({ key, count: 0, percentage: null })),
      top: { count: 0, average: null },
      weak: { count: 0, average: null },
      gap: null,
      highest5: [],
      lowest5: [],
    })
  })

  it('orders classrooms by grade in school order, then classroom number', () => {
    const data = [
      ...students([1], { grade: 'الثالث الثانوي', classroom: '1' }),
      ...students([1], { grade: 'الأول المتوسط', classroom: '10' }),
      ...students([1], { grade: 'الأول المتوسط', classroom: '2' }),
      ...students([1], { grade: 'الأول الابتدائي', classroom: '1' }),
      ...students([1], { grade: 'قسم خاص', classroom: '1' }),
    ].map((cells, i) => cells.map((cell, j) => (j === 1 ? `s${i}` : cell)))
    const { byClassroom } = subjectOf(analyseGrades(sheet(data)))
    expect(byClassroom.map((c) => `${c.grade}/${c.classroom}`)).toEqual([
      'الأول الابتدائي/1',
      'الأول المتوسط/2',
      'الأول المتوسط/10',
      'الثالث الثانوي/1',
      'قسم خاص/1',
    ])
    expect([...byClassroom].sort(compareClassrooms)).toEqual(byClassroom)
  })
})

describe('bands', () => {
  const scores = [100, 96, 95, 94.5, 85, 84, 75, 74.75, 50, 0]

  it('uses the elementary preset when asked', () => {
    const analysis = analyseGrades(sheet(students(scores)), { bands: 'elementary' })
    expect(analysis.report.bands).toEqual(bandPresets.elementary)
    expect(summaryOf(analysis).bands).toEqual([
      { key: 'outstanding', count: 3, percentage: 30 },
      { key: 'advanced', count: 2, percentage: 20 },
      { key: 'proficient', count: 2, percentage: 20 },
      { key: 'notPassed', count: 3, percentage: 30 },
    ])
  })

  it("uses a teacher's own bands, known keys or labels of their own", () => {
    const bands: GradeBand[] = [
      { key: 'ممتاز مرتفع', min: 95 },
      { key: 'good', min: 60 },
      { key: 'Needs support', min: 0 },
    ]
    const analysis = analyseGrades(sheet(students(scores)), { bands })
    expect(analysis.report.bands).toEqual(bands)
    expect(summaryOf(analysis).bands.map((b) => [b.key, b.count])).toEqual([
      ['ممتاز مرتفع', 3],
      ['good', 5],
      ['Needs support', 2],
    ])
  })

  it('refuses invalid bands with the reason (400)', () => {
    const bands = [
      { key: 'good', min: 50 },
      { key: 'weak', min: 10 },
    ]
    expect(() => analyseGrades(sheet(students(scores)), { bands })).toThrow(DomainError)
    expect(() => recomputeGrades(analyseGrades(sheet(students(scores))).records, bands)).toThrow(
      expect.objectContaining({ status: 400, messageKey: 'grades.bandErrors.lastZero' }),
    )
  })

  it('recomputes stored records with other bands, as the analysis would', () => {
    const rows = sheet([...students(scores), ...students([55, 'غ', 91], { classroom: '2', subject: 'العلوم' })])
    const { records } = analyseGrades(rows)
    const stored = JSON.parse(JSON.stringify(records)) as typeof records
    expect(recomputeGrades(stored, 'elementary')).toEqual(analyseGrades(rows, { bands: 'elementary' }).report)
    expect(recomputeGrades(stored)).toEqual(analyseGrades(rows).report)
  })
})

describe('messages', () => {
  it('has every skip reason, refusal, column and band in both languages', () => {
    const keys = [
      ...[
        'noName',
        'noGrade',
        'noClassroom',
        'unreadableScore',
        'negativeScore',
        'scoreAboveMax',
        'unreadableMax',
        'otherMax',
        'duplicate',
      ].map((k) => `grades.skip.${k}`),
      ...['invalidFormat', 'missingColumns', 'noDataRows', 'tooManySkipped'].map((k) => `grades.errors.${k}`),
      ...['count', 'label', 'duplicate', 'min', 'order', 'lastZero'].map((k) => `grades.bandErrors.${k}`),
      ...['default', 'elementary'].map((k) => `grades.presets.${k}`),
      ...Object.keys(gradesColumns).map((c) => `grades.columns.${c}`),
      ...bandKeys.map((k) => `grades.bands.${k}`),
    ]
    const missing = keys.flatMap((key) =>
      (['ar', 'en'] as const).filter((lang) => typeof lookup(catalogue[lang], key) !== 'string').map((lang) => `${lang}: ${key}`),
    )
    expect(missing).toEqual([])
  })

  it('reads the fixed product messages exactly as the spec writes them', () => {
    const ar = createTranslator('ar', getMessages('ar', ['grades']))
    expect(en.t('grades.errors.invalidFormat')).toBe('Invalid file format. Please download the sample file and modify it.')
    expect(ar.t('grades.errors.invalidFormat')).toBe('صيغة الملف غير صحيحة. يرجى تنزيل الملف النموذجي وتعديله.')
    expect(ar.t('grades.bands.outstanding')).toBe('متفوق')
    expect(ar.t('grades.bands.notPassed')).toBe('غير مجتاز')
  })
})

// ---- properties -----------------------------------------------------------------------------

const generatedRows = fc.array(
  fc.record({
    student: fc.integer({ min: 0, max: 40 }),
    classroom: fc.constantFrom('1', '2', '3'),
    subject: fc.constantFrom('الرياضيات', 'العلوم'),
    score: fc.oneof(
      fc.integer({ min: 0, max: 80 }).map((n) => n / 2),
      fc.constantFrom<CellValue>('غائب', null, 'x', -5, 41),
    ),
  }),
  { minLength: 1, maxLength: 150 },
)

function generatedSheet(rows: { student: number; classroom: string; subject: string; score: CellValue }[]): SheetRow[] {
  return sheet(
    rows.map((r) =>
      row({
        id: String(r.student),
        name: `طالب ${r.student}`,
        classroom: r.classroom,
        grade: r.student % 2 ? 'الأول المتوسط' : 'الثاني المتوسط',
        subject: r.subject,
        score: r.score,
        max: 40,
      }),
    ),
  )
}

function attempt(run: () => GradesAnalysis): GradesAnalysis | AnalysisError {
  try {
    return run()
  } catch (error) {
    if (error instanceof AnalysisError) return error
    throw error
  }
}

const groupsOf = (report: GradesReport): ScoreFigures[] => report.subjects.flatMap((s) => [s.summary, ...s.byClassroom])
const bandChoices = fc.constantFrom<readonly GradeBand[] | 'default' | 'elementary'>('default', 'elementary', [
  { key: 'a', min: 99 },
  { key: 'b', min: 33 },
  { key: 'c', min: 1 },
  { key: 'd', min: 0 },
])

describe('properties', () => {
  it('counts every student once per subject: band counts add up to the students, classrooms to the subject', () => {
    fc.assert(
      fc.property(generatedRows, bandChoices, (rows, bands) => {
        const outcome = attempt(() => analyseGrades(generatedSheet(rows), { bands }))
        if (outcome instanceof AnalysisError) return
        const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0)
        for (const group of groupsOf(outcome.report)) expect(sum(group.bands.map((b) => b.count))).toBe(group.students)
        for (const subject of outcome.report.subjects) {
          expect(sum(subject.byClassroom.map((c) => c.students))).toBe(subject.summary.students)
          expect(sum(subject.byClassroom.map((c) => c.absent))).toBe(subject.summary.absent)
          const seen = new Set(rows.filter((r) => r.subject === subject.subject).map((r) => r.student))
          expect(subject.summary.students + subject.summary.absent).toBeLessThanOrEqual(seen.size)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('gives band percentages each within 0.005 of the exact share, so they add up to 100 within that per band', () => {
    fc.assert(
      fc.property(generatedRows, bandChoices, (rows, bands) => {
        const outcome = attempt(() => analyseGrades(generatedSheet(rows), { bands }))
        if (outcome instanceof AnalysisError) return
        for (const group of groupsOf(outcome.report)) {
          if (group.students === 0) continue
          for (const band of group.bands)
            expect(Math.abs((band.percentage as number) - (100 * band.count) / group.students)).toBeLessThanOrEqual(0.005 + 1e-9)
          const total = group.bands.reduce((a, b) => a + (b.percentage as number), 0)
          expect(Math.abs(total - 100)).toBeLessThanOrEqual(0.005 * group.bands.length + 1e-9)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('can miss 100 by more than 0.01 with five bands, each rounded as the spec says (1, 1, 1, 1 and 3 of 7)', () => {
    const summary = summaryOf(analyseGrades(sheet(students([95, 85, 75, 55, 10, 20, 30]))))
    expect(summary.bands.map((b) => b.percentage)).toEqual([14.29, 14.29, 14.29, 14.29, 42.86])
    expect(summary.bands.reduce((a, b) => a + (b.percentage as number), 0)).toBeCloseTo(100.02, 10)
  })

  it('has non-empty top and weak groups whenever there are students, the top average at least the weak one', () => {
    fc.assert(
      fc.property(generatedRows, (rows) => {
        const outcome = attempt(() => analyseGrades(generatedSheet(rows)))
        if (outcome instanceof AnalysisError) return
        const groups = groupsOf(outcome.report)
        for (const group of groups.filter((g) => g.students === 0))
          expect([group.top.count, group.weak.count, group.gap]).toEqual([0, 0, null])
        for (const group of groups.filter((g) => g.students > 0)) {
          const k = Math.max(1, Math.floor((27 * group.students + 50) / 100))
          expect(group.top.count).toBeGreaterThanOrEqual(k)
          expect(group.weak.count).toBeGreaterThanOrEqual(k)
          expect(group.top.average as number).toBeGreaterThanOrEqual(group.weak.average as number)
          expect(group.gap as number).toBeGreaterThanOrEqual(0)
          expect(group.lowest as number).toBeLessThanOrEqual(group.median as number)
          expect(group.median as number).toBeLessThanOrEqual(group.highest as number)
          expect(group.highest5).toHaveLength(Math.min(5, group.students))
          expect(group.highest5[0]?.score).toBe(group.highest)
          expect(group.lowest5[0]?.score).toBe(group.lowest)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('matches a straightforward computation of total, average and pass rate', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 80 }), (quarters) => {
        const scores = quarters.map((q) => q / 4) // out of 100, in quarter marks: exact in binary
        const summary = summaryOf(analyseGrades(sheet(students(scores))))
        const total = scores.reduce((a, b) => a + b, 0)
        expect(summary.total).toBe(total)
        // average = total/n = quarters/(4n), exactly; rounding reference in integers.
        const q = quarters.reduce((a, b) => a + b, 0)
        const n = scores.length
        const hundredths = Math.floor((q * 100 * 2 + 4 * n) / (2 * 4 * n)) // half up = half away for ≥ 0
        expect(summary.average).toBe(hundredths / 100)
        const passed = scores.filter((s) => s >= 50).length
        expect(summary.passRate).toBe(Math.floor((passed * 10_000 * 2 + n) / (2 * n)) / 100)
      }),
      { numRuns: 300 },
    )
  })

  it('recomputes the same report from the records (also after a trip through JSON)', () => {
    fc.assert(
      fc.property(generatedRows, bandChoices, (rows, bands) => {
        const outcome = attempt(() => analyseGrades(generatedSheet(rows), { bands }))
        if (outcome instanceof AnalysisError) return
        expect(recomputeGrades(outcome.records, bands)).toEqual(outcome.report)
        expect(recomputeGrades(JSON.parse(JSON.stringify(outcome.records)) as typeof outcome.records, bands)).toEqual(outcome.report)
        // Without bands: the default preset.
        expect(recomputeGrades(outcome.records, bands === 'default' ? undefined : bands)).toEqual(outcome.report)
      }),
      { numRuns: 200 },
    )
  })
})
