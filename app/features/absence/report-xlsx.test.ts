import { readFileSync } from 'node:fs'
import path from 'node:path'
import * as XLSX from '@e965/xlsx'
import { describe, expect, it } from 'vitest'
import { readSheet } from '#app/platform/workbook-reading/read-workbook.server.ts'
import { analyseAbsence, type AbsenceAnalysis, type Counts } from './analyse-absence.ts'
import { absenceReportWorkbook } from './report-xlsx.server.ts'
import { countSteps } from './steps.ts'
import { countTiers } from './tiers.ts'

// The Excel export read back with SheetJS: sheet names, direction and headers in the page's
// language, and every figure equal to the analysis's, rates as the exact fractions.

// The shared fixture (small-ar.xlsx in this folder's fixtures), read by the project's reader.
const fixture = path.resolve(import.meta.dirname, 'fixtures/small-ar.xlsx')

function fixtureAnalysis(): AbsenceAnalysis {
  const { rows, sheetName } = readSheet(readFileSync(fixture), {
    preferredSheets: ['الغياب', 'Absence'],
    maxUncompressedBytes: 200 << 20,
    maxRows: 500_000,
    timeBudgetMs: 10_000,
  })
  return analyseAbsence(rows, { sheetName })
}

const analysis = fixtureAnalysis()
const createdAt = new Date('2026-11-22T14:05:09Z')
const title = 'غياب الأسبوع الأول'

const sheetNames = {
  ar: [
    'الملخص',
    'الأقسام',
    'الفصول',
    'الأنظمة الدراسية',
    'فئات الغياب',
    'خطوات المتابعة',
    'أيام الأسبوع',
    'التواريخ',
    'الطلاب',
    'الصفوف غير المحتسبة',
  ],
  en: ['Summary', 'Sections', 'Classrooms', 'Systems', 'Tiers', 'Follow-up steps', 'Weekdays', 'Dates', 'Students', 'Skipped rows'],
} as const

const figureHeaders = {
  ar: ['السجلات', 'حاضر', 'بعذر', 'بدون عذر', 'متأخر', 'الحضور', 'نسبة الغياب بعذر', 'نسبة الغياب بدون عذر', 'نسبة التأخر'],
  en: ['Records', 'Present', 'Excused', 'Unexcused', 'Late', 'Attendance', 'Excused rate', 'Unexcused rate', 'Late rate'],
} as const

const studentHeaders = {
  ar: [
    'اسم الطالب',
    'رقم الهوية',
    'الصف',
    'الفصل',
    'القسم',
    'النظام الدراسي',
    'السجلات',
    'حاضر',
    'بعذر',
    'بدون عذر',
    'متأخر',
    'نسبة الغياب',
    'الإنذار',
    'فئة الغياب',
    'الخطوة',
  ],
  en: [
    'Student name',
    'National ID',
    'Grade',
    'Classroom',
    'Section',
    'Education system',
    'Records',
    'Present',
    'Excused',
    'Unexcused',
    'Late',
    'Absence rate',
    'Warning',
    'Absence tier',
    'Step',
  ],
} as const

const tierNames = {
  ar: { satisfactory: 'منتظم', atRisk: 'معرّض للخطر', chronic: 'غياب مزمن', severe: 'غياب حاد', none: 'دون فئة' },
  en: { satisfactory: 'Satisfactory', atRisk: 'At risk', chronic: 'Chronic', severe: 'Severe', none: 'No tier' },
} as const

type Cell = XLSX.CellObject | undefined

function open(bytes: Uint8Array) {
  const wb = XLSX.read(bytes, { type: 'buffer', cellNF: true, cellStyles: true })
  const zip = XLSX.CFB.read(Buffer.from(bytes), { type: 'buffer' })
  const part = (name: string) => Buffer.from(XLSX.CFB.find(zip, `/${name}`)?.content as Uint8Array).toString('utf8')
  return { wb, part }
}

function rowsOf(ws: XLSX.WorkSheet | undefined): Cell[][] {
  if (!ws) throw new Error('no such sheet')
  const range = XLSX.utils.decode_range(ws['!ref'] ?? 'A1')
  const rows: Cell[][] = []
  for (let r = 0; r <= range.e.r; r++) {
    const row: Cell[] = []
    for (let c = 0; c <= range.e.c; c++) row.push(ws[XLSX.utils.encode_cell({ r, c })] as Cell)
    rows.push(row)
  }
  return rows
}

const text = (cell: Cell) => (cell?.v === undefined ? '' : String(cell.v))

/** A count cell: an integer with the integer format. */
function expectCount(cell: Cell, value: number) {
  expect(cell).toMatchObject({ t: 'n', v: value, z: '#,##0' })
  expect(Number.isInteger(cell?.v)).toBe(true)
}

/** A rate cell: exactly part/whole (not the rounded API number), formatted as a percentage with two decimals. */
function expectRate(cell: Cell, part: number, whole: number) {
  expect(cell).toMatchObject({ t: 'n', z: '0.00%' })
  expect(cell?.v).toBe(part / whole)
}

/** The nine figure cells of a group, from its first count column. */
function expectFigures(row: Cell[], from: number, g: Counts) {
  expectCount(row[from], g.records)
  expectCount(row[from + 1], g.present)
  expectCount(row[from + 2], g.excused)
  expectCount(row[from + 3], g.unexcused)
  expectCount(row[from + 4], g.late)
  expectRate(row[from + 5], g.present, g.records)
  expectRate(row[from + 6], g.excused, g.records)
  expectRate(row[from + 7], g.unexcused, g.records)
  expectRate(row[from + 8], g.late, g.records)
}

describe.each(['ar', 'en'] as const)('absenceReportWorkbook (%s)', (lang) => {
  const bytes = absenceReportWorkbook({ lang, title, createdAt, analysis })
  const { wb, part } = open(bytes)
  const sheet = (i: number) => rowsOf(wb.Sheets[sheetNames[lang][i] as string])
  const { report, students } = analysis

  it('names its sheets in the page language, in the order of docs/absence.md', () => {
    expect(wb.SheetNames).toEqual(sheetNames[lang])
  })

  it('sets every sheet right to left in Arabic only, with a styled, frozen header row on every table', () => {
    expect(Boolean(wb.Workbook?.Views?.[0]?.RTL)).toBe(lang === 'ar')
    for (let i = 1; i <= sheetNames[lang].length; i++) {
      const xml = part(`xl/worksheets/sheet${i}.xml`)
      expect(xml.includes('rightToLeft="1"'), `sheet ${i}`).toBe(lang === 'ar')
      if (i === 1) continue
      expect(xml).toContain('<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>')
      const ws = wb.Sheets[sheetNames[lang][i - 1] as string] as XLSX.WorkSheet
      const header = rowsOf(ws)[0] ?? []
      for (const cell of header) expect(cell?.s).toMatchObject({ patternType: 'solid', fgColor: { rgb: 'DCEBE8' } })
      // Widths set for every column, wide enough for the longest value.
      expect(ws['!cols']?.length).toBe(header.length)
      for (const col of ws['!cols'] ?? []) expect(col.width).toBeGreaterThanOrEqual(9)
    }
  })

  it('opens with a summary: title, school, period, analysis date, then the key figures', () => {
    const rows = sheet(0)
    expect(text(rows[0]?.[0])).toBe(title)
    const byLabel = new Map(rows.map((row) => [text(row[0]), row.slice(1)]))
    const words =
      lang === 'ar'
        ? {
            school: 'المدرسة',
            period: 'الفترة',
            created: 'تاريخ التحليل',
            records: 'السجلات',
            students: 'الطلاب',
            days: 'أيام الدراسة',
            attendance: 'نسبة الحضور العامة',
            excused: 'نسبة الغياب بعذر',
            unexcused: 'نسبة الغياب بدون عذر',
            late: 'نسبة التأخر',
            figures: 'المؤشرات الرئيسية',
          }
        : {
            school: 'School',
            period: 'Period',
            created: 'Analysed on',
            records: 'Records',
            students: 'Students',
            days: 'School days',
            attendance: 'Overall attendance',
            excused: 'Excused absence rate',
            unexcused: 'Unexcused absence rate',
            late: 'Late rate',
            figures: 'Key figures',
          }
    expect(text(byLabel.get(words.school)?.[0])).toBe('متوسطة النور')
    expect(text(byLabel.get(words.period)?.[0])).toBe(lang === 'ar' ? 'من 1447/03/01 إلى 1447/03/05' : '1447/03/01 to 1447/03/05')
    expect(text(byLabel.get(words.created)?.[0])).toBe(lang === 'ar' ? '22 نوفمبر 2026' : '22 November 2026')
    expect(text(byLabel.get(words.created)?.[1])).toBe(lang === 'ar' ? '12 جمادى الآخرة 1448 هـ' : '12 Jumada II 1448 AH')
    expect(byLabel.get(words.figures)?.[0]?.s).toMatchObject({ patternType: 'solid' })
    const { summary } = report
    expectCount(byLabel.get(words.records)?.[0], summary.records)
    expectCount(byLabel.get(words.students)?.[0], summary.students)
    expectCount(byLabel.get(words.days)?.[0], summary.days)
    expectRate(byLabel.get(words.attendance)?.[0], summary.present, summary.records)
    expectRate(byLabel.get(words.excused)?.[0], summary.excused, summary.records)
    expectRate(byLabel.get(words.unexcused)?.[0], summary.unexcused, summary.records)
    expectRate(byLabel.get(words.late)?.[0], summary.late, summary.records)
    // 56 of 60: the exact fraction, not the API's 93.33.
    expect(byLabel.get(words.attendance)?.[0]?.v).toBe(56 / 60)
    expect(byLabel.get(words.attendance)?.[0]?.w).toBe('93.33%')
  })

  it('lists sections, classrooms and systems with the analysis figures', () => {
    const [sectionHeader = [], ...sections] = sheet(1)
    expect(sectionHeader.map(text)).toEqual([lang === 'ar' ? 'القسم' : 'Section', ...figureHeaders[lang]])
    expect(sections.map((row) => text(row[0]))).toEqual(report.bySection.map((g) => g.section))
    sections.forEach((row, i) => expectFigures(row, 1, report.bySection[i] as Counts))

    const [classroomHeader = [], ...classrooms] = sheet(2)
    expect(classroomHeader.map(text)).toEqual([...(lang === 'ar' ? ['الصف', 'الفصل'] : ['Grade', 'Classroom']), ...figureHeaders[lang]])
    expect(classrooms.map((row) => [text(row[0]), text(row[1])])).toEqual(report.byClassroom.map((g) => [g.grade, g.classroom]))
    classrooms.forEach((row, i) => expectFigures(row, 2, report.byClassroom[i] as Counts))

    const [systemHeader = [], ...systems] = sheet(3)
    expect(systemHeader.map(text)).toEqual([lang === 'ar' ? 'النظام الدراسي' : 'Education system', ...figureHeaders[lang]])
    expect(systems.map((row) => text(row[0]))).toEqual(report.bySystem.map((g) => g.system))
    systems.forEach((row, i) => expectFigures(row, 1, report.bySystem[i] as Counts))
  })

  it('names the weekdays in the page language, Sunday first', () => {
    const [header = [], ...rows] = sheet(6)
    expect(header.map(text)).toEqual([lang === 'ar' ? 'اليوم' : 'Weekday', ...figureHeaders[lang]])
    const names =
      lang === 'ar' ? ['الأحد', 'الاثنين', 'الثلاثاء', 'الأربعاء', 'الخميس'] : ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday']
    expect(rows.map((row) => text(row[0]))).toEqual(names)
    rows.forEach((row, i) => expectFigures(row, 1, report.byWeekday?.[i] as Counts))
  })

  it('gives each date as an Excel date with its Hijri date and weekday', () => {
    const [header = [], ...rows] = sheet(7)
    expect(header.map(text).slice(0, 3)).toEqual(lang === 'ar' ? ['التاريخ', 'التاريخ الهجري', 'اليوم'] : ['Date', 'Hijri date', 'Weekday'])
    expect(rows).toHaveLength(report.byDate?.length ?? -1)
    rows.forEach((row, i) => {
      const g = report.byDate?.[i]
      expect(row[0]).toMatchObject({ t: 'n', z: 'yyyy-mm-dd', w: g?.date })
      expect(text(row[1])).toBe(g?.hijri)
      expectFigures(row, 3, g as Counts)
    })
    expect(text(rows[0]?.[1])).toBe('1447-03-01')
    expect(text(rows[0]?.[2])).toBe(lang === 'ar' ? 'الأحد' : 'Sunday')
  })

  it('lists every student with figures, exact absence rate, warning level and tier', () => {
    const [header = [], ...rows] = sheet(8)
    expect(header.map(text)).toEqual(studentHeaders[lang])
    expect(rows).toHaveLength(students.length)
    rows.forEach((row, i) => {
      const s = students[i]
      if (!s) throw new Error('missing student')
      expect(row.slice(0, 6).map(text)).toEqual([s.name, s.studentId ?? '', s.grade, s.classroom, s.section, s.system])
      // The ID stays text: no lost digits, no scientific notation.
      expect(row[1]?.t).toBe('s')
      expectCount(row[6], s.records)
      expectCount(row[7], s.present)
      expectCount(row[8], s.excused)
      expectCount(row[9], s.unexcused)
      expectCount(row[10], s.late)
      expectRate(row[11], s.excused + s.unexcused, s.records)
      expect(text(row[12])).toBe(lang === 'ar' ? 'لا يوجد إنذار' : 'No warning')
    })
    const bandar = rows.find((row) => text(row[0]) === 'بندر خالد ناصر البلوي')
    expect(bandar?.[11]?.v).toBe(2 / 5)
    // Five school days each: one day missed is 20% (severe), none is satisfactory.
    const severe = ['فيصل حمد راكان المطيري', 'بندر خالد ناصر البلوي', 'محمد محمد يوسف السلمي']
    for (const row of rows)
      expect([text(row[0]), text(row[13])]).toEqual([
        text(row[0]),
        severe.includes(text(row[0])) ? tierNames[lang].severe : tierNames[lang].satisfactory,
      ])
  })

  it('counts the tiers per classroom, each count with its share, and the whole', () => {
    const [header = [], ...rows] = sheet(4)
    const n = tierNames[lang]
    expect(header.map(text)).toEqual(
      lang === 'ar'
        ? [
            'الصف',
            'الفصل',
            'الطلاب',
            n.satisfactory,
            `نسبة ${n.satisfactory}`,
            n.atRisk,
            `نسبة ${n.atRisk}`,
            n.chronic,
            `نسبة ${n.chronic}`,
            n.severe,
            `نسبة ${n.severe}`,
            n.none,
          ]
        : [
            'Grade',
            'Classroom',
            'Students',
            n.satisfactory,
            `${n.satisfactory} share`,
            n.atRisk,
            `${n.atRisk} share`,
            n.chronic,
            `${n.chronic} share`,
            n.severe,
            `${n.severe} share`,
            n.none,
          ],
    )
    // By hand from the fixture: 4 + 0 severe; 2 + 2 severe; 3 + 1 severe.
    const expected: [string, string, number, number, number, number, number][] = [
      ['الأول المتوسط', '1', 4, 4, 0, 0, 0],
      ['الثاني المتوسط', '1', 4, 2, 0, 0, 2],
      ['الثالث المتوسط', '1', 4, 3, 0, 0, 1],
      [lang === 'ar' ? 'جميع الفصول' : 'All classrooms', '', 12, 9, 0, 0, 3],
    ]
    expect(rows).toHaveLength(expected.length)
    rows.forEach((row, i) => {
      const [grade, classroom, inClassroom, ...counts] = expected[i]!
      expect([text(row[0]), text(row[1])]).toEqual([grade, classroom])
      expectCount(row[2], inClassroom)
      counts.forEach((count, k) => {
        expectCount(row[3 + 2 * k], count)
        expectRate(row[4 + 2 * k], count, inClassroom)
      })
      expectCount(row[11], 0)
    })
  })

  it('lists the skipped rows with their reasons in the page language', () => {
    const [header = [], ...rows] = sheet(9)
    expect(header.map(text)).toEqual(lang === 'ar' ? ['الصف', 'السبب'] : ['Row', 'Reason'])
    expect(rows.map((row) => row[0]?.v)).toEqual(report.skipped.map((s) => s.row))
    expect(rows.map((row) => text(row[1]))).toEqual(
      lang === 'ar'
        ? ['لا يوجد اسم للطالب', 'حالة غير معروفة: ؟؟', 'سجل مكرر للصف 51', 'تاريخ غير مقروء: غير معروف']
        : ['no student name', 'unknown status: ؟؟', 'duplicate of row 51', 'unreadable date: غير معروف'],
    )
  })
})

describe('absenceReportWorkbook edge cases', () => {
  it('says so when no row was skipped, and leaves the summary without a school or period it does not know', () => {
    const bare: AbsenceAnalysis = { ...analysis, meta: {}, report: { ...analysis.report, skipped: [] } }
    const { wb } = open(absenceReportWorkbook({ lang: 'en', title: 'T', createdAt, analysis: bare }))
    expect(rowsOf(wb.Sheets['Skipped rows']).map((row) => row.map(text))).toEqual([
      ['Row', 'Reason'],
      ['', 'Every row of the file was read.'],
    ])
    const labels = rowsOf(wb.Sheets.Summary).map((row) => text(row[0]))
    expect(labels).not.toContain('School')
    // Without a period in the title block, the first and last dates of the records.
    const period = rowsOf(wb.Sheets.Summary).find((row) => text(row[0]) === 'Period')
    expect(text(period?.[1])).toBe('24 August 2025 to 28 August 2025')
  })

  it('counts the tiers with the teacher’s thresholds and states them on the summary', () => {
    // 20% is at risk from 20 up to 40; 40% chronic from 40 up to 60.
    const thresholds = { atRisk: 20, chronic: 40, severe: 60 }
    const tiers = countTiers(analysis.students, analysis.report.byClassroom, thresholds)
    const { wb } = open(absenceReportWorkbook({ lang: 'en', title: 'T', createdAt, analysis, tiers }))
    const summary = new Map(rowsOf(wb.Sheets.Summary).map((row) => [text(row[0]), row[1]]))
    expectRate(summary.get('At risk from'), 2000, 10_000)
    expectRate(summary.get('Chronic from'), 4000, 10_000)
    expectRate(summary.get('Severe from'), 6000, 10_000)
    // فيصل and محمد missed 1 of 5 days (at risk), بندر 2 of 5 (chronic), the other nine none.
    expectCount(summary.get('Satisfactory'), 9)
    expectCount(summary.get('At risk'), 2)
    expectCount(summary.get('Chronic'), 1)
    expectCount(summary.get('Severe'), 0)
    const students = rowsOf(wb.Sheets.Students)
    const tierOfRow = (name: string) => text(students.find((row) => text(row[0]) === name)?.[13])
    expect([tierOfRow('فيصل حمد راكان المطيري'), tierOfRow('بندر خالد ناصر البلوي'), tierOfRow('محمد سلطان أحمد الجهني')]).toEqual([
      'At risk',
      'Chronic',
      'Satisfactory',
    ])
  })

  it('places each student on the teacher’s ladder and counts the students at each step per classroom', () => {
    // بندر has 2 unexcused days, محمد محمد يوسف السلمي 1, the other ten none (five school days each).
    const ladder = [
      { days: 1, name: 'Notice', document: 'firstWarning' },
      { days: 2, name: null, document: 'secondWarning' },
    ] as const
    const steps = countSteps(analysis.students, analysis.report.byClassroom, ladder)
    const { wb } = open(absenceReportWorkbook({ lang: 'en', title: 'T', createdAt, analysis, steps }))
    expect(rowsOf(wb.Sheets['Follow-up steps']).map((row) => row.map((cell) => (cell?.t === 'n' ? cell.v : text(cell))))).toEqual([
      ['Grade', 'Classroom', 'Notice from 1', 'Second warning from 2', 'At a step'],
      ['الأول المتوسط', '1', 0, 0, 0],
      ['الثاني المتوسط', '1', 0, 1, 1],
      ['الثالث المتوسط', '1', 1, 0, 1],
      ['Overall', '', 1, 1, 2],
    ])
    const students = rowsOf(wb.Sheets.Students)
    const stepOfRow = (name: string) => text(students.find((row) => text(row[0]) === name)?.[14])
    expect([stepOfRow('بندر خالد ناصر البلوي'), stepOfRow('محمد محمد يوسف السلمي'), stepOfRow('فيصل حمد راكان المطيري')]).toEqual([
      'Second warning',
      'Notice',
      'No step',
    ])
  })

  it('keeps user text as text', () => {
    const tricky = '=HYPERLINK("http://x") <b>&</b>'
    const { wb } = open(absenceReportWorkbook({ lang: 'en', title: tricky, createdAt, analysis }))
    const cell = wb.Sheets.Summary?.A1 as XLSX.CellObject
    expect(cell).toMatchObject({ t: 's', v: tricky })
    expect(cell.f).toBeUndefined()
  })
})
