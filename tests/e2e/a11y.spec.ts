import AxeBuilder from '@axe-core/playwright'
import { expect, test } from './fixtures.ts'
import { axe, langs, pagePath, publicPaths } from './helpers.ts'
import { startOperatorServer, turnOnTwoFactor } from './operator.ts'
import { signedInTeacher, subscribedTeacher } from './teacher.ts'
import { october, reem, sara, september } from './trend-files.ts'

// axe (experimental rules included) on every public page, in both languages and both colour
// modes: no serious or critical violations, and no heading that skips a level (axe calls that
// moderate; Lighthouse counts it). Each page is loaded once and checked light, then dark: the
// colours follow the colour scheme live (CSS light-dark()), and the page's elements are the same
// in both, so in the second mode only the rules that read colours run again. Motion is reduced,
// so content that animates in on scroll is shown at once and no colour is read mid-transition.
test.use({ reducedMotion: 'reduce' })

type Page = import('@playwright/test').Page

/** axe's rules that read colours (contrast, a link told apart from its text by colour only). */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block']

/** axe's findings on the page as it is, in both colour modes; switching needs no reload. */
async function findingsInBothModes(page: Page, label: string, keep: (v: { id: string; impact?: string | null }) => boolean) {
  const found: string[] = []
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' })
    const results = await (scheme === 'light' ? axe(page) : new AxeBuilder({ page }).withRules(COLOUR_RULES)).analyze()
    // The contrast rule ran on this page in this mode (it passed, failed or could not decide).
    expect(
      [...results.passes, ...results.violations, ...results.incomplete].map((r) => r.id),
      `${scheme} ${label}`,
    ).toContain('color-contrast')
    for (const v of results.violations.filter(keep))
      found.push(
        `${scheme} ${label} ${v.id}: ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
      )
  }
  return found
}

const serious = (v: { id: string; impact?: string | null }) => v.impact === 'serious' || v.impact === 'critical'

test.describe('accessibility, light and dark', () => {
  for (const lang of langs) {
    for (const p of [...publicPaths, 'no-such-page', 'SignIn', 'login', 'forget-password', 'rates']) {
      test(`${pagePath(lang, p)}`, { tag: '@once' }, async ({ page }) => {
        await page.goto(pagePath(lang, p))
        expect(await findingsInBothModes(page, pagePath(lang, p), (v) => serious(v) || v.id === 'heading-order')).toEqual([])
      })
    }
  }
})

// The teacher's own pages, signed in and subscribed, in both colour modes.
test('account and billing pages have no serious or critical violations', { tag: '@once' }, async ({ page }) => {
  // Eight pages, each run through axe in both modes with its experimental rules too.
  test.setTimeout(240_000)
  const { verifyPath: verifyPage } = await signedInTeacher(page, 'en', 'axe')
  await page.goto('/en/checkout/1')
  await page.locator('main button[type="submit"]').click()
  await expect(page).toHaveURL(/sandbox-pay/)
  const sandbox = page.url().replace(/^https?:\/\/[^/]+/, '')
  const paths = [
    '/en/profile',
    '/ar/profile',
    '/en/notifications',
    '/ar/notifications',
    '/en/subscriptions',
    '/ar/follow-up',
    '/en/follow-up',
    '/ar/absence-settings',
    '/ar/checkout/2',
    sandbox,
    verifyPage.replace('purpose=activation', 'purpose=change_email'),
  ]
  const found: string[] = []
  for (const path of paths) {
    await page.goto(path)
    found.push(...(await findingsInBothModes(page, path, serious)))
  }
  expect(found).toEqual([])
})

// The operator area (docs/operators.md), on a server of its own: only the command line makes an
// operator. The page asking for two-step verification first, then every page of the area with
// something in it (a pending review, an open message, an entry in the audit log), both languages.
test('the operator area has no serious or critical violations', { tag: '@once' }, async ({ browser }) => {
  test.setTimeout(300_000)
  const port = Number(process.env.E2E_PORT ?? 3100) + 80 + Number(process.env.TEST_WORKER_INDEX ?? 0)
  const server = await startOperatorServer({ port, name: 'operators-axe' })
  const context = await browser.newContext({
    baseURL: server.url,
    reducedMotion: 'reduce',
    extraHTTPHeaders: { 'x-forwarded-for': '10.80.0.1' },
  })
  try {
    const page = await context.newPage()
    const { email } = await signedInTeacher(page, 'en', 'operator-axe', { outbox: server.outbox })
    await server.grantOperator(email)
    const found: string[] = []
    for (const lang of langs) {
      await page.goto(`/${lang}/admin/teachers`)
      await expect(page.locator('.admin-gate')).toBeVisible()
      found.push(...(await findingsInBothModes(page, `${lang} two-step first`, (v) => serious(v) || v.id === 'heading-order')))
    }
    await turnOnTwoFactor(page, 'en')
    const origin = { origin: server.url }
    await page.request.post('/en/rates', { form: { rating: '4', comment: 'Clear reports, quick to print.' }, headers: origin })
    await page.request.post('/ar/contact-us', {
      form: { type: 'inquiry', name: 'هدى', email: 'huda@school.example', message: 'كيف أطبع اختبارًا بنموذجين؟' },
      headers: origin,
    })
    await page.goto('/en/admin/messages')
    await page.locator('.admin-message-title a').first().click()
    await expect(page).toHaveURL(/\/en\/admin\/messages\/[0-9a-f-]{36}$/)
    const message = new URL(page.url()).pathname.split('/').at(-1)!
    const pages = ['admin/teachers', 'admin/reviews', 'admin/messages', `admin/messages/${message}`]
    for (const lang of langs)
      for (const path of pages) {
        await page.goto(`/${lang}/${path}`)
        found.push(...(await findingsInBothModes(page, `/${lang}/${path}`, (v) => serious(v) || v.id === 'heading-order')))
      }
    // Handled, so the log has an entry and the message its handled state.
    await page.goto(`/en/admin/messages/${message}`)
    await page.locator('main form button[value="handle"]').click()
    await expect(page.locator('main').getByText(/Marked handled on/)).toBeVisible()
    for (const lang of langs)
      for (const path of ['admin/audit', `admin/messages/${message}`]) {
        await page.goto(`/${lang}/${path}`)
        found.push(...(await findingsInBothModes(page, `/${lang}/${path}`, (v) => serious(v) || v.id === 'heading-order')))
      }
    expect(found).toEqual([])
  } finally {
    await context.close()
    await server.stop()
  }
})

// Issue 18's pages, with two uploads of one school a month apart (trend-files.ts), in both
// languages: the trend with a student found, the comparison, the messages of a step, the templates.
test('trends, comparison and parent message pages have no serious or critical violations', { tag: '@once' }, async ({ page }) => {
  test.setTimeout(240_000)
  await subscribedTeacher(page, 'ar', 'axe-trends')
  const ids: string[] = []
  for (const [name, csv] of [
    ['september.csv', september],
    ['october.csv', october],
  ] as const) {
    await page.goto('/ar/analysis')
    await page.locator('input[type="file"]').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') })
    await page.locator('main button[type="submit"]').click()
    await expect(page).toHaveURL(/single-analysis\?id=/)
    ids.push(new URL(page.url()).searchParams.get('id') ?? '')
  }
  const found: string[] = []
  for (const lang of langs) {
    for (const path of [
      `/${lang}/absence-trends?q=${encodeURIComponent(reem)}`,
      `/${lang}/absence-compare?a=${ids[0]}&b=${ids[1]}`,
      `/${lang}/parent-messages?id=${ids[1]}`,
      `/${lang}/message-templates`,
      `/${lang}/single-analysis?id=${ids[1]}&q=${encodeURIComponent(sara)}`,
    ]) {
      await page.goto(path)
      found.push(...(await findingsInBothModes(page, path, (v) => serious(v) || v.id === 'heading-order')))
    }
  }
  expect(found).toEqual([])
})
