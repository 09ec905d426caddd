import { expect, test, type Page } from './fixtures.ts'
import { axe, downloadFrom } from './helpers.ts'
import { subscribedTeacher } from './teacher.ts'

// Absence tiers as a teacher meets them (issue 18), in both languages: she sets her thresholds
// (a wrong order refused before it is sent), uploads the sample, and reads the tiers on the
// report: the counts, the chart and table per classroom, a found student's tier. The counts were
// worked out by hand from the sample (sample-data.ts: ten school days each) for thresholds
// 10 / 20 / 30: first 1 · 1/1: 0%, 10%, 30% → satisfactory, at risk, severe; first 1 · 2: 0%, 20%
// → satisfactory, chronic; second 1 · 1: 10%, 0%, 20% → at risk, satisfactory, chronic.

const words = {
  ar: {
    sample: 'تنزيل الملف النموذجي',
    submit: 'حلّل الملف',
    save: 'حفظ الحدود',
    saved: 'حُفظت حدود فئات الغياب.',
    ascending: 'يجب أن يكون كل حد أكبر من الحد الذي قبله.',
    atRisk: 'معرّض للخطر ابتداءً من (٪)',
    chronic: 'غياب مزمن ابتداءً من (٪)',
    severe: 'غياب حاد ابتداءً من (٪)',
    typed: ['١٠', '٢٠', '٣٠'],
    names: { satisfactory: 'منتظم', atRisk: 'معرّض للخطر', chronic: 'غياب مزمن', severe: 'غياب حاد' },
    lead: /منتظم دون 10[%٪]، معرّض للخطر من 10[%٪]، غياب مزمن من 20[%٪]، غياب حاد من 30[%٪]/,
    worse: '5 طلاب معرّضون للخطر أو في غياب مزمن أو حاد.',
    searchLabel: 'الاسم الكامل للطالب',
    search: 'بحث',
    turki: 'تركي خالد عبدالعزيز',
    ahmed: 'أحمد إبراهيم علي',
    tier: 'فئة الغياب',
    change: 'تعديل حدود الفئات',
    pdf: 'تصدير PDF',
  },
  en: {
    sample: 'Download the sample file',
    submit: 'Analyse the file',
    save: 'Save the thresholds',
    saved: 'The absence tier thresholds are saved.',
    ascending: 'Each threshold must be above the one before it.',
    atRisk: 'At risk from (%)',
    chronic: 'Chronic from (%)',
    severe: 'Severe from (%)',
    typed: ['10', '20', '30'],
    names: { satisfactory: 'Satisfactory', atRisk: 'At risk', chronic: 'Chronic', severe: 'Severe' },
    lead: /satisfactory below 10%, at risk from 10%, chronic from 20%, severe from 30%/,
    worse: '5 students are at risk, chronic or severe.',
    searchLabel: 'Student’s full name',
    search: 'Search',
    turki: 'Turki Khalid Abdulaziz',
    ahmed: 'Ahmed Ibrahim Ali',
    tier: 'Absence tier',
    change: 'Change the tier thresholds',
    pdf: 'Export PDF',
  },
} as const

/** Axe's serious and critical findings on the page as it is, in both colour modes. */
async function axeBothModes(page: Page): Promise<string[]> {
  const found: string[] = []
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    const results = await axe(page).analyze()
    for (const v of results.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical'))
      found.push(`${scheme} ${page.url()} ${v.id}: ${v.nodes[0]?.target.join(' ')}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
  return found
}

/** With SHOTS=1: the page at 1280 and 390 px in both colour modes, for a person to look at. */
async function shots(page: Page, name: string) {
  if (!process.env.SHOTS) return
  for (const scheme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      await page.emulateMedia({ colorScheme: scheme })
      await page.setViewportSize({ width, height: 900 })
      await page.screenshot({ path: `${process.env.SHOTS}/${name}-${scheme}-${width}.png`, fullPage: true })
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 1280, height: 900 })
}

for (const lang of ['ar', 'en'] as const) {
  const w = words[lang]
  test(`${lang}: set the tier thresholds, upload the sample, read the tiers per classroom and per student`, async ({ page }) => {
    test.setTimeout(150_000)
    await subscribedTeacher(page, lang, `tiers-${lang}`)

    // The settings: the defaults first; a wrong order is refused in the browser, then saved right.
    await page.goto(`/${lang}/absence-settings`)
    await expect(page.getByLabel(w.atRisk)).toHaveValue('5')
    await expect(page.getByLabel(w.chronic)).toHaveValue('10')
    await expect(page.getByLabel(w.severe)).toHaveValue('20')
    expect(await axeBothModes(page)).toEqual([])
    await page.getByLabel(w.atRisk).fill('20')
    await page.getByLabel(w.chronic).fill('10')
    await page.getByRole('button', { name: w.save }).click()
    await expect(page.getByText(w.ascending).first()).toBeVisible()
    await expect(page.getByLabel(w.chronic)).toHaveAttribute('aria-invalid', 'true')
    await page.getByLabel(w.atRisk).fill(w.typed[0])
    await page.getByLabel(w.chronic).fill(w.typed[1])
    await page.getByLabel(w.severe).fill(w.typed[2])
    await page.getByRole('button', { name: w.save }).click()
    await expect(page.getByText(w.saved)).toBeVisible()
    await page.reload()
    await expect(page.getByLabel(w.atRisk)).toHaveValue('10')
    await expect(page.getByLabel(w.severe)).toHaveValue('30')
    await shots(page, `tiers-settings-${lang}`)

    // The sample, uploaded.
    await page.goto(`/${lang}/analysis`)
    const samplePath = await downloadFrom(page, test.info(), () => page.getByRole('link', { name: w.sample }).click(), 'sample.xlsx')
    await page.locator('input[type="file"]').setInputFiles(samplePath)
    await page.getByRole('button', { name: w.submit }).click()
    await expect(page).toHaveURL(new RegExp(`/${lang}/single-analysis\\?id=`))

    // The tiers with her thresholds: the lead, the four counts, the chart and the table.
    const section = page.locator('section[aria-labelledby="tiers-title"]')
    await expect(section.locator('p.muted').first()).toHaveText(w.lead)
    const count = (name: string) =>
      section
        .locator('.key-figure')
        .filter({ has: page.locator('dt', { hasText: new RegExp(`^${name}$`) }) })
        .locator('dd')
    await expect(count(w.names.satisfactory)).toHaveText('3')
    await expect(count(w.names.atRisk)).toHaveText('2')
    await expect(count(w.names.chronic)).toHaveText('2')
    await expect(count(w.names.severe)).toHaveText('1')
    await expect(section.getByText(w.worse)).toBeVisible()
    await expect(section.locator('figure[aria-labelledby="chart-tiers-title"] .stacked-row')).toHaveCount(3)
    // The table: three classrooms and the whole, each count with its share of the classroom.
    const rows = section.locator('table tbody tr')
    await expect(rows).toHaveCount(4)
    await expect(rows.nth(0)).toContainText(/1\s*\(33\.3\s?[%٪]\)/)
    await expect(rows.nth(3)).toContainText(/8/)
    await expect(rows.nth(3)).toContainText(/1\s*\(12\.5\s?[%٪]\)/)
    await expect(section.getByRole('link', { name: w.change })).toHaveAttribute('href', `/${lang}/absence-settings`)
    expect(await axeBothModes(page)).toEqual([])
    await shots(page, `tiers-report-${lang}`)

    // A found student's tier: Turki missed 3 of 10 days (30%: severe), Ahmed 2 (20%: chronic).
    const find = async (q: string) => {
      await page.getByLabel(w.searchLabel).fill(q)
      await page.getByRole('button', { name: w.search, exact: true }).click()
    }
    const tierOfCard = page
      .locator('.student-card .key-figure')
      .filter({ has: page.locator('dt', { hasText: w.tier }) })
      .locator('dd')
    await find(w.turki)
    await expect(tierOfCard).toHaveText(w.names.severe)
    await find(w.ahmed)
    await expect(tierOfCard).toHaveText(w.names.chronic)
    // The warned students' table names each one's tier too (Turki: first warning, severe).
    await expect(page.locator('section[aria-labelledby="warnings-title"] tbody tr').first()).toContainText(w.names.severe)
    await shots(page, `tiers-search-${lang}`)

    // The PDF, with her thresholds.
    const pdfPath = await downloadFrom(page, test.info(), () => page.getByRole('link', { name: w.pdf }).click(), `report-${lang}.pdf`)
    if (process.env.SHOTS) {
      const { copyFileSync } = await import('node:fs')
      copyFileSync(pdfPath, `${process.env.SHOTS}/tiers-report-${lang}.pdf`)
    }
  })
}
