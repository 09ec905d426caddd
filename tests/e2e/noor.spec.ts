import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import * as XLSX from '@e965/xlsx'
import { expect, test, type Page } from './fixtures.ts'
import { downloadFrom } from './helpers.ts'
import { subscribedTeacher } from './teacher.ts'

// The files Noor itself exports, uploaded as a teacher downloads them (docs/noor-layouts.md):
// the absence totals over several sheets (what was read, the school days changed and the
// figures with them, both exports), the same report as a CSV (asked for the school days), the
// daily report as an Excel 97–2003 file, and the grades' report cards and band summary.

const absenceDir = path.resolve('tests/fixtures/noor')
const gradesDir = absenceDir

const words = {
  ar: {
    submit: 'حلّل الملف',
    attendance: 'نسبة الحضور العامة',
    recognised: 'ما قُرئ من الملف',
    totals: 'إجمالي غياب الطلاب من نور',
    daily: 'سجل الحضور والغياب اليومي',
    cards: 'إشعارات الدرجات من نور: ورقة لكل طالب',
    bandSummary: 'توزيع الطلاب على مستويات الأداء من نور',
    schoolDays: 'أيام الدراسة في الفترة',
    recompute: 'أعد الحساب',
    uploadDays: 'أيام الدراسة (لمجاميع غياب نور التي لا تذكر فترة فقط)',
    askDays: 'أدخل عدد أيام الدراسة',
    noorList: 'ملفات من نور يمكن رفعها كما هي',
    noDays: 'لا يوجد رسم حسب أيام الأسبوع أو التاريخ',
    bandsOnly: 'لا درجاتهم',
    pdf: 'تصدير PDF',
    excel: 'تصدير Excel',
    daysRow: 'أيام الدراسة',
    students: { 35: '35 طالبًا', 34: '34 طالبًا', 30: '30 طالبًا', 24: '24 طالبًا', 16: '16 طالبًا' },
  },
  en: {
    submit: 'Analyse the file',
    attendance: 'Overall attendance',
    recognised: 'What was read',
    totals: 'Noor absence totals',
    daily: 'Daily attendance records',
    cards: 'Noor report cards, one sheet per student',
    bandSummary: 'Noor band summary',
    schoolDays: 'School days in the period',
    recompute: 'Recompute',
    uploadDays: "School days (only for Noor's absence totals without a period)",
    askDays: 'number of school days',
    noorList: 'Files from Noor you can upload as they are',
    noDays: 'no chart by weekday or by date',
    bandsOnly: 'not their scores',
    pdf: 'Export PDF',
    excel: 'Export Excel',
    daysRow: 'School days',
    students: { 35: '35 students', 34: '34 students', 30: '30 students', 24: '24 students', 16: '16 students' },
  },
} as const

async function upload(page: Page, file: string, submit: string) {
  await page.locator('input[type="file"]').setInputFiles(file)
  await page.getByRole('button', { name: submit }).click()
}

/** The page as a teacher sees it, kept among the test's outputs: light and dark, desktop and phone. */
async function screenshots(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      await page.emulateMedia({ colorScheme: scheme })
      await page.setViewportSize({ width, height: 900 })
      await page.screenshot({ path: test.info().outputPath(`${name}-${scheme}-${width}.png`), fullPage: true })
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 1280, height: 720 })
}

const attendanceOf = (page: Page, label: string) => page.locator('.key-figure').filter({ hasText: label }).locator('dd')

for (const lang of ['ar', 'en'] as const) {
  const w = words[lang]
  test(`${lang}: Noor's absence totals, CSV and .xls as they come; the school days changed; both exports`, async ({ page }) => {
    test.setTimeout(240_000)
    await subscribedTeacher(page, lang, `noor-${lang}`)
    await page.goto(`/${lang}/analysis`)
    await expect(page.getByRole('heading', { name: w.noorList })).toBeVisible()

    // Totals over two classroom sheets after a School Info sheet, the period in the title block.
    await upload(page, path.join(absenceDir, 'absence-totals-ar.xlsx'), w.submit)
    await expect(page).toHaveURL(new RegExp(`/${lang}/single-analysis\\?id=`), { timeout: 30_000 })
    const recognised = page.locator('section.recognised')
    await expect(recognised.getByRole('heading', { name: w.recognised })).toBeVisible()
    await expect(recognised.locator('.recognised-line')).toContainText(w.totals)
    await expect(recognised.locator('.recognised-line')).toContainText(w.students[35])
    await expect(recognised.locator('.recognised-line')).toContainText('1447/03/01')
    await expect(page.getByText(w.noDays)).toBeVisible()
    await expect(attendanceOf(page, w.attendance)).toHaveText(/94\.6\s?[%٪]/)
    await screenshots(page, `totals-${lang}`)

    // 30 school days instead of 33: every rate is recomputed from the stored totals.
    const days = page.getByLabel(w.schoolDays)
    await expect(days).toHaveValue('33')
    await days.fill('30')
    await page.getByRole('button', { name: w.recompute }).click()
    await expect(page).toHaveURL(/days=30/)
    await expect(page.getByLabel(w.schoolDays)).toHaveValue('30')
    await expect(attendanceOf(page, w.attendance)).not.toHaveText(/94\.6\s?[%٪]/)
    await expect(page.locator('.recognised-line')).toContainText(lang === 'ar' ? '30 يومًا دراسيًا' : '30 school days')

    // The exports print what the page shows: 30 school days.
    const xlsxPath = await downloadFrom(page, test.info(), () => page.getByRole('link', { name: w.excel }).click(), `totals-${lang}.xlsx`)
    const book = XLSX.read(readFileSync(xlsxPath))
    const summary = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[book.SheetNames[0] ?? ''] ?? {}, { header: 1 })
    expect(summary.find((row) => row[0] === w.daysRow)?.[1]).toBe(30)
    expect(book.SheetNames.length).toBeGreaterThan(3)
    const pdfPath = await downloadFrom(page, test.info(), () => page.getByRole('link', { name: w.pdf }).click(), `totals-${lang}.pdf`)
    expect(readFileSync(pdfPath).subarray(0, 5).toString()).toBe('%PDF-')
    const text = execFileSync('pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' })
    expect(text).toContain('30')

    // The same report as a Windows-1256 CSV without a period: asked for the school days, then read.
    await page.goto(`/${lang}/analysis`)
    await upload(page, path.join(absenceDir, 'absence-totals.csv'), w.submit)
    await expect(page.getByRole('alert')).toContainText(w.askDays)
    await screenshots(page, `absence-tool-asks-days-${lang}`)
    await page.getByLabel(w.uploadDays).fill('40')
    await upload(page, path.join(absenceDir, 'absence-totals.csv'), w.submit)
    await expect(page).toHaveURL(new RegExp(`/${lang}/single-analysis\\?id=`), { timeout: 30_000 })
    await expect(page.locator('.recognised-line')).toContainText(w.students[30])
    await expect(attendanceOf(page, w.attendance)).toHaveText(/90\.6\s?[%٪]/)

    // Noor's daily report saved as Excel 97–2003.
    await page.goto(`/${lang}/analysis`)
    await upload(page, path.join(absenceDir, 'absence-daily-noor.xls'), w.submit)
    await expect(page).toHaveURL(new RegExp(`/${lang}/single-analysis\\?id=`), { timeout: 30_000 })
    await expect(page.locator('.recognised-line')).toContainText(w.daily)
    await expect(page.locator('.recognised-line')).toContainText(w.students[24])
    await expect(attendanceOf(page, w.attendance)).toHaveText(/84\.6\s?[%٪]/)
    await expect(page.locator('figure.chart')).toHaveCount(7)
  })

  test(`${lang}: Noor's report cards and band summary in the grades tool`, async ({ page }) => {
    test.setTimeout(180_000)
    await subscribedTeacher(page, lang, `noor-grades-${lang}`)
    await page.goto(`/${lang}/analysis-grade`)
    await expect(page.getByRole('heading', { name: w.noorList })).toBeVisible()
    await upload(page, path.join(gradesDir, 'grades-report-cards.xlsx'), w.submit)
    await expect(page).toHaveURL(new RegExp(`/${lang}/single-analysis\\?id=`), { timeout: 30_000 })
    await expect(page.locator('.recognised-line')).toContainText(w.cards)
    await expect(page.locator('.recognised-line')).toContainText(w.students[16])
    await expect(page.getByRole('heading', { name: /التفكير الناقد/ })).toBeVisible()
    await screenshots(page, `report-cards-${lang}`)

    await page.goto(`/${lang}/analysis-grade`)
    await upload(page, path.join(gradesDir, 'grades-band-summary.xlsx'), w.submit)
    await expect(page).toHaveURL(new RegExp(`/${lang}/single-analysis\\?id=`), { timeout: 30_000 })
    await expect(page.locator('.recognised-line')).toContainText(w.bandSummary)
    await expect(page.getByText(w.bandsOnly)).toBeVisible()
    await expect(page.getByRole('heading', { name: 'الرياضيات', exact: true })).toBeVisible()
    const pdfPath = await downloadFrom(page, test.info(), () => page.getByRole('link', { name: w.pdf }).click(), `bands-${lang}.pdf`)
    expect(execFileSync('pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' })).toContain('24')
    await screenshots(page, `band-summary-${lang}`)
  })
}
