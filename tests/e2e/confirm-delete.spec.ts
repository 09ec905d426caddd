import { expect, test, type Page } from './fixtures.ts'
import { subscribedTeacher } from './teacher.ts'

// Deleting an analysis asks first, the product's one way: a centred dialog with the confirming
// button and Cancel, reachable on a phone; before the page's script runs (or without it), a
// panel of the same shape does the same.

const phone = { width: 390, height: 844 }
const words = {
  ar: { submit: 'حلّل الملف', remove: 'حذف', cancel: 'إلغاء', empty: 'لا توجد لديك تحليلات محفوظة بعد.' },
  en: { submit: 'Analyse the file', remove: 'Delete', cancel: 'Cancel', empty: 'You have no saved analyses yet.' },
} as const

/** A saved absence analysis, from the tool's own sample file. */
async function savedAnalysis(page: Page, lang: 'ar' | 'en') {
  const sample = await page.request.get(`/${lang}/analysis/sample.xlsx`)
  expect(sample.ok()).toBe(true)
  await page.goto(`/${lang}/analysis`)
  await page.locator('input[type="file"]').setInputFiles({
    name: 'absence.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await sample.body(),
  })
  await page.getByRole('button', { name: words[lang].submit }).click()
  await expect(page).toHaveURL(new RegExp(`/${lang}/single-analysis\\?id=`))
}

/** Whether the element is wholly inside the window. */
async function isInView(page: Page, selector: ReturnType<Page['locator']>) {
  const box = await selector.boundingBox()
  const view = page.viewportSize()
  if (!box || !view) return false
  return box.x >= 0 && box.y >= 0 && box.x + box.width <= view.width && box.y + box.height <= view.height
}

for (const lang of ['ar', 'en'] as const) {
  const w = words[lang]
  test(
    `${lang}: on a phone, deleting an analysis asks in a centred dialog with Cancel, with and without the page's script`,
    { tag: '@once' },
    async ({ page, browser }) => {
      test.setTimeout(90_000)
      await page.setViewportSize(phone)
      await subscribedTeacher(page, lang, `confirm-${lang}`)
      await savedAnalysis(page, lang)
      await page.goto(`/${lang}/last-multiple`)
      await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true')
      const row = page.locator('.analyses-table tbody tr')
      await expect(row).toHaveCount(1)

      // With the script: the dialog, its two buttons on screen; Cancel keeps the analysis.
      await row.locator('summary', { hasText: w.remove }).click()
      const dialog = page.getByRole('dialog')
      await expect(dialog).toBeVisible()
      for (const name of [w.remove, w.cancel])
        expect({ name, inView: await isInView(page, dialog.getByRole('button', { name })) }).toEqual({ name, inView: true })
      await dialog.getByRole('button', { name: w.cancel }).click()
      await expect(dialog).toBeHidden()
      await expect(row).toHaveCount(1)

      // Without it: the panel, centred the same way, with Delete and Cancel on screen.
      const noScript = await browser.newContext({
        javaScriptEnabled: false,
        viewport: phone,
        storageState: await page.context().storageState(),
        baseURL: new URL(page.url()).origin,
      })
      const plain = await noScript.newPage()
      await plain.goto(`/${lang}/last-multiple`)
      await plain.locator('.analyses-table tbody tr summary', { hasText: w.remove }).click()
      const panel = plain.locator('.confirm-delete[open] .confirm-panel')
      await expect(panel).toBeVisible()
      expect(await isInView(plain, panel.getByRole('button', { name: w.remove }))).toBe(true)
      expect(await isInView(plain, panel.getByRole('link', { name: w.cancel }))).toBe(true)
      await panel.getByRole('link', { name: w.cancel }).click()
      await expect(plain.locator('.confirm-delete[open]')).toHaveCount(0)
      await expect(plain.locator('.analyses-table tbody tr')).toHaveCount(1)
      await noScript.close()

      // Confirmed in the dialog: gone.
      await row.locator('summary', { hasText: w.remove }).click()
      await dialog.getByRole('button', { name: w.remove }).click()
      await expect(page.getByText(w.empty)).toBeVisible()
    },
  )
}
