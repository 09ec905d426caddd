import { expect, type Page } from './fixtures.ts'
import { latestCodeFor } from './mail.ts'

export const TEACHER_PASSWORD = 'Maa3rifa-Tahlil9'

/**
 * A form posted as a browser without its script posts it: same origin, form-encoded, redirects
 * followed, the cookies kept in the page's context. The journeys that test a form fill it in on the
 * page; the others reach their starting point this way, a page load and a hydration cheaper each.
 */
async function postForm(page: Page, path: string, form: Record<string, string>) {
  // The server's origin, whatever baseURL the spec uses: a page write needs its Origin.
  const origin = new URL((await page.request.get('/healthz')).url()).origin
  const response = await page.request.post(path, { form, headers: { origin }, maxRedirects: 10 })
  expect(response.status(), `${path} answered ${response.status()}`).toBeLessThan(400)
  return response
}

/** A new, activated teacher signed in on this page (the account journeys test the forms themselves). */
export async function signedInTeacher(page: Page, lang: 'ar' | 'en', tag = 'teacher', options: { outbox?: string } = {}) {
  const teacher = await registeredTeacher(page, lang, tag, options)
  // Where the forms would have left her: her home, signed in.
  await page.goto(`/${lang}`)
  return teacher
}

/** Registered, activated and signed in by posting the forms; the page itself is left where it was. */
async function registeredTeacher(page: Page, lang: 'ar' | 'en', tag: string, options: { outbox?: string }) {
  const email = `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@school.example`
  const registered = await postForm(page, `/${lang}/SignIn`, {
    username: `${tag} ${Math.random().toString(36).slice(2, 8)}`,
    email,
    phone: '0551234567',
    password: TEACHER_PASSWORD,
    password_confirmation: TEACHER_PASSWORD,
    terms: 'on',
  })
  expect(registered.url()).toMatch(/verify-otp/)
  const verifyPath = registered.url().replace(/^https?:\/\/[^/]+/, '')
  const verified = await postForm(page, verifyPath, { code: await latestCodeFor(email, 0, options.outbox), intent: 'verify' })
  // Activation asks for the full name once; these teachers leave it for later.
  expect(new URL(verified.url()).pathname).toBe(`/${lang}/full-name`)
  const skipped = await postForm(page, verified.url().replace(/^https?:\/\/[^/]+/, ''), { intent: 'skip' })
  expect(new URL(skipped.url()).pathname).toBe(`/${lang}`)
  return { email, verifyPath }
}

/**
 * A signed-in teacher with a current subscription, paid through the sandbox gateway with the
 * forms a teacher posts (the billing journeys test those pages in the browser): for the tools' journeys.
 */
export async function subscribedTeacher(page: Page, lang: 'ar' | 'en', tag = 'subscriber', options: { outbox?: string } = {}) {
  const teacher = await registeredTeacher(page, lang, tag, options)
  const checkout = await postForm(page, `/${lang}/checkout/1`, { method: 'mada' })
  expect(checkout.url()).toMatch(/sandbox-pay\?id=sbx_/)
  const payPath = checkout.url().replace(/^https?:\/\/[^/]+/, '')
  await postForm(page, payPath, { intent: 'card', number: '4111 1111 1111 1111', name: 'NOURA ALQAHTANI', expiry: '12/30', cvc: '123' })
  const paid = await postForm(page, payPath, { intent: 'confirm' })
  expect(paid.url()).toMatch(new RegExp(`/${lang}/payments/result/`))
  expect(await paid.text()).toContain('result-paid')
  // Where the gateway would have left her: the payment's result.
  await page.goto(paid.url())
  return teacher
}
