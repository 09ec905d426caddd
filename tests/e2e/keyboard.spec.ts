import type { Locator } from '@playwright/test'
import { expect, test, type Page } from './fixtures.ts'
import { latestCodeFor } from './mail.ts'
import { subscribedTeacher, TEACHER_PASSWORD } from './teacher.ts'

// Keyboard only, in Arabic: registration, an upload and building a test, reached with Tab and
// done with the keys a keyboard user presses; every focused control shows its focus, and the
// focus moves through the page in the reading order of a right-to-left page.

type Focused = { tag: string; name: string | null; type: string | null; text: string; x: number; visible: boolean }

/** What has the focus now, where it is, and whether its focus indicator can be seen. */
async function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    if (!el || el === document.body) return { tag: 'body', name: null, type: null, text: '', x: 0, visible: false }
    const style = getComputedStyle(el)
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0
    const shadow = style.boxShadow !== 'none' && style.boxShadow !== ''
    // A visually hidden control (the file input) shows its focus on the label drawn for it.
    const label = el.id ? document.querySelector<HTMLElement>(`label[for="${el.id}"].file-chooser-button`) : null
    const labelOutline = label ? getComputedStyle(label).outlineStyle !== 'none' : false
    // A date field takes the focus on its day, month or year, which the browser highlights.
    const dateSegment = el.tagName === 'INPUT' && (el as HTMLInputElement).type === 'date'
    const rect = el.getBoundingClientRect()
    return {
      tag: el.tagName.toLowerCase(),
      name: el.getAttribute('name'),
      type: el.getAttribute('type'),
      text: (el.textContent ?? '').trim().slice(0, 60),
      x: rect.left + rect.width / 2,
      visible: outline || shadow || labelOutline || dateSegment,
    }
  })
}

/** Presses Tab until `target` has the focus, checking that every stop shows its focus. */
async function tabTo(page: Page, target: Locator, maxPresses = 60): Promise<Focused[]> {
  const stops: Focused[] = []
  // After a navigation the page must be there before the keys are pressed.
  await expect(target).toBeVisible()
  for (let i = 0; i < maxPresses; i++) {
    await page.keyboard.press('Tab')
    const now = await focused(page)
    // The document itself (between the last control and the address bar) is not a control.
    if (now.tag === 'body') continue
    stops.push(now)
    expect({ stop: now.text || now.name || `${now.tag}[type=${now.type}]`, visible: now.visible }).toEqual({
      stop: now.text || now.name || `${now.tag}[type=${now.type}]`,
      visible: true,
    })
    if (await target.evaluate((el) => el === document.activeElement)) return stops
  }
  throw new Error(`Tab never reached ${target.toString()}`)
}

test(
  'Arabic registration with the keyboard only, the focus visible at every stop and moving right to left',
  { tag: '@once' },
  async ({ page }) => {
    await page.goto('/ar')
    // The header first: its links come in the order an Arabic reader meets them, right to left.
    const header = await tabTo(page, page.locator('header nav.main-nav a').last())
    const navStops = header.filter((s) => s.tag === 'a' && s.x > 0).map((s) => s.x)
    expect(navStops.length).toBeGreaterThan(3)
    expect(navStops.slice(1)).toEqual(navStops.slice(1).toSorted((a, b) => b - a))
    await page.goto('/ar/SignIn')

    const email = `keyboard-${Date.now()}@school.example`
    await tabTo(page, page.locator('input[name="username"]'))
    await page.keyboard.type(`keyboard ${Math.random().toString(36).slice(2, 7)}`)
    for (const [name, value] of [
      ['email', email],
      ['phone', '0551234567'],
      ['password', TEACHER_PASSWORD],
      ['password_confirmation', TEACHER_PASSWORD],
    ] as const) {
      await tabTo(page, page.locator(`input[name="${name}"]`), 4)
      await page.keyboard.type(value)
    }
    await tabTo(page, page.locator('input[name="terms"]'), 6)
    await page.keyboard.press('Space')
    await tabTo(page, page.locator('form button[type="submit"]'), 6)
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/verify-otp/)

    await tabTo(page, page.locator('input[name="code"]'))
    await page.keyboard.type(await latestCodeFor(email))
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/ar\/full-name/)

    await tabTo(page, page.locator('input[name="full_name_ar"]'))
    await page.keyboard.type('نورة العتيبي')
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/ar$/)
  },
)

test('an upload and a test built with the keyboard only, in Arabic', { tag: '@once' }, async ({ page }) => {
  test.setTimeout(90_000)
  await subscribedTeacher(page, 'ar', 'keyboard-tools')

  // The absence upload: Tab to the file control (the file itself comes from the system's
  // dialog, which Playwright fills in), then to the button, Enter.
  await page.goto('/ar/analysis')
  const fileInput = page.locator('input[type="file"]')
  await tabTo(page, fileInput)
  await fileInput.setInputFiles('app/features/absence/fixtures/small-ar.xlsx')
  await tabTo(page, page.getByRole('button', { name: 'حلّل الملف' }), 6)
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/single-analysis\?id=/)

  // A test with one true/false question: typed, chosen and saved from the keyboard.
  await page.goto('/ar/exams-test')
  await tabTo(page, page.getByLabel('عنوان الاختبار'))
  await page.keyboard.type('اختبار بلوحة المفاتيح')
  await tabTo(page, page.getByRole('button', { name: 'إضافة: صح أو خطأ' }), 80)
  await page.keyboard.press('Enter')
  // The new question's first field takes the focus.
  const card = page.locator('.question-card').first()
  await expect(card.getByLabel('العبارة')).toBeFocused()
  await page.keyboard.type('الشمس نجم.')
  await tabTo(page, card.getByLabel('صح', { exact: true }), 20)
  await page.keyboard.press('Space')
  await expect(card.getByLabel('صح', { exact: true })).toBeChecked()
  await tabTo(page, page.getByRole('button', { name: 'حفظ', exact: true }), 40)
  await page.keyboard.press('Enter')
  await expect(page.getByText('حُفظ الاختبار').first()).toBeVisible()
  await expect(page).toHaveURL(/exams-test\?id=/)
})

test.afterEach(async ({ page }, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) await page.screenshot({ path: testInfo.outputPath('failed.png'), fullPage: true })
})
