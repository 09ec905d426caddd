import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AnalysisError, compareClassrooms, nameSortKey } from '#app/features/analyses/index.ts'
import { catalogue, getMessages } from '#app/i18n/messages.server.ts'
import { createTranslator, lookup } from '#app/i18n/translate.ts'
import type { CellValue, SheetRow } from '#app/platform/xlsx/types.ts'
import { byJson, project, shapeOf, type Json } from '#tests/expected-json.ts'
import { readWorkbookRows } from '#tests/workbook-rows.ts'
import {
  absenceColumns,
  absenceTypeKeys,
  analyseAbsence,
  classifyStatus,
  warningLevelKeys,
  type AbsenceAnalysis,
  type GroupFigures,
} from './analyse-absence.ts'

// ---- factories ------------------------------------------------------------------------------

const arabicHeader = ['اسم الطالب', 'رقم الهوية', 'الصف', 'الفصل', 'القسم', 'النظام الدراسي', 'التاريخ', 'اليوم', 'الحالة']
const columnsOfRecord = ['name', 'id', 'grade', 'classroom', 'section', 'system', 'date', 'day', 'status'] as const
type RecordFields = Partial<Record<(typeof columnsOfRecord)[number], CellValue>>

/** One data row in the sample's column order, with the fields a test does not care about filled in. */
function record(fields: RecordFields = {}): CellValue[] {
  const defaults: Required<RecordFields> = {
    name: 'علي أحمد محمد الغامدي',
    id: '1000000001',
    grade: 'الأول المتوسط',
    classroom: '1',
    section: 'عام',
    system: 'نهاري',
    date: '2025-08-24',
    day: '',
    status: 'حاضر',
  }
  return columnsOfRecord.map((column) => (column in fields ? (fields[column] as CellValue) : defaults[column]))
}

/** A sheet: title rows, the header row, then the data rows, numbered as Excel would. */
function sheet(data: CellValue[][], header: CellValue[] = arabicHeader, title: CellValue[][] = []): SheetRow[] {
  return [...title, header, ...data].map((cells, i) => ({ row: i + 1, cells }))
}

/** The sample's data rows cut down to some columns, in the given order (other layouts). */
function pick(rows: CellValue[][], columns: readonly (typeof columnsOfRecord)[number][]): CellValue[][] {
  return rows.map((cells) => columns.map((column) => cells[columnsOfRecord.indexOf(column)] ?? null))
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

const en = createTranslator('en', getMessages('en', ['absence']))
const readTestRows = (file: string) => readWorkbookRows(file, ['الغياب', 'Absence'])

// ---- fixtures -------------------------------------------------------------------------------

/** The analysis in the fixtures' terms: skip reasons in English. */
function asFixture(analysis: AbsenceAnalysis) {
  return {
    ...analysis.report,
    skipped: analysis.report.skipped.map(({ row, reason }) => ({ row, reason: en.t(reason.key, reason.values) })),
    students: analysis.students,
  }
}

const fixtureDir = path.resolve(import.meta.dirname, 'fixtures')
const fixtures = readdirSync(fixtureDir).filter((file) => file.endsWith('.xlsx'))

describe('the shared fixtures', () => {
  it('are there', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(2)
  })

  for (const file of fixtures) {
    it(`${file}: every figure of ${file.replace('.xlsx', '.expected.json')}`, () => {
      const expected = JSON.parse(readFileSync(path.join(fixtureDir, file.replace(/\.xlsx$/, '.expected.json')), 'utf8')) as Record<
        string,
        Json
      >
      const { rows, sheetName } = readTestRows(path.join(fixtureDir, file))
      const actual = project(asFixture(analyseAbsence(rows, { sheetName })), shapeOf(expected)) as Record<string, unknown>
      // The spec orders classrooms by grade then number and students by name; the fixtures list
      // both in file order, so those two are compared as sets (their order is tested below).
      const unordered = (value: Record<string, unknown>) => ({
        ...value,
        byClassroom: byJson(value.byClassroom),
        students: byJson(value.students),
      })
      expect(unordered(actual)).toEqual(unordered(expected))
    })
  }

  it('english-hijri-shuffled.xlsx: classrooms in school order, students by name', () => {
    const { rows } = readTestRows(path.join(fixtureDir, 'english-hijri-shuffled.xlsx'))
    const analysis = analyseAbsence(rows)
    expect(analysis.report.byClassroom.map((c) => `${c.grade} / ${c.classroom}`)).toEqual([
      'الأول المتوسط / 1',
      'الأول المتوسط / 2',
      'الثاني المتوسط / 1',
      'الثالث المتوسط / 1',
    ])
    const keys = analysis.students.map((s) => nameSortKey(s.name))
    expect(keys).toEqual([...keys].sort())
    expect(analysis.students[0]?.name).toBe('أحمد زياد ماجد السبيعي')
  })

  it('small-ar.xlsx: the title block, the sheet name and the Hijri dates of each absence', () => {
    const { rows, sheetName } = readTestRows(path.join(fixtureDir, 'small-ar.xlsx'))
    const analysis = analyseAbsence(rows, { sheetName })
    expect(analysis.meta).toEqual({ school: 'متوسطة النور', from: '1447/03/01', to: '1447/03/05', sheetName: 'الغياب' })
    const bandar = analysis.students.find((s) => s.studentId === '1100720233')
    expect(bandar).toMatchObject({ section: 'عام', system: 'نهاري', warningLevel: 0 })
    expect(bandar?.absences).toEqual([
      { date: '2025-08-24', hijri: '1447-03-01', weekday: 0, type: 'unexcused' },
      { date: '2025-08-28', hijri: '1447-03-05', weekday: 4, type: 'unexcused' },
    ])
  })
})

// ---- own cases ------------------------------------------------------------------------------

describe('dates', () => {
  it('reads Excel date cells, Gregorian and Hijri text in either order, and keeps both calendars', () => {
    const analysis = analyseAbsence(
      sheet([
        record({ date: { kind: 'date', serial: 45893 }, status: 'غائب بدون عذر' }),
        record({ date: '1447/03/02', status: 'غائب بعذر' }),
        record({ date: '03/03/1447', status: 'غائب بعذر' }),
        record({ date: '2025.08.27' }),
        record({ date: '28-08-2025' }),
      ]),
    )
    expect(analysis.report.byDate?.map((d) => [d.date, d.hijri])).toEqual([
      ['2025-08-24', '1447-03-01'],
      ['2025-08-25', '1447-03-02'],
      ['2025-08-26', '1447-03-03'],
      ['2025-08-27', '1447-03-04'],
      ['2025-08-28', '1447-03-05'],
    ])
    expect(analysis.report.byWeekday?.map((d) => d.weekday)).toEqual([0, 1, 2, 3, 4])
    expect(analysis.students[0]?.absences).toEqual([
      { date: '2025-08-24', hijri: '1447-03-01', weekday: 0, type: 'unexcused' },
      { date: '2025-08-25', hijri: '1447-03-02', weekday: 1, type: 'excused' },
      { date: '2025-08-26', hijri: '1447-03-03', weekday: 2, type: 'excused' },
    ])
  })

  it('derives the weekday from the date, whatever the day column says', () => {
    const analysis = analyseAbsence(
      sheet([record({ date: '2025-08-24', day: 'الخميس' }), record({ date: '2025-08-24', id: '2', day: 'Monday' })]),
    )
    expect(analysis.report.byWeekday).toMatchObject([{ weekday: 0, records: 2 }])
  })

  it('skips a row whose Hijri day does not exist or whose date cannot be read, with the value it found', () => {
    const analysis = analyseAbsence(
      sheet([
        record({ date: '1447/02/30' }),
        record({ date: 'أمس' }),
        record({ date: null }),
        record(),
        record({ id: '2' }),
        record({ id: '3' }),
      ]),
    )
    expect(analysis.report.skipped).toEqual([
      { row: 2, reason: { key: 'absence.skip.unreadableDate', values: { value: '1447/02/30' } } },
      { row: 3, reason: { key: 'absence.skip.unreadableDate', values: { value: 'أمس' } } },
      { row: 4, reason: { key: 'absence.skip.unreadableDate', values: { value: '' } } },
    ])
  })
})

describe('cell values', () => {
  it('reads Arabic-Indic digits in dates, IDs and classrooms', () => {
    const analysis = analyseAbsence(
      sheet([
        record({ id: '١١٠٠٧٢٠٢٢٦', classroom: '٢', date: '١٤٤٧/٠٣/٠١' }),
        record({ id: '1100720226', classroom: '2', date: '۲۰۲۵-۰۸-۲۵', status: 'غياب بدون عذر' }),
      ]),
    )
    expect(analysis.students).toHaveLength(1)
    expect(analysis.students[0]).toMatchObject({ studentId: '1100720226', classroom: '2', records: 2, unexcused: 1 })
    expect(analysis.report.byClassroom).toMatchObject([{ grade: 'الأول المتوسط', classroom: '2', records: 2 }])
    expect(analysis.report.byDate?.map((d) => d.date)).toEqual(['2025-08-24', '2025-08-25'])
  })

  it('reads numbers in the ID and classroom columns', () => {
    const analysis = analyseAbsence(sheet([record({ id: 1100720226, classroom: 3 })]))
    expect(analysis.students[0]).toMatchObject({ studentId: '1100720226', classroom: '3' })
  })

  it('shows a name without its diacritics, letters as written', () => {
    const analysis = analyseAbsence(sheet([record({ name: ' مُحمّد  أَحمد علي ' }), record({ name: 'محمد احمد علي', date: '2025-08-25' })]))
    expect(analysis.students.map((s) => s.name)).toEqual(['محمد أحمد علي'])
  })
})

describe('layout', () => {
  const englishShuffled = ['Status', 'Notes', 'Date', 'Class', 'Grade', 'Student name', 'National ID', 'Weekday']
  const englishColumns = ['status', 'day', 'date', 'classroom', 'grade', 'name', 'id', 'day'] as const

  it('reads English headers in another order, ignoring extra columns', () => {
    const rows = pick(
      [
        record({ status: 'Present' }),
        record({ status: 'Unexcused', date: '2025-08-25' }),
        record({ status: 'Excused absence', date: '2025-08-26' }),
        record({ status: 'late', date: '2025-08-27' }),
      ],
      englishColumns,
    ).map((cells) => cells.map((cell, i) => (i === 1 ? 'a note' : cell)))
    const analysis = analyseAbsence(sheet(rows, englishShuffled))
    expect(analysis.report.summary).toMatchObject({ records: 4, present: 2, excused: 1, unexcused: 1, late: 1 })
    // No section or system column and English headers: the English defaults.
    expect(analysis.report.bySection.map((s) => s.section)).toEqual(['General'])
    expect(analysis.report.bySystem.map((s) => s.system)).toEqual(['Day'])
    expect(analysis.students[0]).toMatchObject({ section: 'General', system: 'Day', studentId: '1000000001' })
  })

  it('uses the Arabic defaults for Arabic headers without the section and system columns', () => {
    const header = ['الاسم', 'رقم الصف', 'الشعبة', 'تاريخ الغياب', 'نوع الغياب']
    const analysis = analyseAbsence(
      sheet(pick([record(), record({ date: '2025-08-25' })], ['name', 'grade', 'classroom', 'date', 'status']), header),
    )
    expect(analysis.report.bySection).toMatchObject([{ section: 'عام', records: 2 }])
    expect(analysis.report.bySystem).toMatchObject([{ system: 'نهاري', records: 2 }])
    expect(analysis.students[0]).toMatchObject({ studentId: null, section: 'عام', system: 'نهاري' })
  })

  it('gives empty section and system cells the default in the language of the column, joining the rows that spell it', () => {
    const analysis = analyseAbsence(
      sheet([
        record({ id: '1', section: 'تحفيظ', system: 'ليلي' }),
        record({ id: '2', section: '', system: null }),
        record({ id: '3', section: 'عام', system: 'نهاري' }),
      ]),
    )
    expect(analysis.report.bySection.map((s) => [s.section, s.records])).toEqual([
      ['تحفيظ', 1],
      ['عام', 2],
    ])
    expect(analysis.report.bySystem.map((s) => [s.system, s.records])).toEqual([
      ['ليلي', 1],
      ['نهاري', 2],
    ])
    expect(analysis.students.find((s) => s.studentId === '2')).toMatchObject({ section: 'عام', system: 'نهاري' })
    // English values in the column (under Arabic headers): the English default.
    const english = analyseAbsence(
      sheet([record({ id: '1', section: 'Quran', system: 'Evening' }), record({ id: '2', section: ' ', system: '' })]),
    )
    expect(english.report.bySection.map((s) => s.section)).toEqual(['Quran', 'General'])
    expect(english.report.bySystem.map((s) => s.system)).toEqual(['Evening', 'Day'])
  })

  it('groups sections and systems written differently but normalised the same, in order of first appearance', () => {
    const analysis = analyseAbsence(
      sheet([
        record({ id: '1', section: 'تحفيظ' }),
        record({ id: '2', section: 'عام' }),
        record({ id: '3', section: 'تَحفيظ ' }),
        record({ id: '4', section: 'General', system: 'day' }),
      ]),
    )
    expect(analysis.report.bySection.map((s) => [s.section, s.records])).toEqual([
      ['تحفيظ', 2],
      ['عام', 1],
      ['General', 1],
    ])
  })

  it('reads the title block', () => {
    const title: CellValue[][] = [
      ['تقرير الغياب'],
      ['اسم المدرسة', 'ثانوية الملك فهد'],
      ['من تاريخ: 1447/03/01', null, 'إلى تاريخ', '1447/03/05'],
      ['الفصل الدراسي', 'الأول'],
      [],
    ]
    const analysis = analyseAbsence(sheet([record()], arabicHeader, title), { sheetName: 'Absence' })
    expect(analysis.meta).toEqual({ school: 'ثانوية الملك فهد', from: '1447/03/01', to: '1447/03/05', term: 'الأول', sheetName: 'Absence' })
    expect(analysis.report.skipped).toEqual([])
  })

  it('numbers skipped rows as Excel shows them, below a title block and across empty rows', () => {
    const rows: SheetRow[] = [
      { row: 3, cells: ['اسم المدرسة', 'متوسطة النور'] },
      { row: 5, cells: arabicHeader },
      { row: 6, cells: record() },
      { row: 9, cells: record({ id: '2', status: '؟' }) },
      { row: 10, cells: record({ id: '3' }) },
    ]
    expect(analyseAbsence(rows).report.skipped).toEqual([{ row: 9, reason: { key: 'absence.skip.unknownStatus', values: { value: '؟' } } }])
  })
})

describe('refusals', () => {
  it('refuses a sheet without the header row, naming the missing columns', () => {
    const error = refusal(() => analyseAbsence(sheet([['علي', '2025-08-24']], ['lorem', 'ipsum'])))
    expect(error).toMatchObject({
      status: 422,
      messageKey: 'absence.errors.missingColumns',
      details: { missingColumns: ['student', 'grade', 'classroom', 'date', 'status'] },
    })
    expect(refusal(() => analyseAbsence([]))).toMatchObject({ messageKey: 'absence.errors.missingColumns' })
  })

  it('refuses wrong headers, naming the columns the closest row lacks', () => {
    const header = ['اسم الطالب', 'الصف', 'الفصل', 'اليوم', 'الوضع']
    const error = refusal(() => analyseAbsence(sheet([record()], header)))
    expect(error.details.missingColumns).toEqual(['date', 'status'])
  })

  it('refuses a header row further down than row 40', () => {
    const title = Array.from({ length: 40 }, (_, i): CellValue[] => [`سطر ${i}`])
    expect(refusal(() => analyseAbsence(sheet([record()], arabicHeader, title))).messageKey).toBe('absence.errors.missingColumns')
    expect(analyseAbsence(sheet([record()], arabicHeader, title.slice(1))).report.summary.records).toBe(1)
  })

  it('refuses a table without data rows', () => {
    expect(refusal(() => analyseAbsence(sheet([])))).toMatchObject({ status: 422, messageKey: 'absence.errors.noDataRows' })
    expect(refusal(() => analyseAbsence(sheet([[], [null, ' '], ['']])))).toMatchObject({ messageKey: 'absence.errors.noDataRows' })
  })

  it('refuses a file whose every row is invalid, with the first 20 reasons', () => {
    const rows = Array.from({ length: 25 }, (_, i) => record({ id: String(i), status: 'مجهول' }))
    const error = refusal(() => analyseAbsence(sheet(rows)))
    expect(error).toMatchObject({
      status: 422,
      messageKey: 'absence.errors.tooManySkipped',
      details: { values: { skipped: 25, rows: 25 } },
    })
    expect(error.details.skipped).toHaveLength(20)
    expect(error.details.skipped?.[0]).toEqual({ row: 2, reason: { key: 'absence.skip.unknownStatus', values: { value: 'مجهول' } } })
    expect(error.details.skipped?.[19]?.row).toBe(21)
  })

  it('accepts exactly half of the rows skipped and refuses more than half', () => {
    const valid = [record({ id: '1' }), record({ id: '2' })]
    const invalid = [record({ id: '3', name: '' }), record({ id: '4', date: 'x' })]
    const half = analyseAbsence(sheet([...valid, ...invalid]))
    expect(half.report.summary.records).toBe(2)
    expect(half.report.skipped).toHaveLength(2)
    const error = refusal(() => analyseAbsence(sheet([...valid.slice(0, 1), ...invalid, record({ id: '5', status: '?' })])))
    expect(error.details).toMatchObject({ values: { skipped: 3, rows: 4 } })
    expect(error.details.skipped?.map((s) => s.reason.key)).toEqual([
      'absence.skip.noName',
      'absence.skip.unreadableDate',
      'absence.skip.unknownStatus',
    ])
  })
})

describe('rows and students', () => {
  it('counts late as present (and late) and an empty status as present', () => {
    const analysis = analyseAbsence(
      sheet([
        record({ status: 'متأخر' }),
        record({ status: '', date: '2025-08-25' }),
        record({ status: null, date: '2025-08-26' }),
        record({ status: 'تأخر صباحي', date: '2025-08-27' }),
      ]),
    )
    expect(analysis.report.summary).toMatchObject({
      records: 4,
      present: 4,
      late: 2,
      excused: 0,
      unexcused: 0,
      attendanceRate: 100,
      lateRate: 50,
    })
    expect(analysis.students[0]).toMatchObject({ present: 4, late: 2, absenceRate: 0, absences: [] })
  })

  it('skips a second valid row for the same student and day, Hijri or Gregorian, naming the first', () => {
    const analysis = analyseAbsence(
      sheet([
        record({ date: '2025-08-24', status: 'غائب بعذر' }),
        record({ date: '1447/03/01', status: 'حاضر' }),
        record({ date: { kind: 'date', serial: 45893 } }),
        record({ id: '2', date: '2025-08-24' }),
        record({ date: '2025-08-25' }),
      ]),
    )
    expect(analysis.report.skipped).toEqual([
      { row: 3, reason: { key: 'absence.skip.duplicate', values: { firstRow: 2 } } },
      { row: 4, reason: { key: 'absence.skip.duplicate', values: { firstRow: 2 } } },
    ])
    expect(analysis.students.find((s) => s.studentId === '1000000001')).toMatchObject({ records: 2, excused: 1 })
  })

  it('does not count a row skipped for another reason as the first of the day', () => {
    const analysis = analyseAbsence(sheet([record({ status: 'غير واضح' }), record({ status: 'غائب بدون عذر' }), record({ id: '2' })]))
    expect(analysis.report.skipped.map((s) => s.reason.key)).toEqual(['absence.skip.unknownStatus'])
    expect(analysis.students.find((s) => s.studentId === '1000000001')).toMatchObject({ records: 1, unexcused: 1 })
  })

  it('skips rows without a name, a grade or a classroom', () => {
    const analysis = analyseAbsence(
      sheet([
        record({ name: '  ' }),
        record({ id: '2', grade: null }),
        record({ id: '3', classroom: '' }),
        record({ id: '4' }),
        record({ id: '5' }),
        record({ id: '6' }),
      ]),
    )
    expect(analysis.report.skipped.map((s) => s.reason)).toEqual([
      { key: 'absence.skip.noName' },
      { key: 'absence.skip.noGrade' },
      { key: 'absence.skip.noClassroom' },
    ])
  })

  it('tells students apart by ID when the column is there', () => {
    const analysis = analyseAbsence(
      sheet([
        record({ id: '1', name: 'سعد علي محمد' }),
        record({ id: '2', name: 'سعد علي محمد' }),
        record({ id: '1', name: 'سعد علي محمد القحطاني', date: '2025-08-25' }),
      ]),
    )
    expect(analysis.students.map((s) => [s.studentId, s.name, s.records])).toEqual([
      ['1', 'سعد علي محمد', 2],
      ['2', 'سعد علي محمد', 1],
    ])
  })

  it('tells students apart by normalised name, grade and classroom without an ID column', () => {
    const header = ['اسم الطالب', 'الصف', 'الفصل', 'التاريخ', 'الحالة']
    const rows = pick(
      [
        record({ name: 'أسامة إبراهيم الغامدي' }),
        record({ name: 'اُسامه ابراهيم الغامدى', date: '2025-08-25' }),
        record({ name: 'أسامة إبراهيم الغامدي', classroom: '2' }),
        record({ name: 'أسامة إبراهيم الغامدي', grade: 'الثاني المتوسط' }),
      ],
      ['name', 'grade', 'classroom', 'date', 'status'],
    )
    const analysis = analyseAbsence(sheet(rows, header))
    expect(analysis.report.skipped).toEqual([])
    expect(analysis.students.map((s) => [s.name, s.grade, s.classroom, s.records, s.studentId])).toEqual([
      ['أسامة إبراهيم الغامدي', 'الأول المتوسط', '1', 2, null],
      ['أسامة إبراهيم الغامدي', 'الأول المتوسط', '2', 1, null],
      ['أسامة إبراهيم الغامدي', 'الثاني المتوسط', '1', 1, null],
    ])
  })

  it('sets warning levels by unexcused days at 3, 5 and 10, or at other thresholds', () => {
    const days = Array.from({ length: 12 }, (_, i) => `2025-09-${String(i + 1).padStart(2, '0')}`)
    const student = (id: string, unexcused: number) =>
      days.map((date, i) =>
        record({ id, name: `طالب رقم ${id}`, date, status: i < unexcused ? 'غائب بدون عذر' : i === unexcused ? 'غائب بعذر' : 'حاضر' }),
      )
    const rows = [
      student('1', 2),
      student('2', 3),
      student('3', 4),
      student('4', 5),
      student('5', 9),
      student('6', 10),
      student('7', 11),
    ].flat()
    const levels = (analysis: AbsenceAnalysis) => analysis.students.map((s) => [s.unexcused, s.warningLevel])
    expect(levels(analyseAbsence(sheet(rows)))).toEqual([
      [2, 0],
      [3, 1],
      [4, 1],
      [5, 2],
      [9, 2],
      [10, 3],
      [11, 3],
    ])
    expect(levels(analyseAbsence(sheet(rows), { warningThresholds: [2, 4, 11] })).map(([, level]) => level)).toEqual([1, 1, 2, 2, 2, 2, 3])
    expect(() => analyseAbsence(sheet(rows), { warningThresholds: [5, 3, 10] })).toThrow(RangeError)
  })

  it('gives each student the absence rate and the absences, oldest first', () => {
    const analysis = analyseAbsence(
      sheet([
        record({ date: '2025-08-26', status: 'غائب بعذر' }),
        record({ date: '2025-08-24', status: 'الغياب بدون عذر مقبول' }),
        record({ date: '2025-08-25', status: 'متأخر' }),
      ]),
    )
    expect(analysis.students[0]).toMatchObject({ records: 3, present: 1, excused: 1, unexcused: 1, late: 1, absenceRate: 66.67 })
    expect(analysis.students[0]?.absences?.map((a) => [a.date, a.type])).toEqual([
      ['2025-08-24', 'unexcused'],
      ['2025-08-26', 'excused'],
    ])
  })
})

describe('classifyStatus', () => {
  it('follows the status rules, in their order (lateness before unexcused, a bare absent is unexcused)', () => {
    const cases: [CellValue, ReturnType<typeof classifyStatus>][] = [
      ['تأخر بدون عذر', 'late'],
      ['متأخر بعذر', 'late'],
      ['غياب حصة', 'present'],
      ['غياب حصص بدون عذر', 'present'],
      ['Period absence', 'present'],
      ['الغياب بدون عذر مقبول عبر منصة مدرستي', 'unexcused'],
      ['الغياب بعذر مقبول عبر منصة مدرستي', 'excused'],
      ['غائب بدون عذر', 'unexcused'],
      ['غياب بغير عذر', 'unexcused'],
      ['غياب غير مبرر', 'unexcused'],
      ['الغياب بدون عذر مقبول', 'unexcused'],
      ['Unexcused', 'unexcused'],
      ['ABSENT (UNEXCUSED)', 'unexcused'],
      ['غائب بعذر', 'excused'],
      ['عذر طبي', 'excused'],
      ['Excused', 'excused'],
      ['متأخر', 'late'],
      ['متـأخـر', 'late'],
      ['تأخر', 'late'],
      ['Late', 'late'],
      ['حاضر', 'present'],
      ['حضور', 'present'],
      ['Present', 'present'],
      ['', 'present'],
      ['   ', 'present'],
      [null, 'present'],
      [undefined as unknown as CellValue, 'present'],
      ['غائب', 'unexcused'],
      ['غياب', 'unexcused'],
      ['غ', 'unexcused'],
      ['absent', 'unexcused'],
      ['؟؟', null],
      ['مريض', null],
      [1, null],
    ]
    expect(cases.map(([value]) => classifyStatus(value))).toEqual(cases.map(([, status]) => status))
  })
})

describe('order', () => {
  it('orders classrooms by grade in school order then classroom number, weekdays and dates ascending, students by name', () => {
    const rows = [
      record({ id: '1', name: 'يوسف', grade: 'الثالث الثانوي', classroom: '1', date: '2025-08-28' }),
      record({ id: '2', name: 'بدر', grade: 'الأول المتوسط', classroom: '10', date: '2025-08-24' }),
      record({ id: '3', name: 'أحمد', grade: 'الأول المتوسط', classroom: '2', date: '2025-08-26' }),
      record({ id: '4', name: 'خالد', grade: 'الأول الابتدائي', classroom: '1', date: '2025-08-25' }),
      record({ id: '5', name: 'ماجد', grade: 'قسم خاص', classroom: '1', date: '2025-08-31' }),
      record({ id: '6', name: 'إياد', grade: 'الثاني الثانوي', classroom: '1', date: '2025-08-30' }),
    ]
    const { report, students } = analyseAbsence(sheet(rows))
    expect(report.byClassroom.map((c) => `${c.grade}/${c.classroom}`)).toEqual([
      'الأول الابتدائي/1',
      'الأول المتوسط/2',
      'الأول المتوسط/10',
      'الثاني الثانوي/1',
      'الثالث الثانوي/1',
      'قسم خاص/1',
    ])
    expect([...report.byClassroom].sort(compareClassrooms)).toEqual(report.byClassroom)
    expect(report.byWeekday?.map((w) => w.weekday)).toEqual([0, 1, 2, 4, 6])
    expect(report.byDate?.map((d) => d.date)).toEqual(['2025-08-24', '2025-08-25', '2025-08-26', '2025-08-28', '2025-08-30', '2025-08-31'])
    expect(students.map((s) => s.name)).toEqual(['أحمد', 'إياد', 'بدر', 'خالد', 'ماجد', 'يوسف'])
  })
})

describe('messages', () => {
  it('has every skip reason and refusal in both languages', () => {
    const keys = [
      'absence.skip.noName',
      'absence.skip.noGrade',
      'absence.skip.noClassroom',
      'absence.skip.unreadableDate',
      'absence.skip.unknownStatus',
      'absence.skip.duplicate',
      'absence.errors.invalidFormat',
      'absence.errors.missingColumns',
      'absence.errors.noDataRows',
      'absence.errors.tooManySkipped',
      ...Object.keys(absenceColumns).map((c) => `absence.columns.${c}`),
      ...warningLevelKeys,
      ...Object.values(absenceTypeKeys),
    ]
    const missing = keys.flatMap((key) =>
      (['ar', 'en'] as const).filter((lang) => typeof lookup(catalogue[lang], key) !== 'string').map((lang) => `${lang}: ${key}`),
    )
    expect(missing).toEqual([])
  })

  it('reads the fixed product messages exactly as the spec writes them', () => {
    const ar = createTranslator('ar', getMessages('ar', ['absence']))
    expect(en.t('absence.errors.invalidFormat')).toBe('Invalid file format. Please download the sample file and modify it.')
    expect(ar.t('absence.errors.invalidFormat')).toBe('صيغة الملف غير صحيحة. يرجى تنزيل الملف النموذجي وتعديله.')
    expect(en.t('absence.errors.tooManySkipped', { skipped: 3, rows: 4 })).toContain('(3 of 4)')
  })
})

// ---- properties -----------------------------------------------------------------------------

const statuses = ['حاضر', '', 'متأخر', 'غائب بعذر', 'غائب بدون عذر', 'Late', 'Unexcused', 'Excused', 'present']
const expectedStatus = (status: string) => classifyStatus(status) ?? 'unknown'

const generatedRows = fc.array(
  fc.record({
    student: fc.integer({ min: 0, max: 7 }),
    day: fc.integer({ min: 0, max: 9 }),
    status: fc.constantFrom(...statuses),
    classroom: fc.constantFrom('1', '2', '3'),
  }),
  { minLength: 1, maxLength: 120 },
)

function generatedSheet(rows: { student: number; day: number; status: string; classroom: string }[]): SheetRow[] {
  return sheet(
    rows.map((r) =>
      record({
        id: String(r.student),
        name: `طالب ${r.student}`,
        classroom: r.classroom,
        grade: r.student % 2 ? 'الأول المتوسط' : 'الثاني المتوسط',
        section: r.student % 3 ? 'عام' : 'تحفيظ',
        date: new Date(Date.UTC(2025, 8, 1 + r.day)).toISOString().slice(0, 10),
        status: r.status,
      }),
    ),
  )
}

/** The groups whose attendance, excused and unexcused rates do not add up to 100 ± 0.01. */
function ratesOff(groups: readonly GroupFigures[]): GroupFigures[] {
  return groups.filter((g) => Math.abs(g.attendanceRate + g.excusedRate + g.unexcusedRate - 100) > 0.01 + 1e-9)
}

function attempt(run: () => AbsenceAnalysis): AbsenceAnalysis | AnalysisError {
  try {
    return run()
  } catch (error) {
    if (error instanceof AnalysisError) return error
    throw error
  }
}

describe('properties', () => {
  it('counts every accepted row once, in every grouping, as a straightforward count does', () => {
    fc.assert(
      fc.property(generatedRows, (rows) => {
        const seen = new Set<string>()
        const counts = { records: 0, present: 0, excused: 0, unexcused: 0, late: 0 }
        for (const r of rows) {
          const key = `${r.student}/${r.day}`
          if (seen.has(key)) continue
          seen.add(key)
          const status = expectedStatus(r.status)
          counts.records++
          if (status === 'present' || status === 'late') counts.present++
          if (status === 'late') counts.late++
          if (status === 'excused') counts.excused++
          if (status === 'unexcused') counts.unexcused++
        }
        const duplicates = rows.length - seen.size
        const outcome = attempt(() => analyseAbsence(generatedSheet(rows)))
        expect(outcome instanceof AnalysisError ? outcome.messageKey : 'accepted').toBe(
          duplicates * 2 > rows.length ? 'absence.errors.tooManySkipped' : 'accepted',
        )
        if (outcome instanceof AnalysisError) return
        const { report, students } = outcome
        expect(report.summary).toMatchObject(counts)
        expect(report.skipped).toHaveLength(duplicates)
        expect(report.summary.present + report.summary.excused + report.summary.unexcused).toBe(report.summary.records)
        const sum = (groups: readonly { records: number }[]) => groups.reduce((total, g) => total + g.records, 0)
        for (const groups of [report.bySection, report.byClassroom, report.bySystem, report.byWeekday ?? [], report.byDate ?? [], students])
          expect(sum(groups)).toBe(report.summary.records)
        expect(report.summary.students).toBe(new Set(rows.map((r) => r.student)).size)
        expect(report.summary.days).toBe(report.byDate?.length)
        for (const student of students) {
          expect(student.present + student.excused + student.unexcused).toBe(student.records)
          expect(student.absences).toHaveLength(student.excused + student.unexcused)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('gives attendance, excused and unexcused rates that add up to 100 ± 0.01 in every group', () => {
    fc.assert(
      fc.property(generatedRows, (rows) => {
        const outcome = attempt(() => analyseAbsence(generatedSheet(rows)))
        const report = outcome instanceof AnalysisError ? undefined : outcome.report // refused: too many duplicates, covered above
        const groups = report
          ? [
              report.summary,
              ...report.bySection,
              ...report.byClassroom,
              ...report.bySystem,
              ...(report.byWeekday ?? []),
              ...(report.byDate ?? []),
            ]
          : []
        expect(ratesOff(groups)).toEqual([])
      }),
      { numRuns: 300 },
    )
  })

  it('gives rates that add up for any counts', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2000 }), fc.nat(), fc.nat(), (records, a, b) => {
        const excused = a % (records + 1)
        const unexcused = b % (records - excused + 1)
        const rows = Array.from({ length: records }, (_, i) =>
          record({ id: String(i), status: i < excused ? 'غائب بعذر' : i < excused + unexcused ? 'غائب بدون عذر' : '' }),
        )
        expect(ratesOff([analyseAbsence(sheet(rows)).report.summary])).toEqual([])
      }),
      { numRuns: 100 },
    )
  })
})
