import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readSheet } from '#app/platform/workbook-reading/read-workbook.server.ts'
import type { CellValue, SheetRow } from '#app/platform/xlsx/types.ts'
import { analyseAbsence, type AbsenceAnalysis } from './analyse-absence.ts'
import { pdfSkippedRowLimit, renderAbsenceReportPdf } from './report-pdf.server.ts'

// The PDF export read back as text (pdftotext) and as a page count (pdfinfo): the words and
// figures of the report in the page's language, Arabic extracted joined and in logical order.

const fixture = path.resolve(import.meta.dirname, 'fixtures/small-ar.xlsx')
const createdAt = new Date('2026-11-22T14:05:09Z')

function fixtureAnalysis(): AbsenceAnalysis {
  const { rows, sheetName } = readSheet(readFileSync(fixture), {
    preferredSheets: ['الغياب', 'Absence'],
    maxUncompressedBytes: 200 << 20,
    maxRows: 500_000,
    timeBudgetMs: 10_000,
  })
  return analyseAbsence(rows, { sheetName })
}

const pdftotext = (pdf: Uint8Array) =>
  execFileSync('/usr/bin/pdftotext', ['-layout', '-', '-'], { input: pdf })
    .toString('utf8')
    .replace(/[\u202A-\u202E]/g, '')

function pageCount(pdf: Uint8Array): number {
  const info = execFileSync('/usr/bin/pdfinfo', ['-'], { input: pdf, stdio: ['pipe', 'pipe', 'ignore'] }).toString('utf8')
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1])
}

const header = ['اسم الطالب', 'رقم الهوية', 'الصف', 'الفصل', 'القسم', 'النظام الدراسي', 'التاريخ', 'اليوم', 'الحالة']
const grades = ['الأول المتوسط', 'الثاني المتوسط', 'الثالث المتوسط', 'الأول الثانوي', 'الثاني الثانوي', 'الثالث الثانوي']
const names = ['محمد', 'أحمد', 'عبدالله', 'خالد', 'فهد', 'سعد', 'ناصر', 'يوسف', 'علي', 'عمر', 'سلطان', 'تركي']
const families = ['الغامدي', 'الزهراني', 'العتيبي', 'الشهري', 'القحطاني', 'الحربي', 'المطيري', 'الدوسري']

/**
 * A school's sheet: `students` students over `days` school days (Sunday to Thursday from
 * 24 August 2025), absences drawn from a fixed seed, then `unnamed` rows without a name.
 */
function schoolRows({ students, days, unnamed = 0 }: { students: number; days: number; unnamed?: number }): SheetRow[] {
  let seed = 42
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
  const serials: number[] = []
  for (let serial = 45_893; serials.length < days; serial++) if ((serial - 45_893) % 7 < 5) serials.push(serial)
  const rows: CellValue[][] = [['اسم المدرسة', 'ثانوية الملك عبدالعزيز'], ['الفصل الدراسي', 'الفصل الأول 1447 هـ'], [], header]
  for (let i = 0; i < students; i++) {
    const name = `${names[i % 12]} ${names[(i * 7 + 3) % 12]} ${names[(i * 5 + 1) % 12]} ${families[i % 8]}`
    const cells = [
      name,
      String(1_100_000_000 + i),
      grades[i % 6] ?? '',
      String(1 + ((i >> 3) % 7)),
      i % 5 === 0 ? 'تحفيظ' : 'عام',
      i % 9 === 0 ? 'مسائي' : 'نهاري',
    ]
    const risk = random() * 0.15
    for (const serial of serials) {
      const r = random()
      const status = r < risk * 0.6 ? 'غياب بدون عذر' : r < risk ? 'غياب بعذر' : r < risk + 0.03 ? 'متأخر' : 'حاضر'
      rows.push([...cells, { kind: 'date', serial }, '', status])
    }
  }
  for (let i = 0; i < unnamed; i++) rows.push(['', '1', grades[0] ?? '', '1', 'عام', 'نهاري', { kind: 'date', serial: 45_893 }, '', 'حاضر'])
  return rows.map((cells, i) => ({ row: i + 1, cells }))
}

describe('renderAbsenceReportPdf', () => {
  const analysis = fixtureAnalysis()

  it('prints the Arabic report right to left, words joined and in logical order', async () => {
    await renderAbsenceReportPdf({ lang: 'ar', title: 'تحمية', createdAt, analysis }) // warm the compiler
    const start = performance.now()
    const pdf = await renderAbsenceReportPdf({ lang: 'ar', title: 'غياب الأسبوع الأول', createdAt, analysis })
    console.info(`absence report pdf: small fixture (ar), warm, in ${(performance.now() - start).toFixed(0)} ms`)
    const text = pdftotext(pdf)
    // Header: school, title, period and the day of the analysis (Gregorian and Umm al-Qura).
    expect(text).toContain('متوسطة النور')
    expect(text).toContain('غياب الأسبوع الأول')
    expect(text).toContain('الفترة')
    expect(text).toMatch(/من\s+1447\/03\/01\s*إلى\s+1447\/03\/05/)
    expect(text).toContain('جمادى الآخرة')
    // Key figures: one decimal, from the exact counts (56/60 = 93.33…, 1/60, 3/60).
    expect(text).toContain('المؤشرات الرئيسية')
    expect(text).toContain('نسبة الحضور العامة')
    expect(text).toContain('نسبة الغياب بدون عذر')
    expect(text).toContain('93.3٪')
    expect(text).toContain('5.0٪')
    expect(text).toContain('1.7٪')
    // Charts, tables and their labels.
    expect(text).toContain('الحضور حسب الفصل')
    expect(text).toContain('الغياب بدون عذر')
    expect(text).toContain('الثاني المتوسط')
    expect(text).toContain('85.0٪')
    expect(text).toContain('حسب التاريخ')
    expect(text).toContain('الأربعاء')
    expect(text).toContain('1447-03-04')
    expect(text).toContain('2025-08-27')
    // Warnings (none in this file) and the skipped rows with their reasons.
    expect(text).toContain('لم يبلغ أي طالب مستوى الإنذار')
    expect(text).toContain('لا يوجد اسم للطالب')
    expect(text).toContain('تاريخ غير مقروء')
    expect(text).toContain('سجل مكرر للصف')
    expect(text).not.toMatch(/[\u0660-\u0669]/) // Latin digits, as Saudi schools write figures
    const pages = pageCount(pdf)
    expect(pages).toBeGreaterThanOrEqual(2)
    expect(pages).toBeLessThanOrEqual(5)
    expect(text).toMatch(new RegExp(`صفحة\\s+1\\s*من\\s*${pages}`))
    expect(text).toMatch(new RegExp(`صفحة\\s+${pages}\\s*من\\s*${pages}`))
  })

  it('prints the English report with the same figures', async () => {
    const pdf = await renderAbsenceReportPdf({ lang: 'en', title: 'First week', createdAt, analysis })
    const text = pdftotext(pdf)
    expect(text).toContain('متوسطة النور')
    expect(text).toContain('First week')
    expect(text).toContain('1447/03/01 to 1447/03/05')
    expect(text).toContain('22 November 2026')
    expect(text).toContain('12 Jumada II 1448 AH')
    expect(text).toContain('Key figures')
    expect(text).toMatch(/Overall attendance[\s\S]*93\.3%/)
    expect(text).toContain('Attendance by classroom')
    expect(text).toContain('Attendance rate by date')
    expect(text).toMatch(/Wednesday\s+12\s+10\s+1\s+1\s+0\s+83\.3%\s+8\.3%\s+8\.3%\s+0\.0%/)
    expect(text).toMatch(/2025-08-27\s+1447-03-04\s+Wednesday\s+12\s+10/)
    expect(text).toContain('No student has reached a warning level.')
    // The tiers (default thresholds), by hand: five school days each, so one day missed is 20%
    // (severe): فيصل and بندر in the second classroom, محمد محمد in the third; nine at 0%.
    expect(text).toContain('Absence tiers by classroom')
    expect(text).toMatch(/satisfactory below 5%,\s+at risk from 5%,\s+chronic from 10%,\s+severe from 20%/)
    expect(text).toMatch(/All classrooms\s+12\s+9 \(75\.0%\)\s+0 \(0\.0%\)\s+0 \(0\.0%\)\s+3 \(25\.0%\)/)
    const atRisk = text.slice(text.indexOf('Students at risk or worse'), text.indexOf('Students with a warning'))
    expect(atRisk.match(/Severe/g)).toHaveLength(3)
    for (const name of ['بندر خالد ناصر البلوي', 'فيصل حمد راكان المطيري', 'محمد محمد يوسف السلمي']) expect(atRisk).toContain(name)
    expect(atRisk).not.toContain('محمد سلطان أحمد الجهني')
    expect(text).toContain('Rows left out (4)')
    expect(text).toMatch(/44\s+no student name/)
    expect(text).toMatch(/53\s+duplicate of row 51/)
    const pages = pageCount(pdf)
    expect(pages).toBeGreaterThanOrEqual(2)
    expect(pages).toBeLessThanOrEqual(5)
    expect(text).toContain(`Page 1 of ${pages}`)
    expect(text).toContain(`Page ${pages} of ${pages}`)
  })

  it('is titled as an absence report and ends with the sign-off for the principal, in both languages', async () => {
    const ar = pdftotext(
      await renderAbsenceReportPdf({ lang: 'ar', title: 'غياب الأسبوع الأول', createdAt, analysis, preparedBy: 'نورة بنت سعد العتيبي' }),
    )
    expect(ar).toContain('تقرير الغياب')
    expect(ar).toContain('غياب الأسبوع الأول')
    expect(ar).toMatch(/إعداد[\s\S]*نورة بنت سعد العتيبي[\s\S]*التوقيع/)
    expect(ar).toContain('اعتماد مدير المدرسة')
    // The sign-off comes before the rows left out, which are an appendix.
    expect(ar.indexOf('اعتماد مدير المدرسة')).toBeLessThan(ar.indexOf('لا يوجد اسم للطالب'))
    const en = pdftotext(
      await renderAbsenceReportPdf({ lang: 'en', title: 'First week', createdAt, analysis, preparedBy: 'Noura Saad Alotaibi' }),
    )
    expect(en).toContain('Absence report')
    expect(en).toMatch(/Prepared by[\s\S]*Noura Saad Alotaibi[\s\S]*Signature/)
    expect(en).toContain('Approved by the principal')
    // Without a name, the sign-off keeps its label and a line to write it on.
    const unnamed = pdftotext(await renderAbsenceReportPdf({ lang: 'en', title: 'First week', createdAt, analysis }))
    expect(unnamed).toContain('Prepared by')
  })

  it('prints user text literally, never as typst markup', async () => {
    const title = String.raw`#"evil" [x] *b* _i_ $m$ \\ @ref <l> #set page(width: 1cm)`
    const tricky: AbsenceAnalysis = { ...analysis, meta: { ...analysis.meta, school: '#panic("no") = heading' } }
    const text = pdftotext(await renderAbsenceReportPdf({ lang: 'en', title, createdAt, analysis: tricky }))
    expect(text).toContain(title)
    expect(text).toContain('#panic("no") = heading')
  })

  it('lists the students with a warning, the highest level first, and only the first skipped rows', async () => {
    const big = analyseAbsence(schoolRows({ students: 120, days: 30 }))
    // More skipped rows than the PDF lists.
    const skipped = Array.from({ length: 250 }, (_, i) => ({ row: 10_000 + i, reason: { key: 'absence.skip.noName' } }))
    const tricky: AbsenceAnalysis = { ...big, report: { ...big.report, skipped } }
    const pdf = await renderAbsenceReportPdf({ lang: 'en', title: 'Term', createdAt, analysis: tricky })
    const text = pdftotext(pdf)
    const warned = big.students.filter((s) => s.warningLevel > 0)
    expect(warned.length).toBeGreaterThan(3)
    expect(text).toContain('Students with a warning')
    const levelNames = ['', 'First warning', 'Second warning', 'Third warning']
    for (const level of new Set(warned.map((s) => s.warningLevel))) expect(text).toContain(levelNames[level])
    const top = [...warned].sort((a, b) => b.warningLevel - a.warningLevel || b.unexcused - a.unexcused)[0]
    const section = text.slice(text.indexOf('Students with a warning'))
    expect(section.indexOf(top?.name ?? '?')).toBeGreaterThan(0)
    expect(section.indexOf(top?.name ?? '?')).toBeLessThan(section.indexOf('First warning'))
    // A page of mostly Arabic names is read back right to left, its brackets mirrored: either way round.
    expect(text).toMatch(/Rows left out \(250\)|\)Rows left out \(250/)
    expect(text).toContain(`Rows left out: 250. The first ${pdfSkippedRowLimit} are listed here; the Excel export lists them all.`)
    expect(text).toContain(String(10_000 + pdfSkippedRowLimit - 1))
    expect(text).not.toContain(String(10_000 + pdfSkippedRowLimit))
  })

  it('renders a 2,000-student analysis, tables breaking across pages with their headers repeated', async () => {
    const big = analyseAbsence(schoolRows({ students: 2000, days: 60, unnamed: 450 }))
    expect(big.students).toHaveLength(2000)
    expect(big.report.skipped).toHaveLength(450)
    const start = performance.now()
    const pdf = await renderAbsenceReportPdf({ lang: 'ar', title: 'تقرير الفصل الأول', createdAt, analysis: big })
    const ms = performance.now() - start
    const pages = pageCount(pdf)
    const text = pdftotext(pdf)
    expect(pages).toBeGreaterThan(5)
    expect(pages).toBeLessThan(60)
    expect(text).toContain('ثانوية الملك عبدالعزيز')
    expect(text).toMatch(new RegExp(`صفحة\\s+${pages}\\s*من\\s*${pages}`))
    // The warnings table spans pages: its header row is on each of them.
    const warningPages = text.split('\f').filter((page) => page.includes('الإنذار الأول') || page.includes('الإنذار الثاني'))
    expect(warningPages.length).toBeGreaterThan(1)
    for (const page of warningPages) expect(page).toContain('أيام الغياب بدون عذر')
    // Measured, not asserted: machines differ.
    console.info(`absence report pdf: 2,000 students, ${pages} pages, ${(pdf.byteLength / 1024).toFixed(0)} KB in ${ms.toFixed(0)} ms`)
  }, 60_000)
})
