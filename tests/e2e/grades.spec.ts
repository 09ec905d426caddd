import AxeBuilder from '@axe-core/playwright'
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import * as XLSX from '@e965/xlsx'
import { expect, test, type Page } from './fixtures.ts'
import { downloadFrom } from './helpers.ts'
import { subscribedTeacher } from './teacher.ts'

// The grades tool as a teacher uses it, in both languages: the sample, the upload, the figures,
// other band thresholds and the elementary preset, both exports opened and read, the list.

const words = {
  ar: {
    sample: 'تنزيل الملف النموذجي',
    submit: 'حلّل الملف',
    passRate: 'نسبة النجاح',
    apply: 'تطبيق',
    elementary: 'مستويات المرحلة الابتدائية',
    excel: 'تصدير Excel',
    pdf: 'تصدير PDF',
    list: 'كل تحليلاتي',
    kind: 'الدرجات',
  },
  en: {
    sample: 'Download the sample file',
    submit: 'Analyse the file',
    passRate: 'Pass rate',
    apply: 'Apply',
    elementary: 'Elementary bands',
    excel: 'Export Excel',
    pdf: 'Export PDF',
    list: 'All my analyses',
    kind: 'Grades',
  },
} as const

const download = (page: Page, action: () => Promise<void>, name: string) => downloadFrom(page, test.info(), action, name)

for (const lang of ['ar', 'en'] as const) {
  const w = words[lang]
  test(`${lang}: sample, upload, figures, other bands, the elementary preset, both exports, the list`, async ({ page }) => {
    test.setTimeout(150_000)
    await subscribedTeacher(page, lang, `grades-${lang}`)
    await page.goto(`/${lang}/analysis-grade`)
    const samplePath = await download(page, () => page.getByRole('link', { name: w.sample }).click(), 'grades-sample.xlsx')
    const sample = XLSX.read(readFileSync(samplePath))
    expect(sample.SheetNames.length).toBeGreaterThanOrEqual(2)

    await page.locator('input[type="file"]').setInputFiles(samplePath)
    await page.getByRole('button', { name: w.submit }).click()
    await expect(page).toHaveURL(new RegExp(`/${lang}/single-analysis\\?id=`))
    const passRate = page.locator('.key-figure').filter({ hasText: w.passRate }).first().locator('dd')
    await expect(passRate).toHaveText(/\d+(\.\d)?\s?[%٪]/)
    await expect(page.locator('figure.chart').first()).toBeVisible()
    if (process.env.SHOTS) await page.screenshot({ path: `/tmp/grades-report-${lang}.png`, fullPage: true })

    // Stricter thresholds: every band's minimum up by five; the excellent band can only shrink.
    const firstBand = page.locator('.bands-mins input').first()
    const before = await page.locator('.key-figures').first().textContent()
    await firstBand.fill('99')
    await page.getByRole('button', { name: w.apply }).click()
    await expect(page).toHaveURL(/min=99/)
    await expect(page.locator('.bands-mins input').first()).toHaveValue('99')
    // The elementary preset: four bands, three thresholds to set.
    await page.getByLabel(w.elementary).check()
    await page.getByRole('button', { name: w.apply }).click()
    await expect(page).toHaveURL(/preset=elementary/)
    await expect(page.locator('.bands-mins input')).toHaveCount(3)
    expect(await page.locator('.key-figures').first().textContent()).toBe(before)

    const found: string[] = []
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      const results = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
        .analyze()
      for (const v of results.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical'))
        found.push(`${scheme} ${v.id}: ${v.nodes[0]?.target.join(' ')}`)
    }
    expect(found).toEqual([])
    await page.emulateMedia({ colorScheme: 'light' })

    const pdfPath = await download(page, () => page.getByRole('link', { name: w.pdf }).click(), 'grades.pdf')
    const text = execFileSync('pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' })
    expect(text).toContain(lang === 'ar' ? 'نسبة النجاح' : 'Pass rate')
    const xlsxPath = await download(page, () => page.getByRole('link', { name: w.excel }).click(), 'grades.xlsx')
    expect(XLSX.read(readFileSync(xlsxPath)).SheetNames.length).toBeGreaterThanOrEqual(3)

    await page.getByRole('link', { name: w.list }).click()
    await expect(page.locator('.analyses-table tbody tr').first()).toContainText(w.kind)
  })
}
