import path from 'node:path'
import * as XLSX from '@e965/xlsx'
import { describe, expect, it } from 'vitest'
import { readWorkbookRows } from '#tests/workbook-rows.ts'
import { analyseGrades, gradesSheetNames, recomputeGrades, type GradesAnalysis, type SubjectReport } from './analyse-grades.ts'
import type { ScoreFigures } from './grade-figures.ts'
import { gradesReportWorkbook, passedCount } from './report-xlsx.server.ts'

// The Excel export read back with SheetJS: sheet names, direction and headers in the page's
// language, and every figure equal to the analysis's; shares of students as the exact fractions
// of their counts, counted here again from the records.

const fixtureDir = path.resolve(import.meta.dirname, 'fixtures')
const createdAt = new Date('2026-11-22T14:05:09Z')
const title = 'نتائج اختبار منتصف الفصل'

function fixtureAnalysis(file: string): GradesAnalysis {
  const { rows, sheetName } = readWorkbookRows(path.join(fixtureDir, file), gradesSheetNames)
  return analyseGrades(rows, { sheetName })
}

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

function expectCount(cell: Cell, value: number) {
  expect(cell).toMatchObject({ t: 'n', v: value, z: '#,##0' })
}

/** A share: exactly part/whole, formatted as a percentage with two decimals. */
function expectShare(cell: Cell, part: number, whole: number) {
  expect(cell).toMatchObject({ t: 'n', z: '0.00%' })
  expect(cell?.v).toBe(part / whole)
}

function expectDecimal(cell: Cell, value: number) {
  expect(cell).toMatchObject({ t: 'n', z: '#,##0.00' })
  expect(cell?.v).toBe(value)
}

/** Students who passed (percent ≥ 50), per classroom and overall, counted from the records. */
function passedFromRecords(analysis: GradesAnalysis, subjectIndex: number): Map<string, number> {
  const subject = analysis.records.subjects[subjectIndex]
  if (!subject) throw new Error('no subject')
  const passed = new Map<string, number>()
  for (const s of subject.students) {
    if (s.score === null || 2 * s.score < subject.max) continue
    for (const key of [`${s.grade}|${s.classroom}`, 'overall']) passed.set(key, (passed.get(key) ?? 0) + 1)
  }
  return passed
}

const words = {
  ar: {
    sheets: {
      summary: 'الملخص',
      classrooms: 'الفصول',
      bands: 'التقديرات',
      topWeak: 'العليا والدنيا',
      highestLowest: 'الأعلى والأدنى',
      skipped: 'الصفوف غير المحتسبة',
    },
    classroomHeaders: [
      'الصف',
      'الفصل',
      'عدد الطلاب',
      'الغائبون',
      'مجموع الدرجات',
      'المتوسط',
      'أعلى درجة',
      'أدنى درجة',
      'الوسيط',
      'الانحراف المعياري',
      'نسبة النجاح',
    ],
    bandHeaders: [
      'عدد ممتاز',
      'نسبة ممتاز',
      'عدد جيد جدًا',
      'نسبة جيد جدًا',
      'عدد جيد',
      'نسبة جيد',
      'عدد مقبول',
      'نسبة مقبول',
      'عدد ضعيف',
      'نسبة ضعيف',
    ],
    topWeakHeaders: [
      'الصف',
      'الفصل',
      'عدد الطلاب',
      'الفئة العليا: عدد الطلاب',
      'الفئة العليا: المتوسط',
      'الفئة الدنيا: عدد الطلاب',
      'الفئة الدنيا: المتوسط',
      'الفرق (نقاط مئوية)',
    ],
    listHeaders: ['الصف', 'الفصل', 'م', 'الأعلى: الطالب', 'الأعلى: الدرجة', 'الأدنى: الطالب', 'الأدنى: الدرجة'],
    overall: 'جميع الفصول',
    about: { school: 'المدرسة', subject: 'المادة', subjects: 'المواد', exam: 'الاختبار', created: 'تاريخ التحليل' },
    createdOn: ['22 نوفمبر 2026', '12 جمادى الآخرة 1448 هـ'],
    bandsUsed: 'التقديرات المستخدمة',
    skipped: ['درجة غير مقروءة: abc', 'الدرجة أعلى من الدرجة العظمى: 105 (الدرجة العظمى 100)'],
    noSkipped: 'قُرئت كل صفوف الملف.',
  },
  en: {
    sheets: {
      summary: 'Summary',
      classrooms: 'Classrooms',
      bands: 'Bands',
      topWeak: 'Top vs weak',
      highestLowest: 'Highest & lowest',
      skipped: 'Skipped rows',
    },
    classroomHeaders: [
      'Grade',
      'Classroom',
      'Students',
      'Absent',
      'Total score',
      'Average',
      'Highest score',
      'Lowest score',
      'Median',
      'Standard deviation',
      'Pass rate',
    ],
    bandHeaders: [
      'Excellent: count',
      'Excellent: %',
      'Very good: count',
      'Very good: %',
      'Good: count',
      'Good: %',
      'Acceptable: count',
      'Acceptable: %',
      'Weak: count',
      'Weak: %',
    ],
    topWeakHeaders: [
      'Grade',
      'Classroom',
      'Students',
      'Top group: students',
      'Top group: average',
      'Weak group: students',
      'Weak group: average',
      'Gap (percentage points)',
    ],
    listHeaders: ['Grade', 'Classroom', '#', 'Highest: student', 'Highest: score', 'Lowest: student', 'Lowest: score'],
    overall: 'All classrooms',
    about: { school: 'School', subject: 'Subject', subjects: 'Subjects', exam: 'Exam', created: 'Analysed on' },
    createdOn: ['22 November 2026', '12 Jumada II 1448 AH'],
    bandsUsed: 'Grade bands used',
    skipped: ['unreadable score: abc', 'score above max: 105 (max 100)'],
    noSkipped: 'Every row of the file was read.',
  },
} as const

const fixtures = [
  { file: 'small-ar.xlsx', school: 'متوسطة النور', exam: 'اختبار منتصف الفصل', subjects: { ar: 'الرياضيات', en: 'الرياضيات' } },
  {
    file: 'english-two-subjects.xlsx',
    school: 'Al-Noor Intermediate School',
    exam: 'Midterm',
    subjects: { ar: 'Science وMath', en: 'Science and Math' },
  },
] as const

describe.each(fixtures.flatMap((fixture) => (['ar', 'en'] as const).map((lang) => ({ ...fixture, lang }))))(
  'gradesReportWorkbook ($file, $lang)',
  (fixture) => {
    const { lang } = fixture
    const w = words[lang]
    const analysis = fixtureAnalysis(fixture.file)
    const { report } = analysis
    const { wb, part } = open(gradesReportWorkbook({ lang, title, createdAt, analysis }))
    const sheetName = (kind: keyof typeof w.sheets, subject: SubjectReport) => `${w.sheets[kind]} - ${subject.subject}`
    const sheet = (name: string) => rowsOf(wb.Sheets[name])

    it('names its sheets in the page language: the summary, four per subject, the skipped rows', () => {
      expect(wb.SheetNames).toEqual([
        w.sheets.summary,
        ...report.subjects.flatMap((s) => (['classrooms', 'bands', 'topWeak', 'highestLowest'] as const).map((kind) => sheetName(kind, s))),
        w.sheets.skipped,
      ])
    })

    it('sets every sheet right to left in Arabic only, with a styled, frozen header row on every table', () => {
      expect(Boolean(wb.Workbook?.Views?.[0]?.RTL)).toBe(lang === 'ar')
      wb.SheetNames.forEach((name, i) => {
        const xml = part(`xl/worksheets/sheet${i + 1}.xml`)
        expect(xml.includes('rightToLeft="1"')).toBe(lang === 'ar')
        // The summary has no table header; every other sheet is one table.
        expect(xml.includes('<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>')).toBe(i > 0)
        const header = i > 0 ? (sheet(name)[0] ?? []) : []
        for (const cell of header) expect(cell?.s).toMatchObject({ patternType: 'solid', fgColor: { rgb: 'DCEBE8' } })
      })
    })

    it('opens with a summary: title, school, subjects, exam, analysis date, each subject’s headline and the bands used', () => {
      const rows = sheet(w.sheets.summary)
      expect(text(rows[0]?.[0])).toBe(title)
      // The first row of each label: the title block comes before the tables.
      const byLabel = new Map<string, Cell[]>()
      for (const row of rows) if (!byLabel.has(text(row[0]))) byLabel.set(text(row[0]), row.slice(1))
      expect(text(byLabel.get(w.about.school)?.[0])).toBe(fixture.school)
      const subjectLabel = report.subjects.length > 1 ? w.about.subjects : w.about.subject
      expect(text(byLabel.get(subjectLabel)?.[0])).toBe(fixture.subjects[lang])
      expect(text(byLabel.get(w.about.exam)?.[0])).toBe(fixture.exam)
      expect(byLabel.get(w.about.created)?.slice(0, 2).map(text)).toEqual(w.createdOn)
      for (const subject of report.subjects) {
        const row = rows.find((r) => text(r[0]) === subject.subject && r[1]?.t === 'n')?.slice(1) ?? []
        expect(row[0]).toMatchObject({ t: 'n', v: subject.max })
        expectCount(row[1], subject.summary.students)
        expectCount(row[2], subject.summary.absent)
        expectDecimal(row[3], subject.summary.total / subject.summary.students)
        expectShare(row[4], passedFromRecords(analysis, report.subjects.indexOf(subject)).get('overall') ?? 0, subject.summary.students)
      }
      const bandsAt = rows.findIndex((row) => text(row[0]) === w.bandsUsed)
      expect(bandsAt).toBeGreaterThan(0)
      const bandRows = rows.slice(bandsAt + 1, bandsAt + 1 + report.bands.length)
      expect(bandRows.map((row) => row[1]?.v)).toEqual([0.9, 0.8, 0.7, 0.5, 0])
      expect(bandRows.map((row) => text(row[0]))).toEqual(
        w.bandHeaders.filter((_, i) => i % 2 === 0).map((h) => h.replace(/^عدد |: count$/g, '')),
      )
    })

    it('lists each classroom and the subject overall with every figure: counts, exact averages and pass rates', () => {
      report.subjects.forEach((subject, s) => {
        const [header = [], ...rows] = sheet(sheetName('classrooms', subject))
        expect(header.map(text)).toEqual(w.classroomHeaders)
        const passed = passedFromRecords(analysis, s)
        const groups: [string, string, ScoreFigures][] = [
          ...subject.byClassroom.map((g): [string, string, ScoreFigures] => [g.grade, g.classroom, g]),
          [w.overall, '', subject.summary],
        ]
        expect(rows).toHaveLength(groups.length)
        rows.forEach((row, i) => {
          const [grade, classroom, f] = groups[i] as [string, string, ScoreFigures]
          expect([text(row[0]), text(row[1])]).toEqual([grade, classroom])
          expectCount(row[2], f.students)
          expectCount(row[3], f.absent)
          expect(row[4]).toMatchObject({ t: 'n', v: f.total })
          expectDecimal(row[5], f.total / f.students)
          expect(row[5]?.w).toBe((f.average as number).toFixed(2))
          expect([row[6]?.v, row[7]?.v]).toEqual([f.highest, f.lowest])
          expectDecimal(row[8], f.median as number)
          expectDecimal(row[9], f.stdDev as number)
          expectShare(row[10], passed.get(grade === w.overall ? 'overall' : `${grade}|${classroom}`) ?? 0, f.students)
        })
      })
    })

    it('gives each band’s count and exact share of the group’s students', () => {
      report.subjects.forEach((subject) => {
        const [header = [], ...rows] = sheet(sheetName('bands', subject))
        expect(header.map(text)).toEqual([w.classroomHeaders[0], w.classroomHeaders[1], w.classroomHeaders[2], ...w.bandHeaders])
        const groups = [...subject.byClassroom, subject.summary]
        rows.forEach((row, i) => {
          const f = groups[i] as ScoreFigures
          expectCount(row[2], f.students)
          f.bands.forEach((band, b) => {
            expectCount(row[3 + 2 * b], band.count)
            expectShare(row[4 + 2 * b], band.count, f.students)
          })
        })
      })
    })

    it('compares the top and weak groups per classroom and overall', () => {
      report.subjects.forEach((subject) => {
        const [header = [], ...rows] = sheet(sheetName('topWeak', subject))
        expect(header.map(text)).toEqual(w.topWeakHeaders)
        const groups = [...subject.byClassroom, subject.summary]
        rows.forEach((row, i) => {
          const f = groups[i] as ScoreFigures
          expectCount(row[3], f.top.count)
          expect(row[4]).toMatchObject({ t: 'n', v: (f.top.average as number) / 100, z: '0.00%' })
          expectCount(row[5], f.weak.count)
          expect(row[6]).toMatchObject({ t: 'n', v: (f.weak.average as number) / 100, z: '0.00%' })
          expectDecimal(row[7], f.gap as number)
        })
      })
    })

    it('lists the five highest and five lowest students of each classroom and overall', () => {
      report.subjects.forEach((subject) => {
        const [header = [], ...rows] = sheet(sheetName('highestLowest', subject))
        expect(header.map(text)).toEqual(w.listHeaders)
        const overall = rows.filter((row) => text(row[0]) === w.overall)
        expect(overall.map((row) => row[2]?.v)).toEqual([1, 2, 3, 4, 5])
        expect(overall.map((row) => [text(row[3]), row[4]?.v])).toEqual(subject.summary.highest5.map((s) => [s.name, s.score]))
        expect(overall.map((row) => [text(row[5]), row[6]?.v])).toEqual(subject.summary.lowest5.map((s) => [s.name, s.score]))
        const first = subject.byClassroom[0]
        const firstRows = rows.filter((row) => text(row[0]) === first?.grade && text(row[1]) === first.classroom)
        expect(firstRows.map((row) => text(row[3]))).toEqual(first?.highest5.map((s) => s.name))
      })
    })

    it('lists the skipped rows with their reasons and values in the page language', () => {
      const [header = [], ...rows] = sheet(w.sheets.skipped)
      expect(header.map(text)).toEqual(lang === 'ar' ? ['الصف', 'السبب'] : ['Row', 'Reason'])
      // The Arabic fixture reads every row; the English one skips two.
      const expected =
        report.skipped.length === 0
          ? [['', w.noSkipped]]
          : [
              ['32', w.skipped[0]],
              ['79', w.skipped[1]],
            ]
      expect(rows.map((row) => row.slice(0, 2).map(text))).toEqual(expected)
      expect(rows.map((row) => row[0]?.t ?? null)).toEqual(report.skipped.length === 0 ? [null] : ['n', 'n'])
    })
  },
)

describe('gradesReportWorkbook with other bands and odd subjects', () => {
  const analysis = fixtureAnalysis('small-ar.xlsx')

  it('names the teacher’s own bands as written and the elementary preset’s in the page language', () => {
    const own = recomputeGrades(analysis.records, [
      { key: 'Above 75', min: 75 },
      { key: 'Rest', min: 0 },
    ])
    const { wb } = open(gradesReportWorkbook({ lang: 'ar', title, createdAt, analysis: { meta: analysis.meta, report: own } }))
    const header = rowsOf(wb.Sheets['التقديرات - الرياضيات'])[0]?.map(text)
    expect(header?.slice(3)).toEqual(['عدد Above 75', 'نسبة Above 75', 'عدد Rest', 'نسبة Rest'])

    const elementary = recomputeGrades(analysis.records, 'elementary')
    const en = open(gradesReportWorkbook({ lang: 'en', title, createdAt, analysis: { meta: analysis.meta, report: elementary } }))
    expect(rowsOf(en.wb.Sheets['Bands - الرياضيات'])[0]?.map(text).slice(3)).toEqual([
      'Outstanding: count',
      'Outstanding: %',
      'Advanced: count',
      'Advanced: %',
      'Proficient: count',
      'Proficient: %',
      'Not passed: count',
      'Not passed: %',
    ])
  })

  it('shortens a long subject in sheet names, keeps them unique and leaves an empty group’s figures empty', () => {
    const subject = analysis.report.subjects[0] as SubjectReport
    const long = 'Mathematics and Statistics for the Second Term: Part 1'
    const empty: ScoreFigures = {
      ...subject.summary,
      students: 0,
      absent: 3,
      total: 0,
      average: null,
      highest: null,
      lowest: null,
      median: null,
      stdDev: null,
      passRate: null,
      bands: subject.summary.bands.map((b) => ({ ...b, count: 0, percentage: null })),
      top: { count: 0, average: null },
      weak: { count: 0, average: null },
      gap: null,
      highest5: [],
      lowest5: [],
    }
    const report = {
      ...analysis.report,
      subjects: [
        { ...subject, subject: long, byClassroom: [...subject.byClassroom, { grade: 'الثالث المتوسط', classroom: '4', ...empty }] },
        { ...subject, subject: `${long} (2)` },
      ],
    }
    const { wb } = open(gradesReportWorkbook({ lang: 'en', title, createdAt, analysis: { meta: {}, report } }))
    expect(wb.SheetNames.length).toBe(10)
    expect(new Set(wb.SheetNames).size).toBe(10)
    for (const name of wb.SheetNames) expect([...name].length).toBeLessThanOrEqual(31)
    expect(wb.SheetNames[1]).toBe('Classrooms - Mathematics and S…')
    expect(wb.SheetNames[4]).toBe('Highest & lowest - Mathematics…')
    const emptyRow = rowsOf(wb.Sheets[wb.SheetNames[1] as string]).find((row) => text(row[0]) === 'الثالث المتوسط')
    expectCount(emptyRow?.[2], 0)
    expectCount(emptyRow?.[3], 3)
    for (const at of [5, 6, 7, 8, 9, 10]) expect(emptyRow?.[at]?.v, `column ${at}`).toBeUndefined()
    // No school, exam or term: the summary leaves their lines out.
    const labels = rowsOf(wb.Sheets.Summary).map((row) => text(row[0]))
    expect(labels).not.toContain('School')
    expect(labels).not.toContain('Exam')
  })

  it('keeps user text as text', () => {
    const tricky = '=HYPERLINK("http://x") <b>&</b>'
    const { wb } = open(gradesReportWorkbook({ lang: 'en', title: tricky, createdAt, analysis: { ...analysis, meta: { school: '=1+1' } } }))
    expect(wb.Sheets.Summary?.A1).toMatchObject({ t: 's', v: tricky })
    expect(wb.Sheets.Summary?.A1?.f).toBeUndefined()
    expect(wb.Sheets.Summary?.B3).toMatchObject({ t: 's', v: '=1+1' })
  })
})

describe('passedCount', () => {
  const figures = (students: number, passRate: number | null) => ({ students, passRate }) as ScoreFigures

  it('recovers the number of students who passed from the two-decimal pass rate', () => {
    for (const students of [1, 3, 7, 35, 997, 9_999]) {
      for (const passed of new Set([0, 1, Math.floor(students / 3), students - 1, students])) {
        if (passed < 0 || passed > students) continue
        const rate = Math.round(((passed * 100) / students) * 100) / 100
        // The analysis rounds half away from zero exactly; Math.round agrees on these.
        expect(passedCount(figures(students, rate)), `${passed} of ${students}`).toBe(passed)
      }
    }
  })

  it('gives up where the rate cannot tell the count: no students, no rate, 10,000 students or more', () => {
    expect(passedCount(figures(0, null))).toBeNull()
    expect(passedCount(figures(10_000, 50))).toBeNull()
    expect(passedCount(figures(35, 80.01))).toBeNull()
  })
})
