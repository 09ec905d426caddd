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
  await expect(page).toHaveURL(new RegExp(`/${lang}$`))
  return { email, verifyPath }
}
