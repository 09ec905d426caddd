// Issue 16, defect 6 (decision 016): a click or a keystroke in the test builder before its script
// has taken over is never lost. The builder's script is held back, as on a slow phone, while the
// teacher clicks and types; then it is let go.
import { readFileSync } from 'node:fs'
import { expect, test, type Page } from './fixtures.ts'
import { subscribedTeacher } from './teacher.ts'

type Messages = {
  editor: Record<string, string> & { types: Record<string, string>; fields: Record<string, string>; question: Record<string, string> }
}
const messages = (lang: 'ar' | 'en') => JSON.parse(readFileSync(`app/features/exams/locales/${lang}/exams.json`, 'utf8')) as Messages

const MODULES = /\/assets\/[^/]+\.js$/

/** Holds the page's script modules until the returned function is called. */
async function holdModules(page: Page): Promise<() => Promise<void>> {
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route(MODULES, async (route) => {
    await held
    await route.continue()
  })
  return async () => {
    release()
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true', { timeout: 15_000 })
    await page.unroute(MODULES)
  }
}

/** A click where the teacher's finger lands, with none of Playwright's waiting for the control. */
async function tap(page: Page, locator: ReturnType<Page['locator']>) {
  await locator.evaluate((element) => element.scrollIntoView({ block: 'center' }))
  const box = await locator.boundingBox()
  if (!box) throw new Error('not on screen')
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
}

test.describe(() => {
  // The service worker would answer the held modules from its cache, past the page's routes.
  test.use({ serviceWorkers: 'block' })

  test('ar: "add a question" is shown as not ready until it works, then works; a title typed before is kept', async ({ page }) => {
    test.setTimeout(90_000)
    const w = messages('ar').editor
    await subscribedTeacher(page, 'ar', 'ready')
    await page.setViewportSize({ width: 390, height: 844 })
    // The builder loads its modules at once (decision 016), guarded against a form sent twice;
    // a page to read, such as the analysis, still paints first.
    const builderHtml = await (await page.request.get('/ar/exams-test')).text()
    expect(builderHtml.slice(0, builderHtml.indexOf('<body'))).toMatch(/<link rel="modulepreload" href="\/assets\/entry\.client-/)
    expect(builderHtml.slice(0, builderHtml.indexOf('<body'))).toMatch(/addEventListener\("submit"/)
    expect(builderHtml).not.toContain('id="app-modules"')
    expect(await (await page.request.get('/ar/analysis')).text()).toContain('id="app-modules"')
    const release = await holdModules(page)
    await page.goto('/ar/exams-test', { waitUntil: 'domcontentloaded' })
    const add = page.getByRole('button', { name: w.addType!.replace('{type}', w.types.true_false!) })
    const save = page.getByRole('button', { name: w.save, exact: true })

    // Painted, not yet running: the buttons say so (disabled, waiting cursor, a line of text).
    await expect(add).toBeVisible()
    await expect(add).toBeDisabled()
    await expect(save).toBeDisabled()
    await expect(page.getByRole('status').filter({ hasText: w.gettingReady! })).toBeVisible()
    expect(await add.evaluate((button) => getComputedStyle(button).cursor)).toBe('progress')

    // The teacher clicks anyway and types the title; Enter in it does not send the page away.
    await tap(page, add)
    await page.evaluate(() => Object.assign(window, { samePage: true }))
    await page.getByLabel(w.fields.title!).fill('اختبار العلوم الأول')
    await page.getByLabel(w.fields.title!).press('Enter')
    await expect(page.locator('.question-card')).toHaveCount(0)
    expect(await page.locator('html').getAttribute('data-hydrated')).toBeNull()
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true)
    expect(page.url()).toMatch(/\/ar\/exams-test$/)

    await release()
    // Ready: the line is gone, the button works, and nothing typed was lost.
    await expect(page.getByText(w.gettingReady!)).toHaveCount(0)
    await expect(add).toBeEnabled()
    await expect(page.locator('.question-card')).toHaveCount(0)
    await tap(page, add)
    await expect(page.locator('.question-card')).toHaveCount(1)
    await expect(page.locator('.question-card').getByLabel(w.question.statement!)).toBeFocused()
    await expect(page.getByLabel(w.fields.title!)).toHaveValue('اختبار العلوم الأول')
  })

  test('en: a saved test edited before the script runs keeps the text added to a question and the answer ticked; its print page shows the answer key chosen before', async ({
    page,
  }) => {
    test.setTimeout(90_000)
    const w = messages('en').editor
    await subscribedTeacher(page, 'en', 'ready-edit')
    await page.goto('/en/exams-test')
    await page.getByLabel(w.fields.title!).fill('Early edits')
    await page.getByRole('button', { name: 'Add: True or false' }).click()
    const card = page.locator('.question-card').first()
    await card.getByLabel('Statement').fill('Water boils at 100 °C.')
    await card.getByLabel('True', { exact: true }).check()
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page).toHaveURL(/exams-test\?id=/)
    const url = page.url()

    const release = await holdModules(page)
    await page.goto(url, { waitUntil: 'domcontentloaded' })
    for (const name of ['Delete', 'Duplicate', 'Reorder question 1']) await expect(card.getByRole('button', { name })).toBeDisabled()
    // The statement already has text from the server: React puts such a textarea back to it
    // while hydrating, so this is the case that needs the note taken before.
    await card.getByLabel('Statement').press('End')
    await card.getByLabel('Statement').pressSequentially(' At sea level.')
    await card.getByLabel('False', { exact: true }).check()
    await release()

    // A render from a change elsewhere keeps them, in the fields and in what is saved.
    await page.getByLabel(w.fields.subject!).fill('Science')
    await expect(card.getByLabel('Statement')).toHaveValue('Water boils at 100 °C. At sea level.')
    await expect(card.getByLabel('False', { exact: true })).toBeChecked()
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page.getByText('Data saved successfully').first()).toBeVisible()
    await page.reload()
    await expect(card.getByLabel('Statement')).toHaveValue('Water boils at 100 °C. At sea level.')
    await expect(card.getByLabel('False', { exact: true })).toBeChecked()

    // The print page: Print waits for its script; the answer key chosen before it runs is shown once it does.
    const releasePrint = await holdModules(page)
    await page.goto(url.replace(/exams-test\?id=(.+)$/, 'exams/$1/print'), { waitUntil: 'domcontentloaded' })
    await expect(page.getByRole('button', { name: 'Print', exact: true })).toBeDisabled()
    await page.getByLabel('Answer key').check()
    expect(new URL(page.url()).searchParams.get('show')).toBeNull()
    await releasePrint()
    await expect(page).toHaveURL(/[?&]show=key/)
    await expect(page.getByRole('button', { name: 'Print', exact: true })).toBeEnabled()
  })
})
