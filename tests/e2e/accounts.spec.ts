import { expect, test, type Page } from './fixtures.ts'
import { latestCodeFor } from './mail.ts'
import { signedInTeacher, TEACHER_PASSWORD as strongPassword } from './teacher.ts'

// Every journey runs in Arabic and in English, with the words a teacher sees.
const words = {
  ar: {
    username: 'اسم المستخدم',
    email: 'البريد الإلكتروني',
    phone: 'رقم الجوال',
    createAccount: 'إنشاء الحساب',
    registered: 'أنشأنا حسابك. أدخل الرمز المرسل إلى بريدك لتفعيله.',
    fullNameTitle: 'ما اسمك الكامل؟',
    fullNameAr: 'الاسم الكامل بالعربية',
    fullNameEn: 'الاسم الكامل بالإنجليزية (اختياري)',
    fullNameRequired: 'اكتب اسمك الكامل، أو اختر «لاحقًا»',
    saveName: 'حفظ الاسم',
    name: { ar: 'نورة بنت سعد العتيبي', en: '' },
    greeting: 'أهلًا بك، نورة بنت سعد العتيبي',
    resend: 'إعادة الإرسال',
    resendIn: /يمكنك إعادة إرسال الرمز بعد \d+ ثانية/,
    code: 'رمز التحقق',
    verify: 'تحقق',
    activated: 'تم التفعيل بنجاح',
    logout: 'تسجيل الخروج',
    logoutTitle: 'تسجيل الخروج؟',
    loggedOut: 'تم تسجيل الخروج بنجاح',
    login: 'تسجيل الدخول',
    loggedIn: 'تم تسجيل الدخول بنجاح',
    sendCode: 'إرسال الرمز',
    resetSent: 'تم إرسال بريد إعادة تعيين كلمة المرور بنجاح',
    savePassword: 'حفظ كلمة المرور',
    resetDone: 'تمت إعادة تعيين كلمة المرور بنجاح',
    emailChanged: 'تم تغيير بريدك الإلكتروني',
    passwordChanged: 'تم تغيير كلمة المرور بنجاح',
    notifPassword: /تم تغيير كلمة المرور/,
    notifEmail: /تم تغيير بريدك الإلكتروني/,
    notifWelcome: /مرحباً بك في حلّل/,
    markAll: 'تعليم الكل كمقروء',
    fourStars: '4 نجوم من 5',
    comment: 'التعليق',
    sendReview: 'إرسال التقييم',
    reviewThanks: 'شكراً لتعليقك',
    deleteMine: 'احذف حسابي',
    passwordWrong: 'كلمة المرور غير صحيحة',
    deleted: 'تم حذف حسابك',
  },
  en: {
    username: 'Username',
    email: 'Email',
    phone: 'Mobile number',
    createAccount: 'Create account',
    registered: 'Registration successful, please activate the code',
    fullNameTitle: 'What is your full name?',
    fullNameAr: 'Full name in Arabic',
    fullNameEn: 'Full name in English (optional)',
    fullNameRequired: 'Enter your full name, or choose “Later”',
    saveName: 'Save the name',
    name: { ar: 'نورة بنت سعد العتيبي', en: 'Noura Saad Alotaibi' },
    greeting: 'Welcome, Noura Saad Alotaibi',
    resend: 'Resend',
    resendIn: /You can resend the code in \d+ s/,
    code: 'Verification code',
    verify: 'Verify',
    activated: 'Activation successful',
    logout: 'Log out',
    logoutTitle: 'Log Out?',
    loggedOut: 'Logout successful',
    login: 'Log in',
    loggedIn: 'Login successful',
    sendCode: 'Send code',
    resetSent: 'Password reset email sent successfully',
    savePassword: 'Save password',
    resetDone: 'Password reset successfully',
    emailChanged: 'Your email has been changed',
    passwordChanged: 'Password changed successfully',
    notifPassword: /Your password was changed/,
    notifEmail: /Your email was changed/,
    notifWelcome: /Welcome to Hallil/,
    markAll: 'Mark all as read',
    fourStars: '4 stars out of 5',
    comment: 'Comment',
    sendReview: 'Send review',
    reviewThanks: 'Thank you for your comment',
    deleteMine: 'Delete my account',
    passwordWrong: 'The password is incorrect',
    deleted: 'Your account has been deleted',
  },
} as const

type Lang = keyof typeof words
const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@school.example`

async function register(page: Page, lang: Lang, email: string) {
  const w = words[lang]
  await page.goto(`/${lang}/SignIn`)
  await page.getByLabel(w.username).fill(`T ${Math.random().toString(36).slice(2, 8)}`)
  await page.getByLabel(w.email).first().fill(email)
  await page.getByLabel(w.phone).fill('0551234567')
  await page.locator('input[name="password"]').fill(strongPassword)
  await page.locator('input[name="password_confirmation"]').fill(strongPassword)
  await page.locator('input[name="terms"]').check()
  await page.getByRole('button', { name: w.createAccount }).click()
  await expect(page).toHaveURL(new RegExp(`/${lang}/verify-otp\\?purpose=activation`))
}

for (const lang of ['ar', 'en'] as const) {
  const w = words[lang]

  test(`${lang}: register, activate with the emailed code, give the full name asked once, log out with confirmation, log in again`, async ({
    page,
  }) => {
    const email = uniqueEmail('reg')
    const started = Date.now()
    await register(page, lang, email)
    await expect(page.getByText(w.registered).first()).toBeVisible()
    // Resend waits 60 seconds, with the countdown shown.
    await expect(page.getByRole('button', { name: w.resend })).toBeDisabled()
    await expect(page.getByText(w.resendIn)).toBeVisible()
    const code = await latestCodeFor(email, started)
    // In Arabic the code is typed with Arabic-Indic digits, as an Arabic keyboard would.
    const typed = lang === 'ar' ? code.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d))) : code
    await page.getByLabel(w.code).fill(typed)
    await page.getByRole('button', { name: w.verify }).click()
    await expect(page.getByText(w.activated).first()).toBeVisible()

    // Activated, she is asked her full name; an empty Arabic name says only that it is needed.
    await expect(page).toHaveURL(new RegExp(`/${lang}/full-name`))
    await expect(page.getByRole('heading', { name: w.fullNameTitle })).toBeVisible()
    await page.getByRole('button', { name: w.saveName }).click()
    await expect(page.locator('#fn-ar-error')).toHaveText(w.fullNameRequired)
    await page.getByLabel(w.fullNameAr).fill(w.name.ar)
    if (w.name.en) await page.getByLabel(w.fullNameEn).fill(w.name.en)
    await page.getByRole('button', { name: w.saveName }).click()
    await expect(page).toHaveURL(new RegExp(`/${lang}$`))
    // She is greeted by it, in the page's language where she gave one.
    await expect(page.getByText(w.greeting)).toBeVisible()
    // Asked once: the step now goes straight on.
    await page.goto(`/${lang}/full-name`)
    await expect(page).toHaveURL(new RegExp(`/${lang}$`))

    // The confirmation dialog is the script's; a click before the page is hydrated follows the
    // link to the logout page instead (the path without JavaScript, tested below).
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true')
    await page.locator('.account-button').click()
    await page.getByRole('link', { name: w.logout }).click()
    const dialog = page.getByRole('dialog', { name: w.logoutTitle })
    await expect(dialog).toBeVisible()
    // Logging out tells the browser to clear the site's cache and storage (Clear-Site-Data).
    await page.evaluate(() => localStorage.setItem('hallil-e2e-left-behind', 'yes'))
    const loggingOut = page.waitForResponse(
      (response) => response.request().method() === 'POST' && new URL(response.url()).pathname.startsWith(`/${lang}/logout`),
    )
    await dialog.getByRole('button', { name: w.logout }).click()
    expect((await (await loggingOut).allHeaders())['clear-site-data']).toBe('"cache", "storage"')
    await expect(page.getByText(w.loggedOut).first()).toBeVisible()
    expect(await page.evaluate(() => localStorage.getItem('hallil-e2e-left-behind'))).toBeNull()

    await page.goto(`/${lang}/profile`)
    await expect(page).toHaveURL(new RegExp(`/${lang}/login\\?redirectTo=%2F${lang}%2Fprofile`))
    await page.getByLabel(w.email).fill(email)
    await page.locator('input[name="password"]').fill(strongPassword)
    await page.getByRole('button', { name: w.login, exact: true }).click()
    await expect(page).toHaveURL(new RegExp(`/${lang}/profile$`))
    await expect(page.getByText(w.loggedIn).first()).toBeVisible()
  })

  test(`${lang}: the logout page signs out and lands on the home page, though the browser clears the site's storage`, async ({ page }) => {
    await signedInTeacher(page, lang, 'leave')
    await page.goto(`/${lang}/logout`)
    // Clear-Site-Data removes the service worker; the page must not take that for an update and reload.
    await page.locator('main').getByRole('button', { name: w.logout }).click()
    await expect(page).toHaveURL(new RegExp(`/${lang}$`))
    await expect(page.getByText(w.loggedOut).first()).toBeVisible()
  })

  test(`${lang}: forgotten password through the emailed code`, async ({ page }) => {
    const { email } = await signedInTeacher(page, lang)
    await page.context().clearCookies()
    const started = Date.now()
    await page.goto(`/${lang}/forget-password`)
    await page.getByLabel(w.email).fill(email)
    await page.getByRole('button', { name: w.sendCode }).click()
    await expect(page.getByText(w.resetSent).first()).toBeVisible()
    await page.getByLabel(w.code).fill(await latestCodeFor(email, started))
    await page.getByRole('button', { name: w.verify }).click()
    await expect(page).toHaveURL(new RegExp(`/${lang}/reset-password$`))
    await page.locator('input[name="password"]').fill('Another-Strong7')
    await page.locator('input[name="password_confirmation"]').fill('Another-Strong7')
    await page.getByRole('button', { name: w.savePassword }).click()
    await expect(page.getByText(w.resetDone).first()).toBeVisible()
    await page.getByLabel(w.email).fill(email)
    await page.locator('input[name="password"]').fill('Another-Strong7')
    await page.getByRole('button', { name: w.login, exact: true }).click()
    await expect(page.getByText(w.loggedIn).first()).toBeVisible()
  })

  test(`${lang}: change email and password through emailed codes, see the notifications`, { tag: '@database' }, async ({ page }) => {
    const { email } = await signedInTeacher(page, lang)
    await page.goto(`/${lang}/profile`)
    const newEmail = `new-${email}`
    const emailForm = page.locator('form', { has: page.locator('button[value="email"]') })
    await emailForm.locator('input[name="email"]').fill(newEmail)
    await emailForm.locator('input[name="password"]').fill(strongPassword)
    const emailStarted = Date.now()
    await emailForm.getByRole('button', { name: w.sendCode }).click()
    await expect(page).toHaveURL(/purpose=change_email/)
    await page.getByLabel(w.code).fill(await latestCodeFor(newEmail, emailStarted))
    await page.getByRole('button', { name: w.verify }).click()
    await expect(page.getByText(w.emailChanged).first()).toBeVisible()
    await expect(page.getByText(newEmail)).toBeVisible()

    const pwForm = page.locator('form', { has: page.locator('button[value="password"]') })
    await pwForm.locator('input[name="current_password"]').fill(strongPassword)
    await pwForm.locator('input[name="password"]').fill('Jadeed-Tamam42')
    await pwForm.locator('input[name="password_confirmation"]').fill('Jadeed-Tamam42')
    const pwStarted = Date.now()
    await pwForm.getByRole('button', { name: w.sendCode }).click()
    await expect(page).toHaveURL(/purpose=change_password/)
    await page.getByLabel(w.code).fill(await latestCodeFor(newEmail, pwStarted))
    await page.getByRole('button', { name: w.verify }).click()
    await expect(page.getByText(w.passwordChanged).first()).toBeVisible()

    await page.goto(`/${lang}/notifications`)
    await expect(page.getByRole('heading', { name: w.notifPassword })).toBeVisible()
    await expect(page.getByRole('heading', { name: w.notifEmail })).toBeVisible()
    await expect(page.getByRole('heading', { name: w.notifWelcome })).toBeVisible()
    await expect(page.locator('.account-button .unread-badge')).toHaveAttribute('data-count', '3')
    await page.getByRole('button', { name: w.markAll }).click()
    await expect(page.locator('.notification.is-unread')).toHaveCount(0)
    await expect(page.locator('.account-button .unread-badge')).toHaveCount(0)
  })

  test(`${lang}: delete the account from the profile: a wrong password keeps it, the right one deletes it and signs out`, async ({
    page,
  }) => {
    const { email } = await signedInTeacher(page, lang, 'delete-me')
    await page.goto(`/${lang}/profile`)
    const card = page.locator('.card-danger')
    await card.locator('input[name="password"]').fill('Wrong-Password-9')
    await card.getByRole('button', { name: w.deleteMine }).click()
    await expect(card.getByText(w.passwordWrong)).toBeVisible()
    await expect(page).toHaveURL(new RegExp(`/${lang}/profile`))

    // The answer clears the site's storage; the next page is loaded whole, the message on it.
    await page.evaluate(() => localStorage.setItem('hallil-e2e-left-behind', 'yes'))
    await card.locator('input[name="password"]').fill(strongPassword)
    await card.getByRole('button', { name: w.deleteMine }).click()
    await expect(page).toHaveURL(new RegExp(`/${lang}$`))
    await expect(page.getByText(w.deleted).first()).toBeVisible()
    expect(await page.evaluate(() => localStorage.getItem('hallil-e2e-left-behind'))).toBeNull()
    await page.goto(`/${lang}/profile`)
    await expect(page).toHaveURL(new RegExp(`/${lang}/login`))
    await page.getByLabel(w.email).fill(email)
    await page.locator('input[name="password"]').fill(strongPassword)
    await page.getByRole('button', { name: w.login, exact: true }).click()
    await expect(page).toHaveURL(new RegExp(`/${lang}/login`))
  })

  test(`${lang}: leave a review, which waits for approval`, async ({ page }) => {
    await signedInTeacher(page, lang)
    await page.goto(`/${lang}/rates`)
    await page.getByRole('radio', { name: w.fourStars }).check()
    const comment = `Review ${Date.now()}: the absence report saves me an hour every week.`
    await page.getByLabel(w.comment).fill(comment)
    await page.getByRole('button', { name: w.sendReview }).click()
    await expect(page.getByText(w.reviewThanks).first()).toBeVisible()
    await expect(page.getByText(comment)).toHaveCount(0)
  })
}

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

test('Arabic: a guest asking for an account page is sent to login with the message', async ({ page }) => {
  await page.goto('/ar/notifications')
  await expect(page).toHaveURL(/\/ar\/login\?redirectTo=%2Far%2Fnotifications/)
  await expect(page.getByText('تسجيل الدخول مطلوب').first()).toBeVisible()
  // The redirect keeps the account page out of search; the login page itself asks not to be listed.
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex')
  await page.goto('/ar/SignIn')
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex')
})
