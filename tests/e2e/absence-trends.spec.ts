import { expect, test, type Page } from './fixtures.ts'
import { axe } from './helpers.ts'
import { subscribedTeacher } from './teacher.ts'
import { G, october, reem, sara, september } from './trend-files.ts'

// Trends across uploads and parent messages as a teacher meets them (issue 18), in both
// languages: two daily files of one school a month apart (a week of September, a week of
// October), the trend view, the comparison, a parent message copied and opened in WhatsApp.
// Worked out by hand: September: Sara misses Sunday and Monday unexcused (classroom 1: 8 of 10
// records present, 80%; classroom 2: Hind, 100%); October: Sara misses Sunday to Tuesday
// unexcused (alone in classroom 1: 2 of 5, 40%), Reem, moved to classroom 2, one excused day
// (classroom 2: 9 of 10, 90%). So classroom 1 falls 40 points, Sara's and Reem's absence rise by
// a day each (Sara's unexcused), and Sara reaches the first warning (3 unexcused days).

const words = {
  ar: {
    submit: 'حلّل الملف',
    searchLabel: 'الاسم الكامل للطالب',
    search: 'بحث',
    toCompare: 'مقارنة تحليلين',
    trends: 'اتجاهات الغياب',
    firstWarning: 'إنذار أول',
    copy: 'نسخ',
    copied: 'نُسخ النص.',
    whatsapp: 'فتح في واتساب (إلى رقم ولي الأمر)',
    byStep: 'رسائل أولياء الأمور حسب الخطوة',
    oneAtStep: 'طالب واحد في هذه الخطوة.',
    fall: /−40 نقطة/,
  },
  en: {
    submit: 'Analyse the file',
    searchLabel: 'Student’s full name',
    search: 'Search',
    toCompare: 'Compare two analyses',
    trends: 'Absence trends',
    firstWarning: 'First warning',
    copy: 'Copy',
    copied: 'Text copied.',
    whatsapp: 'Open in WhatsApp (to the guardian’s number)',
    byStep: 'Parent messages by step',
    oneAtStep: 'One student at this step.',
    fall: /−40 points/,
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

/** With SHOTS=<folder>: the page at 1280 and 390 px in both colour modes, for a person to look at. */
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

async function upload(page: Page, lang: 'ar' | 'en', name: string, csv: string): Promise<string> {
  await page.goto(`/${lang}/analysis`)
  await page.locator('input[type="file"]').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') })
  await page.getByRole('button', { name: words[lang].submit }).click()
  await expect(page).toHaveURL(new RegExp(`/${lang}/single-analysis\\?id=`))
  return new URL(page.url()).searchParams.get('id') ?? ''
}

for (const lang of ['ar', 'en'] as const) {
  const w = words[lang]
  test(`${lang}: two uploads a month apart, the trend, the comparison, a parent message copied`, async ({ page, context }) => {
    test.setTimeout(180_000)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await subscribedTeacher(page, lang, `trends-${lang}`)
    // October first: the timeline follows the files' dates, not the order of upload.
    const octoberId = await upload(page, lang, 'october.csv', october)
    const septemberId = await upload(page, lang, 'september.csv', september)

    // The trend: the school's two uploads, classroom 1 from 80% to 40%, classroom 2 from 100% to 90%.
    await page.goto(`/${lang}/last-multiple`)
    await page.getByRole('link', { name: w.trends }).click()
    await expect(page).toHaveURL(new RegExp(`/${lang}/absence-trends`))
    const classroomRows = page.locator('section[aria-labelledby="classrooms-title"] tbody tr')
    await expect(classroomRows).toHaveCount(2)
    await expect(classroomRows.nth(0).locator('td').nth(0)).toContainText(/80/)
    await expect(classroomRows.nth(0).locator('td').nth(1)).toContainText(/40/)
    await expect(classroomRows.nth(1).locator('td').nth(0)).toContainText(/100/)
    await expect(classroomRows.nth(1).locator('td').nth(1)).toContainText(/90/)
    // One drawing shows at a time: the full one here (1280 px), the compact one on a phone.
    await expect(page.locator('figure[aria-labelledby="chart-school-title"] svg:visible circle')).toHaveCount(4)
    // Reem along the uploads: classroom 1, then 2 (the same student by her ID).
    await page.getByLabel(w.searchLabel).fill(reem)
    await page.getByRole('button', { name: w.search, exact: true }).click()
    const reemRows = page.locator('.student-card tbody tr')
    await expect(reemRows).toHaveCount(2)
    await expect(reemRows.nth(0)).toContainText(`${G} / 1`)
    await expect(reemRows.nth(1)).toContainText(`${G} / 2`)
    expect(await axeBothModes(page)).toEqual([])
    await shots(page, `trends-${lang}`)

    // The comparison, September to October.
    await page.getByRole('link', { name: w.toCompare }).click()
    await expect(page).toHaveURL(new RegExp(`a=${septemberId}&b=${octoberId}`))
    const change = page.locator('section[aria-labelledby="compare-classrooms-title"] tbody tr')
    await expect(change.nth(0)).toContainText(w.fall)
    const rose = page.locator('section[aria-labelledby="compare-rose-title"] tbody tr')
    await expect(rose).toHaveCount(2)
    await expect(rose.nth(0)).toContainText(sara)
    await expect(rose.nth(1)).toContainText(reem)
    const stepped = page.locator('section[aria-labelledby="compare-steps-title"] tbody tr')
    await expect(stepped).toHaveCount(1)
    await expect(stepped.nth(0)).toContainText(sara)
    await expect(stepped.nth(0)).toContainText(w.firstWarning)
    expect(await axeBothModes(page)).toEqual([])
    await shots(page, `compare-${lang}`)

    // A parent message for Sara, from October's report: filled, copied, and WhatsApp's link to her guardian.
    await page.goto(`/${lang}/single-analysis?id=${octoberId}`)
    await page.getByLabel(w.searchLabel).fill(sara)
    await page.getByRole('button', { name: w.search, exact: true }).click()
    const message = page.locator('.student-card .parent-message[data-kind="firstWarning"]')
    const text = message.locator('textarea')
    if (lang === 'en')
      await expect(text).toHaveValue(
        `Dear guardian of ${sara} (${G} / 1), we would like to let you know that ${sara} has 3 days of unexcused absence (5 Oct 2025, 6 Oct 2025, 7 Oct 2025). This is a first warning. Please encourage regular attendance; the school will follow up. متوسطة النور`,
      )
    else {
      // A boys' school until her school details say otherwise: the default speaks of a son.
      await expect(text).toHaveValue(new RegExp(`^ولي أمر الطالب ${sara} \\(${G} / 1\\) المحترم،`))
      await expect(text).toHaveValue(/بلغت 3 \(.*ربيع الآخر.*\)، وهذا إنذار أول\..* متوسطة النور$/)
    }
    const value = await text.inputValue()
    await expect(message.getByRole('link', { name: w.whatsapp })).toHaveAttribute(
      'href',
      `https://wa.me/966551234567?text=${encodeURIComponent(value)}`,
    )
    await message.getByRole('button', { name: new RegExp(`^${w.copy}`) }).click()
    await expect(message.getByRole('status')).toHaveText(w.copied)
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value)
    // The same-day message too: Tuesday 7 October, her latest day missed.
    await expect(page.locator('.student-card .parent-message[data-kind="sameDay"] textarea')).toHaveValue(/متوسطة النور$/)
    expect(await axeBothModes(page)).toEqual([])
    await shots(page, `report-message-${lang}`)

    // The messages of the first step, for the whole analysis.
    await page.getByRole('link', { name: w.byStep }).click()
    await expect(page.getByText(w.oneAtStep)).toBeVisible()
    await expect(page.locator('.student-card h2')).toHaveText([sara])
    expect(await axeBothModes(page)).toEqual([])
    await shots(page, `step-messages-${lang}`)

    // The templates page.
    await page.goto(`/${lang}/message-templates`)
    // The Arabic texts name their placeholders in Arabic, the English ones in English.
    await expect(page.locator('textarea[name="ar_first_warning"]')).toHaveValue(/^ولي أمر الطالب \{اسم الطالب\} \(\{الصف والفصل\}\)/)
    await expect(page.locator('textarea[name="en_first_warning"]')).toHaveValue(/^Dear guardian of \{student\} \(\{classroom\}\)/)
    expect(await axeBothModes(page)).toEqual([])
    await shots(page, `message-templates-${lang}`)
  })
}
