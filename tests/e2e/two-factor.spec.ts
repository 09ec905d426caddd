import { base32Decode, hotp, totpStep } from '../../app/features/accounts/totp.server.ts'
import { expect, test } from './fixtures.ts'
import { signedInTeacher, TEACHER_PASSWORD } from './teacher.ts'

// Two-step verification in Arabic, as a teacher sets it up: the QR code and its key on the
// profile, a code from the app (computed here from the key shown, as the app would), the
// recovery codes once, then a login that asks for the code.

/** What an authenticator app shows for the key, `steps` periods from now. */
const appCode = (key: string, steps = 0) => hotp(base32Decode(key)!, totpStep(new Date()) + steps)

test('ar: turn on two-step verification from the profile, then log in with the code from the app', async ({ page }) => {
  test.setTimeout(60_000)
  const { email } = await signedInTeacher(page, 'ar', 'tfa')
  await page.goto('/ar/profile')
  const card = page.locator('#two-factor')
  await expect(card.getByRole('heading', { name: 'التحقق بخطوتين' })).toBeVisible()
  await card.getByRole('button', { name: 'إعداد', exact: true }).click()
  await expect(page.getByText('امسح رمز QR بالتطبيق، ثم أدخل الرمز الذي يظهر فيه.').first()).toBeVisible()
  await expect(card.getByRole('img', { name: 'رمز QR لتطبيق المصادقة' })).toBeVisible()
  const key = (await card.locator('.totp-key').textContent()) ?? ''
  expect(key).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/)
  // Kept as test artifacts (not committed), to look at.
  await card.screenshot({ path: '.tmp/two-factor/ar-enrol.png' })

  await card.getByLabel('الرمز من التطبيق').fill(appCode(key))
  await card.getByRole('button', { name: 'تفعيل', exact: true }).click()
  await expect(card.getByText('تم تفعيل التحقق بخطوتين')).toBeVisible()
  await expect(card.locator('.recovery-codes li')).toHaveCount(10)
  await card.screenshot({ path: '.tmp/two-factor/ar-recovery-codes.png' })
  await expect(card.getByText(/^مفعّل منذ /)).toBeVisible()

  await page.goto('/ar/logout')
  await page.locator('main').getByRole('button', { name: 'تسجيل الخروج' }).click()
  await expect(page).toHaveURL(/\/ar$/)
  await expect(page.getByText('تم تسجيل الخروج بنجاح').first()).toBeVisible()

  // The password alone no longer signs in: the second step asks for the code.
  await page.goto('/ar/login?redirectTo=%2Far%2Fprofile')
  await page.getByLabel('البريد الإلكتروني').fill(email)
  await page.locator('input[name="password"]').fill(TEACHER_PASSWORD)
  await page.getByRole('button', { name: 'تسجيل الدخول', exact: true }).click()
  await expect(page).toHaveURL(/\/ar\/two-factor\?redirectTo=%2Far%2Fprofile$/)
  await expect(page.getByRole('heading', { name: 'التحقق بخطوتين' })).toBeVisible()
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
  await page.screenshot({ path: '.tmp/two-factor/ar-login-step.png' })

  const wrong = ['000000', '111111', '222222'].find((c) => ![-1, 0, 1, 2].some((s) => appCode(key, s) === c))!
  await page.getByLabel('رمز التحقق').fill(wrong)
  await page.getByRole('button', { name: 'تحقّق وسجّل الدخول' }).click()
  await expect(page.getByText('الرمز غير صحيح أو سبق استخدامه').first()).toBeVisible()
  await page.getByLabel('رمز التحقق').fill(appCode(key, 1))
  await page.getByRole('button', { name: 'تحقّق وسجّل الدخول' }).click()
  await expect(page).toHaveURL(/\/ar\/profile$/)
  await expect(page.getByText('تم تسجيل الدخول بنجاح').first()).toBeVisible()
  await expect(page.locator('#two-factor').getByText(/^مفعّل منذ /)).toBeVisible()
})
