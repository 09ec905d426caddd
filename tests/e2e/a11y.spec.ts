import { expect, test } from './fixtures.ts'
import { axe, langs, pagePath, publicPaths } from './helpers.ts'
import { signedInTeacher } from './teacher.ts'

// axe (experimental rules included) on every public page, in both languages and both colour
// modes: no serious or critical violations, and no heading that skips a level (axe calls that moderate; Lighthouse counts it).
for (const scheme of ['light', 'dark'] as const) {
  test.describe(`accessibility, ${scheme}`, () => {
    test.use({ colorScheme: scheme })
    for (const lang of langs) {
      for (const p of [...publicPaths, 'no-such-page', 'SignIn', 'login', 'forget-password', 'rates']) {
        test(`${pagePath(lang, p)}`, async ({ page }) => {
          await page.goto(pagePath(lang, p))
          // Show content that animates in on scroll, as a reader scrolling would see it.
          await page.evaluate(() => document.querySelectorAll('[data-reveal]').forEach((el) => el.classList.add('is-revealed')))
          await page.waitForTimeout(450)
          const results = await axe(page).analyze()
          const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'heading-order')
          expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)).toEqual([])
        })
      }
    }
  })
}

// The teacher's own pages, signed in and subscribed, in both colour modes.
test('account and billing pages have no serious or critical violations', async ({ page }) => {
  // Sixteen pages, each run through axe with its experimental rules too.
  test.setTimeout(240_000)
  const { verifyPath: verifyPage } = await signedInTeacher(page, 'en', 'axe')
  await page.goto('/en/checkout/1')
  await page.locator('main button[type="submit"]').click()
  await expect(page).toHaveURL(/sandbox-pay/)
  const sandbox = page.url().replace(/^https?:\/\/[^/]+/, '')
  const paths = ['/en/profile', '/ar/profile', '/en/notifications', '/ar/notifications', '/en/subscriptions', '/ar/checkout/2', sandbox, verifyPage.replace('purpose=activation', 'purpose=change_email')]
  const found: string[] = []
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    for (const path of paths) {
      await page.goto(path)
      const results = await axe(page).analyze()
      for (const v of results.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')) found.push(`${scheme} ${path} ${v.id}`)
    }
  }
  expect(found).toEqual([])
})
