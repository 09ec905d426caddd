import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { CellValue, SheetRow } from '#app/platform/xlsx/types.ts'
import { readWorkbookRows } from '#tests/workbook-rows.ts'
import { analyseGrades, gradesSheetNames, recomputeGrades, type GradesAnalysis } from './analyse-grades.ts'
import { renderGradesReportPdf } from './report-pdf.server.ts'

// The PDF export read back as text (pdftotext) and as a page count (pdfinfo): the words and
// figures of the report in the page's language, Arabic extracted joined and in logical order.

const fixtureDir = path.resolve(import.meta.dirname, 'fixtures')
const createdAt = new Date('2026-11-22T14:05:09Z')

function fixtureAnalysis(file: string): GradesAnalysis {
  const { rows, sheetName } = readWorkbookRows(path.join(fixtureDir, file), gradesSheetNames)
  return analyseGrades(rows, { sheetName })
}

const pdftotext = (pdf: Uint8Array) =>
  execFileSync('/usr/bin/pdftotext', ['-layout', '-', '-'], { input: pdf })
    .toString('utf8')
    .replace(/[\u202A-\u202E]/g, '')

function pageCount(pdf: Uint8Array): number {
  const info = execFileSync('/usr/bin/pdfinfo', ['-'], { input: pdf, stdio: ['pipe', 'pipe', 'ignore'] }).toString('utf8')
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1])
}

const grades = ['الأول المتوسط', 'الثاني المتوسط', 'الثالث المتوسط', 'الأول الثانوي', 'الثاني الثانوي', 'الثالث الثانوي']
const names = ['محمد', 'أحمد', 'عبدالله', 'خالد', 'فهد', 'سعد', 'ناصر', 'يوسف', 'علي', 'عمر', 'سلطان', 'تركي']
const families = ['الغامدي', 'الزهراني', 'العتيبي', 'الشهري', 'القحطاني', 'الحربي', 'المطيري', 'الدوسري']
const subjects = [
  { name: 'الرياضيات', max: 100 },
  { name: 'العلوم', max: 40 },
  { name: 'لغتي', max: 50 },
]

/** A school's exam: `students` students in classrooms of about 30, a score in each of three subjects from a fixed seed, a few absent. */
function schoolRows(students: number): SheetRow[] {
  let seed = 7
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
  const rows: CellValue[][] = [
    ['اسم المدرسة', 'ثانوية الملك عبدالعزيز'],
    ['الاختبار', 'اختبار نهاية الفصل'],
    ['الفصل الدراسي', 'الفصل الأول 1447 هـ'],
    [],
    ['اسم الطالب', 'رقم الهوية', 'الصف', 'الفصل', 'المادة', 'الدرجة', 'الدرجة العظمى'],
  ]
  for (const subject of subjects) {
    for (let i = 0; i < students; i++) {
      const name = `${names[i % 12]} ${names[(i * 7 + 3) % 12]} ${names[(i * 5 + 1) % 12]} ${families[i % 8]}`
      const grade = grades[i % 6] ?? ''
      const classroom = String(1 + (Math.floor(i / 6) % Math.ceil(students / 180)))
      const ability = 0.35 + (0.6 * ((i * 37) % 101)) / 100
      const r = random()
      const score = r < 0.02 ? 'غائب' : Math.round(2 * subject.max * Math.min(1, Math.max(0, ability + (random() - 0.5) * 0.3))) / 2
      rows.push([name, String(1_100_000_000 + i), grade, classroom, subject.name, score, subject.max])
    }
  }
  return rows.map((cells, i) => ({ row: i + 1, cells }))
}

describe('renderGradesReportPdf', () => {
  const small = fixtureAnalysis('small-ar.xlsx')
  const two = fixtureAnalysis('english-two-subjects.xlsx')

  it('prints the Arabic report right to left, words joined and in logical order', async () => {
    await renderGradesReportPdf({ lang: 'ar', title: 'تحمية', createdAt, analysis: small }) // warm the compiler
    const start = performance.now()
    const pdf = await renderGradesReportPdf({ lang: 'ar', title: 'نتائج اختبار منتصف الفصل', createdAt, analysis: small })
    console.info(`grades report pdf: small fixture (ar), warm, in ${(performance.now() - start).toFixed(0)} ms`)
    const text = pdftotext(pdf)
    // Header: school, title, subject, exam and the day of the analysis in both calendars.
    expect(text).toContain('متوسطة النور')
    expect(text).toContain('نتائج اختبار منتصف الفصل')
    expect(text).toContain('اختبار منتصف الفصل')
    expect(text).toContain('تاريخ التحليل')
    expect(text).toContain('جمادى الآخرة')
    // The bands used, then the subject with its max and key figures: the average from the
    // exact total (2491/35 = 71.17…), the pass rate from the count (28/35), median and deviation.
    expect(text).toContain('التقديرات المستخدمة')
    // Bands named with the percents they cover, from the thresholds in force.
    // (pdftotext moves a percent sign beside Arabic words; the page itself reads "ممتاز (90٪ فأكثر)".)
    expect(text).toMatch(/ممتاز \(\s*٪?90٪?\s*فأكثر\)/)
    expect(text).toMatch(/ضعيف \(أقل من\s*\)?٪?50٪?\)?/)
    expect(text).toMatch(/الرياضيات\s+\(من/)
    for (const word of ['المتوسط', 'الوسيط', 'نسبة النجاح', 'الانحراف المعياري', 'عدد الطلاب', 'الغائبون', 'أعلى درجة', 'أدنى درجة'])
      expect(text).toContain(word)
    expect(text).toContain('71.2')
    expect(text).toContain('80.0٪')
    expect(text).toContain('72.5')
    expect(text).toContain('19.5')
    // Tables and charts, with the classrooms and the overall row.
    expect(text).toContain('النتائج حسب الفصل')
    expect(text).toContain('الثاني المتوسط')
    expect(text).toContain('جميع الفصول')
    expect(text).toContain('التقديرات حسب الفصل')
    expect(text).toContain('توزيع التقديرات')
    // Letters joined and in order; pdftotext puts a vowel mark before its letter (جًدا for جدًا), the
    // page shows it in place, so marks are left out of this check.
    const plain = text.replace(/[\u064B-\u0652]/g, '')
    expect(plain).toContain('جيد جدا')
    expect(text).toContain('الفئة العليا والفئة الدنيا')
    expect(text).toMatch(/48\.4\s*نقطة/)
    expect(text).toContain('أعلى خمسة طلاب')
    expect(text).toContain('أدنى خمسة طلاب')
    for (const student of [...(small.report.subjects[0]?.summary.highest5 ?? []), ...(small.report.subjects[0]?.summary.lowest5 ?? [])])
      expect(text).toContain(student.name)
    expect(plain).toContain('قرئت كل صفوف الملف')
    expect(text).not.toMatch(/[\u0660-\u0669]/) // Latin digits, as Saudi schools write figures
    const pages = pageCount(pdf)
    expect(pages).toBeGreaterThanOrEqual(1)
    expect(pages).toBeLessThanOrEqual(3)
    expect(text).toMatch(new RegExp(`صفحة\\s+1\\s*من\\s*${pages}`))
    expect(text).toMatch(new RegExp(`صفحة\\s+${pages}\\s*من\\s*${pages}`))
  })

  it('is titled as a grades report and ends with the sign-off for the principal, in both languages', async () => {
    const ar = pdftotext(
      await renderGradesReportPdf({
        lang: 'ar',
        title: 'نتائج اختبار منتصف الفصل',
        createdAt,
        analysis: small,
        preparedBy: 'نورة بنت سعد العتيبي',
      }),
    )
    expect(ar).toContain('تقرير الدرجات')
    expect(ar).toMatch(/إعداد[\s\S]*نورة بنت سعد العتيبي[\s\S]*التوقيع/)
    expect(ar).toContain('اعتماد مدير المدرسة')
    const en = pdftotext(
      await renderGradesReportPdf({ lang: 'en', title: 'Midterm results', createdAt, analysis: two, preparedBy: 'Noura Saad Alotaibi' }),
    )
    expect(en).toContain('Grades report')
    expect(en).toMatch(/Prepared by[\s\S]*Noura Saad Alotaibi[\s\S]*Signature/)
  })

  it('prints the English report of two subjects with the same figures and the skipped rows', async () => {
    const pdf = await renderGradesReportPdf({ lang: 'en', title: 'Midterm results', createdAt, analysis: two })
    const text = pdftotext(pdf)
    expect(text).toContain('Al-Noor Intermediate School')
    expect(text).toContain('Midterm results')
    expect(text).toMatch(/Subjects[\s\S]*Science and Math/)
    expect(text).toContain('22 November 2026')
    expect(text).toContain('12 Jumada II 1448 AH')
    expect(text).toContain('Excellent (90% and above)')
    expect(text).toContain('Weak (below 50%)')
    expect(text).toContain('Science (out of 40)')
    expect(text).toContain('Math (out of 100)')
    expect(text).toMatch(/Average\s+Median\s+Pass rate\s+Standard deviation\s+31\.3\s+33\.8\s+88\.2%\s+7\.2/)
    expect(text).toMatch(/All classrooms\s+34\s+2\s+1,065\.5\s+31\.3\s+40\s+13\.5\s+33\.8\s+7\.2\s+88\.2%/)
    expect(text).toContain('Grade bands by classroom')
    expect(text).toContain('Distribution of grade bands')
    expect(text).toMatch(/Excellent · 35\.3%\s+12/)
    expect(text).toContain('Top group versus weak group')
    expect(text).toMatch(/All classrooms\s+10\s+96\.1%\s+10\s+54\.3%\s+41\.9 points/)
    expect(text).toContain('Highest five')
    expect(text).toContain('Lowest five')
    expect(text).toContain('Rows left out (2)')
    expect(text).toMatch(/32\s+unreadable score: abc/)
    expect(text).toMatch(/79\s+score above max: 105 \(max 100\)/)
    const pages = pageCount(pdf)
    expect(pages).toBeGreaterThanOrEqual(2)
    expect(pages).toBeLessThanOrEqual(5)
    expect(text).toContain(`Page 1 of ${pages}`)
    expect(text).toContain(`Page ${pages} of ${pages}`)
  })

  it('names the teacher’s own bands as written, and prints user text literally, never as typst markup', async () => {
    const report = recomputeGrades(small.records, [
      { key: 'فوق #set 75', min: 75 },
      { key: 'Rest $x$', min: 0 },
    ])
    const title = String.raw`#"evil" [x] *b* _i_ $m$ \\ @ref <l> #set page(width: 1cm)`
    const text = pdftotext(
      await renderGradesReportPdf({
        lang: 'en',
        title,
        createdAt,
        analysis: { meta: { ...small.meta, school: '#panic("no") = heading' }, report },
      }),
    )
    expect(text).toContain(title)
    expect(text).toContain('#panic("no") = heading')
    expect(text).toContain('(75% and above)')
    expect(text).toContain('Rest $x$ (below 75%)')
  })

  it('lists only the first skipped rows, and says how many there are', async () => {
    const skipped = Array.from({ length: 250 }, (_, i) => ({ row: 10_000 + i, reason: { key: 'grades.skip.noName' } }))
    const text = pdftotext(
      await renderGradesReportPdf({ lang: 'en', title: 'Term', createdAt, analysis: { ...small, report: { ...small.report, skipped } } }),
    )
    expect(text).toContain('Rows left out (250)')
    expect(text).toContain('Rows left out: 250. The first 200 are listed here; the Excel export lists them all.')
    expect(text).toContain('10199')
    expect(text).not.toContain('10200')
  })

  const big = analyseGrades(schoolRows(3000))
  const bigLanguages = [
    { lang: 'ar', title: 'نتائج الفصل الأول', page: (n: number) => new RegExp(`صفحة\\s+${n}\\s*من\\s*${n}`), total: 'مجموع' },
    { lang: 'en', title: 'First term results', page: (n: number) => new RegExp(`Page ${n} of ${n}`), total: 'Total' },
  ] as const

  it.each(bigLanguages)(
    'renders a 3,000-student, three-subject analysis ($lang), tables breaking across pages with their headers repeated',
    async ({ lang, title, page, total }) => {
      expect(big.report.subjects).toHaveLength(3)
      expect(big.report.subjects.map((s) => s.summary.students + s.summary.absent)).toEqual([3000, 3000, 3000])
      const classrooms = big.report.subjects[0]?.byClassroom.length ?? 0
      expect(classrooms).toBeGreaterThan(80)
      const start = performance.now()
      const pdf = await renderGradesReportPdf({ lang, title, createdAt, analysis: big })
      const ms = performance.now() - start
      const pages = pageCount(pdf)
      const text = pdftotext(pdf)
      expect(pages).toBeGreaterThan(6)
      expect(pages).toBeLessThan(80)
      expect(text).toContain('ثانوية الملك عبدالعزيز')
      expect(text).toContain('لغتي')
      expect(text).toMatch(page(pages))
      // The classrooms table spans pages: its header row is on each of them.
      // A row of the classrooms table is the one line with nine figures or more.
      const isClassroomRow = (line: string) => line.split(/\s+/).filter((token) => /^[\d,.]+[%٪]?$/.test(token)).length >= 9
      const tablePages = text.split('\f').filter((p) => p.split('\n').some(isClassroomRow))
      expect(tablePages.length).toBeGreaterThan(3)
      for (const p of tablePages) expect(p).toContain(total)
      // Measured, not asserted: machines differ.
      console.info(
        `grades report pdf: 3,000 students × 3 subjects, ${classrooms} classrooms each (${lang}), ${pages} pages, ${(pdf.byteLength / 1024).toFixed(0)} KB in ${ms.toFixed(0)} ms`,
      )
    },
    60_000,
  )
})
