import { expect, type Page } from './fixtures.ts'
import { latestCodeFor } from './mail.ts'

export const TEACHER_PASSWORD = 'Maa3rifa-Tahlil9'

/** A new, activated teacher signed in on this page (the account journeys test the forms themselves). */
export async function signedInTeacher(page: Page, lang: 'ar' | 'en', tag = 'teacher', options: { outbox?: string } = {}) {
  const email = `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@school.example`
  await page.goto(`/${lang}/SignIn`)
  await page.locator('input[name="username"]').fill(`${tag} ${Math.random().toString(36).slice(2, 8)}`)
  await page.locator('input[name="email"]').fill(email)
  await page.locator('input[name="phone"]').fill('0551234567')
  await page.locator('input[name="password"]').fill(TEACHER_PASSWORD)
  await page.locator('input[name="password_confirmation"]').fill(TEACHER_PASSWORD)
  await page.locator('input[name="terms"]').check()
  await page.locator('form button[type="submit"]').click()
  await expect(page).toHaveURL(/verify-otp/)
  const verifyPath = page.url().replace(/^https?:\/\/[^/]+/, '')
  await page.locator('input[name="code"]').fill(await latestCodeFor(email, 0, options.outbox))
  await page.locator('button[value="verify"]').click()
  // Activation asks for the full name once; these teachers leave it for later.
  await expect(page).toHaveURL(new RegExp(`/${lang}/full-name`))
  await page.locator('button[value="skip"]').click()
  await expect(page).toHaveURL(new RegExp(`/${lang}$`))
  return { email, verifyPath }
}

/**
 * A signed-in teacher with a current subscription, paid through the sandbox gateway the way a
 * teacher pays (the billing journeys test that page in detail): for the tools' journeys.
 */
export async function subscribedTeacher(page: Page, lang: 'ar' | 'en', tag = 'subscriber') {
  const teacher = await signedInTeacher(page, lang, tag)
  await page.goto(`/${lang}/checkout/1`)
  await page.locator('main button[type="submit"]').click()
  await expect(page).toHaveURL(/sandbox-pay\?id=sbx_/)
  await page.locator('input[name="number"]').fill('4111 1111 1111 1111')
  await page.locator('input[name="name"]').fill('NOURA ALQAHTANI')
  await page.locator('input[name="expiry"]').fill('12/30')
  await page.locator('input[name="cvc"]').fill('123')
  await page.locator('button[value="card"]').click()
  await page.locator('button[value="confirm"]').click()
  await expect(page).toHaveURL(new RegExp(`/${lang}/payments/result/`))
  await expect(page.locator('.result-paid')).toBeVisible()
  return teacher
}
