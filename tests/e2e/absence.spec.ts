import AxeBuilder from '@axe-core/playwright'
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import * as XLSX from '@e965/xlsx'
import { expect, test, type Page } from './fixtures.ts'
import { downloadFrom } from './helpers.ts'
import { signedInTeacher, subscribedTeacher } from './teacher.ts'

// The absence tool as a teacher uses it, in both languages: the sample file, the upload, the
// figures and charts, the student search and its two messages, both exports opened and read,
// the saved analysis in the list, and its deletion.

const words = {
  ar: {
    sample: 'تنزيل الملف النموذجي',
    submit: 'حلّل الملف',
    attendance: 'نسبة الحضور العامة',
    search: 'بحث',
    searchLabel: 'الاسم الكامل للطالب',
    tooShort: 'يجب أن يكون البحث بالاسم الكامل (ثلاث كلمات على الأقل)',
    notFound: 'الاسم غير موجود. يرجى المحاولة مرة أخرى.',
    invalid: 'نزّل الملف النموذجي وانسخ بياناتك فيه.',
    gradesFile: 'هل هذا ملف درجات؟',
    gradesLink: 'ارفعه في تحليل الدرجات',
    pdf: 'تصدير PDF',
    excel: 'تصدير Excel',
    list: 'كل تحليلاتي',
    remove: 'حذف',
    empty: 'لا توجد لديك تحليلات محفوظة بعد.',
    loginRequired: 'Login is required',
  },
  en: {
    sample: 'Download the sample file',
    submit: 'Analyse the file',
    attendance: 'Overall attendance',
    search: 'Search',
    searchLabel: 'Student’s full name',
    tooShort: 'Search term must be a full name (at least three words)',
    notFound: 'Name not found. Please try again.',
    invalid: 'Invalid file format. Please download the sample file and modify it.',
    gradesFile: 'Is this a grades file?',
    gradesLink: 'Upload it in the grades analysis',
    pdf: 'Export PDF',
    excel: 'Export Excel',
    list: 'All my analyses',
    remove: 'Delete',
    empty: 'You have no saved analyses yet.',
    loginRequired: 'Login is required',
  },
} as const

const download = (page: Page, action: () => Promise<void>, name: string) => downloadFrom(page, test.info(), action, name)

for (const lang of ['ar', 'en'] as const) {
  const w = words[lang]
  test(`${lang}: sample, upload, figures and charts, student search, PDF and Excel exports, the list, delete`, async ({ page }) => {
    test.setTimeout(150_000)
    await subscribedTeacher(page, lang, `absence-${lang}`)
    await page.goto(`/${lang}/analysis`)
    await expect(page.locator('html')).toHaveAttribute('dir', lang === 'ar' ? 'rtl' : 'ltr')
    // Behind sign-in, so no robots tag: a crawler only ever sees the redirect (docs/decisions/009).
    await expect(page.locator('meta[name="robots"]')).toHaveCount(0)

    // The sample file: a real workbook in the page's language, whose first student we will look for.
    const samplePath = await download(page, () => page.getByRole('link', { name: w.sample }).click(), 'sample.xlsx')
    const sample = XLSX.read(readFileSync(samplePath))
    const rows = XLSX.utils.sheet_to_json<unknown[]>(sample.Sheets[sample.SheetNames[0] ?? ''] ?? {}, { header: 1 })
    const headerIndex = rows.findIndex((r) => r.includes(lang === 'ar' ? 'اسم الطالب' : 'Student name'))
    expect(headerIndex).toBeGreaterThanOrEqual(0)
    const nameColumn = rows[headerIndex]?.indexOf(lang === 'ar' ? 'اسم الطالب' : 'Student name') ?? 0
    const student = String(rows[headerIndex + 1]?.[nameColumn] ?? '')
    expect(student.split(' ').length).toBeGreaterThanOrEqual(3)

    // A wrong file first: the product's message, and the page stays usable.
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'report.xlsx', mimeType: 'text/csv', buffer: Buffer.from('a,b,c\n1,2,3\n') })
    await page.getByRole('button', { name: w.submit }).click()
    await expect(page.getByRole('alert').filter({ hasText: w.invalid })).toBeVisible()
    // A grades file: the refusal says so and links to the grades analysis.
    await page.locator('input[type="file"]').setInputFiles('app/features/grades/fixtures/english-two-subjects.xlsx')
    await page.getByRole('button', { name: w.submit }).click()
    const otherTool = page.getByRole('alert').filter({ hasText: w.gradesFile })
    await expect(otherTool.getByRole('link', { name: w.gradesLink })).toHaveAttribute('href', `/${lang}/analysis-grade`)

    await page.locator('input[type="file"]').setInputFiles(samplePath)
    await page.getByRole('button', { name: w.submit }).click()
    await expect(page).toHaveURL(new RegExp(`/${lang}/single-analysis\\?id=`))
    await expect(page.locator('.key-figure').filter({ hasText: w.attendance }).locator('dd')).toHaveText(/\d+(\.\d)?\s?[%٪]/)
    await expect(page.locator('figure.chart')).toHaveCount(7)
    await expect(page.locator('.stacked-track[role="img"]').first()).toHaveAttribute('aria-label', /\S/)
    if (process.env.SHOTS) await page.screenshot({ path: `/tmp/absence-report-${lang}.png`, fullPage: true })

    // No serious or critical accessibility problem on the upload, report and list pages, in both colour modes.
    const found: string[] = []
    const reportUrl = page.url()
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      for (const url of [`/${lang}/analysis`, reportUrl, `/${lang}/last-multiple`]) {
        await page.goto(url)
        const results = await new AxeBuilder({ page })
          .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
          .analyze()
        for (const v of results.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical'))
          found.push(`${scheme} ${url} ${v.id}: ${v.nodes[0]?.target.join(' ')}`)
      }
    }
    expect(found).toEqual([])
    await page.emulateMedia({ colorScheme: 'light' })
    await page.goto(reportUrl)

    // Search: two words, a stranger, then the student's first three names.
    const search = async (q: string) => {
      await page.getByLabel(w.searchLabel).fill(q)
      await page.getByRole('button', { name: w.search, exact: true }).click()
    }
    await search(student.split(' ').slice(0, 2).join(' '))
    await expect(page.getByText(w.tooShort).first()).toBeVisible()
    await search(lang === 'ar' ? 'زيد عمرو بكر' : 'Zaid Amr Bakr')
    await expect(page.getByText(w.notFound).first()).toBeVisible()
    await search(student.split(' ').slice(0, 3).join(' '))
    await expect(page.locator('.student-card h3').first()).toHaveText(student)

    // Both exports, opened and read.
    const pdfPath = await download(page, () => page.getByRole('link', { name: w.pdf }).click(), 'report.pdf')
    const text = execFileSync('pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' })
    expect(text).toContain(lang === 'ar' ? 'نسبة الحضور العامة' : 'Overall attendance')
    const xlsxPath = await download(page, () => page.getByRole('link', { name: w.excel }).click(), 'report.xlsx')
    const book = XLSX.read(readFileSync(xlsxPath))
    expect(book.SheetNames.length).toBeGreaterThanOrEqual(8)
    if (lang === 'ar') expect(book.Workbook?.Views?.[0]?.RTL ?? book.SheetNames.some((n) => /[\u0600-\u06ff]/.test(n))).toBeTruthy()

    // The list, then delete with its confirmation.
    await page.getByRole('link', { name: w.list }).click()
    await expect(page).toHaveURL(new RegExp(`/${lang}/last-multiple`))
    const row = page.locator('.analyses-table tbody tr')
    await expect(row).toHaveCount(1)
    await row.locator('summary', { hasText: w.remove }).click()
    await row.getByRole('button', { name: w.remove }).click()
    await expect(page.getByText(w.empty)).toBeVisible()
  })
}

test('a guest is sent to login; a teacher without a subscription is sent to the packages', async ({ page }) => {
  await page.goto('/en/analysis')
  await expect(page).toHaveURL(/\/en\/login/)
  await signedInTeacher(page, 'en', 'absence-nosub')
  await page.goto('/en/analysis')
  await expect(page).toHaveURL(/\/en\/packages/)
  await expect(page.getByText('You are not subscribed to a package, please subscribe first')).toBeVisible()
})
