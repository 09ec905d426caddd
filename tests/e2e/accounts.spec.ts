import { expect, test, type Page } from '@playwright/test'
import { latestCodeFor } from './mail.ts'

const strongPassword = 'Maa3rifa-Tahlil9'

async function register(page: Page, lang: 'ar' | 'en', email: string, username: string) {
  const L = lang === 'ar'
    ? { username: 'اسم المستخدم', email: 'البريد الإلكتروني', phone: 'رقم الجوال', submit: 'إنشاء الحساب' }
    : { username: 'Username', email: 'Email', phone: 'Mobile number', submit: 'Create account' }
  await page.goto(`/${lang}/SignIn`)
  await page.getByLabel(L.username).fill(username)
  await page.getByLabel(L.email, { exact: false }).first().fill(email)
  await page.getByLabel(L.phone).fill('0551234567')
  await page.locator('input[name="password"]').fill(strongPassword)
  await page.locator('input[name="password_confirmation"]').fill(strongPassword)
  await page.locator('input[name="terms"]').check()
  await page.getByRole('button', { name: L.submit }).click()
}

test('Arabic: register, activate with the emailed code, log out with confirmation, log in again', async ({ page }) => {
  const email = `muallima-${Date.now()}@school.example`
  const started = Date.now()
  await register(page, 'ar', email, `معلمة ${Date.now() % 100000}`)
  await expect(page).toHaveURL(/\/ar\/verify-otp\?purpose=activation/)
  await expect(page.getByText('تم التسجيل بنجاح، يرجى تفعيل الرمز').first()).toBeVisible()
  // The resend button waits 60 seconds, with the countdown shown.
  await expect(page.getByRole('button', { name: 'إعادة الإرسال' })).toBeDisabled()
  await expect(page.getByText(/يمكنك إعادة إرسال الرمز بعد \d+ ثانية/)).toBeVisible()
  const code = await latestCodeFor(email, started)
  // Typed with Arabic-Indic digits, as an Arabic keyboard would.
  const arabicDigits = code.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d)))
  await page.getByLabel('رمز التحقق').fill(arabicDigits)
  await page.getByRole('button', { name: 'تحقق' }).click()
  await expect(page).toHaveURL(/\/ar$/)
  await expect(page.getByText('تم التفعيل بنجاح').first()).toBeVisible()

  await page.locator('.account-button').click()
  await page.getByRole('link', { name: 'تسجيل الخروج' }).click()
  const dialog = page.getByRole('dialog', { name: 'تسجيل الخروج؟' })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('button', { name: 'تسجيل الخروج' }).click()
  await expect(page.getByText('تم تسجيل الخروج بنجاح').first()).toBeVisible()
  await expect(page.getByRole('link', { name: 'تسجيل الدخول' }).first()).toBeVisible()

  await page.goto('/ar/profile')
  await expect(page).toHaveURL(/\/ar\/login\?redirectTo=%2Far%2Fprofile/)
  await page.getByLabel('البريد الإلكتروني').fill(email)
  await page.locator('input[name="password"]').fill(strongPassword)
  await page.getByRole('button', { name: 'تسجيل الدخول' }).click()
  await expect(page).toHaveURL(/\/ar\/profile$/)
  await expect(page.getByText('تم تسجيل الدخول بنجاح').first()).toBeVisible()
})

test('English: the form keeps what was typed and shows each error beside its field', async ({ page }) => {
  await page.goto('/en/SignIn')
  await page.getByLabel('Username').fill('Teacher')
  await page.getByLabel('Email').first().fill('not-an-email')
  await page.locator('input[name="password"]').fill('short')
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page.getByText('Invalid email address')).toBeVisible()
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible()
  await expect(page.getByText('Mobile number is required')).toBeVisible()
  await expect(page.getByText('Confirm Password is required')).toBeVisible()
  await expect(page.getByText('You must accept the terms and conditions')).toBeVisible()
  await expect(page.getByLabel('Username')).toHaveValue('Teacher')
})

test('English: forgotten password through the emailed code', async ({ page }) => {
  const email = `reset-${Date.now()}@school.example`
  await register(page, 'en', email, `Reset ${Date.now() % 100000}`)
  const code = await latestCodeFor(email)
  await page.getByLabel('Verification code').fill(code)
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page.getByText('Activation successful').first()).toBeVisible()
  await page.context().clearCookies()

  const started = Date.now()
  await page.goto('/en/forget-password')
  await page.getByLabel('Email').fill(email)
  await page.getByRole('button', { name: 'Send code' }).click()
  await expect(page.getByText('Password reset email sent successfully').first()).toBeVisible()
  const resetCode = await latestCodeFor(email, started)
  await page.getByLabel('Verification code').fill(resetCode)
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page).toHaveURL(/\/en\/reset-password$/)
  await page.locator('input[name="password"]').fill('Another-Strong7')
  await page.locator('input[name="password_confirmation"]').fill('Another-Strong7')
  await page.getByRole('button', { name: 'Save password' }).click()
  await expect(page.getByText('Password reset successfully').first()).toBeVisible()
  await page.getByLabel('Email').fill(email)
  await page.locator('input[name="password"]').fill('Another-Strong7')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByText('Login successful').first()).toBeVisible()
})

async function activatedTeacher(page: Page, lang: 'ar' | 'en') {
  const email = `t-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@school.example`
  await register(page, lang, email, `T ${Math.random().toString(36).slice(2, 8)}`)
  await page.locator('input[name="code"]').fill(await latestCodeFor(email))
  await page.locator('button[value="verify"]').click()
  await expect(page).toHaveURL(new RegExp(`/${lang}$`))
  return email
}

test('Arabic: change email and password through emailed codes, see the notifications', async ({ page }) => {
  const email = await activatedTeacher(page, 'ar')
  await page.goto('/ar/profile')

  const newEmail = `new-${email}`
  const emailForm = page.locator('form', { has: page.locator('button[value="email"]') })
  await emailForm.locator('input[name="email"]').fill(newEmail)
  await emailForm.locator('input[name="password"]').fill(strongPassword)
  const emailStarted = Date.now()
  await emailForm.getByRole('button', { name: 'إرسال الرمز' }).click()
  await expect(page).toHaveURL(/purpose=change_email/)
  await page.getByLabel('رمز التحقق').fill(await latestCodeFor(newEmail, emailStarted))
  await page.getByRole('button', { name: 'تحقق' }).click()
  await expect(page.getByText('تم تغيير بريدك الإلكتروني').first()).toBeVisible()
  await expect(page.getByText(newEmail)).toBeVisible()

  const pwForm = page.locator('form', { has: page.locator('button[value="password"]') })
  await pwForm.locator('input[name="current_password"]').fill(strongPassword)
  await pwForm.locator('input[name="password"]').fill('Jadeed-Tamam42')
  await pwForm.locator('input[name="password_confirmation"]').fill('Jadeed-Tamam42')
  const pwStarted = Date.now()
  await pwForm.getByRole('button', { name: 'إرسال الرمز' }).click()
  await expect(page).toHaveURL(/purpose=change_password/)
  await page.getByLabel('رمز التحقق').fill(await latestCodeFor(newEmail, pwStarted))
  await page.getByRole('button', { name: 'تحقق' }).click()
  await expect(page.getByText('تم تغيير كلمة المرور بنجاح').first()).toBeVisible()

  await page.goto('/ar/notifications')
  await expect(page.getByRole('heading', { name: /تم تغيير كلمة المرور/ })).toBeVisible()
  await expect(page.getByRole('heading', { name: /تم تغيير بريدك الإلكتروني/ })).toBeVisible()
  await expect(page.getByRole('heading', { name: /مرحباً بك في حلّل/ })).toBeVisible()
  await page.getByRole('button', { name: 'تعليم الكل كمقروء' }).click()
  await expect(page.locator('.notification.is-unread')).toHaveCount(0)
})

test('English: leave a review, which waits for approval', async ({ page }) => {
  await activatedTeacher(page, 'en')
  await page.goto('/en/rates')
  await page.getByRole('radio', { name: '4 stars out of 5' }).check()
  await page.getByLabel('Comment').fill('The absence report saves me an hour every week.')
  await page.getByRole('button', { name: 'Send review' }).click()
  await expect(page.getByText('Thank you for your comment').first()).toBeVisible()
  await expect(page.getByText('The absence report saves me an hour every week.')).toHaveCount(0)
})
