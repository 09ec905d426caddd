import type { BrowserContext, Page } from '@playwright/test'
import type { RouteConfigEntry } from '@react-router/dev/routes'
import routes from '../../app/routes.ts'
import { expect, test } from './fixtures.ts'
import { latestMailTo } from './mail.ts'
import { enrolTwoFactor, signInAgainWithCode, startOperatorServer, type OperatorServer } from './operator.ts'
import { signedInTeacher, TEACHER_PASSWORD } from './teacher.ts'

// The operator area in a real browser, Arabic first then English (docs/operators.md): an
// account made an operator by the command line is asked to turn on two-step verification first,
// then answers a contact message (the mail lands in the outbox), approves a review (it appears
// on the home page), and deactivates a teacher (her next page sends her to sign in, and signing
// in is refused). A teacher gets the site's 404 on every page of the area and every endpoint.

// A port of this worker's own: a retry runs in a new worker, beside whatever the last one left.
const port = Number(process.env.E2E_PORT ?? 3100) + 70 + Number(process.env.TEST_WORKER_INDEX ?? 0)
test.describe.configure({ mode: 'serial', timeout: 150_000 })
test.use({ baseURL: `http://localhost:${port}` })

let server: OperatorServer
let operator: { context: BrowserContext; page: Page; email: string }
let contexts = 0

/** A browser of its own (its own cookies and, for the per-address limits, its own address). */
async function newVisitor(browser: import('@playwright/test').Browser) {
  const context = await browser.newContext({
    baseURL: server.url,
    reducedMotion: 'reduce',
    extraHTTPHeaders: { 'x-forwarded-for': `10.70.${port % 250}.${++contexts}` },
  })
  return { context, page: await context.newPage() }
}

test.beforeAll(async ({ browser }) => {
  // A server of its own, started twice on PGlite (around the command line), and a registration.
  test.setTimeout(120_000)
  server = await startOperatorServer({ port, name: 'operators' })
  const { context, page } = await newVisitor(browser)
  const { email } = await signedInTeacher(page, 'ar', 'operator', { outbox: server.outbox })
  await server.grantOperator(email)
  operator = { context, page, email }
})

test.afterAll(async () => {
  await operator?.context.close()
  await server?.stop()
})

const words = {
  ar: {
    twoFactorFirst: 'فعّل التحقق بخطوتين أولًا',
    twoFactorLink: 'افتح إعدادات التحقق بخطوتين',
    messagesTitle: 'رسائل التواصل',
    answerLabel: 'ردك',
    send: 'أرسل الرد',
    answerSent: 'أُرسل الرد وعُلّمت الرسالة بأنها عولجت.',
    mailSubject: 'رسالتك إلى حلّل',
    approve: 'قبول',
    approved: 'قُبل التقييم وسيظهر في الصفحة الرئيسية.',
    deactivate: 'تعطيل',
    deactivated: 'عُطّل الحساب وخرج من كل الأجهزة.',
    refused: 'أوقف فريق حلّل هذا الحساب، فلا يمكن الدخول به.',
    email: 'البريد الإلكتروني',
    login: 'تسجيل الدخول',
    notFound: 'لم نجد هذه الصفحة',
    audit: ['عطّل حسابًا', 'قبل تقييمًا', 'أجاب عن رسالة بالبريد'],
    guest: { name: 'هدى القحطاني', message: 'كيف أطبع اختبارًا ورقيًا بنموذجين لطلابي؟' },
    answer: 'من صفحة الاختبارات اختاري «طباعة» ثم «نموذجان». مع التحية.',
    review: 'تقرير الغياب وفّر عليّ ساعات كل أسبوع',
  },
  en: {
    twoFactorFirst: 'Turn on two-step verification first',
    twoFactorLink: 'Open two-step verification settings',
    messagesTitle: 'Contact messages',
    answerLabel: 'Your answer',
    send: 'Send the answer',
    answerSent: 'The answer was sent and the message marked handled.',
    mailSubject: 'Your message to Hallil',
    approve: 'Approve',
    approved: 'The review is approved and will appear on the home page.',
    deactivate: 'Deactivate',
    deactivated: 'The account is deactivated and signed out everywhere.',
    refused: 'This account has been deactivated by Hallil',
    email: 'Email',
    login: 'Log in',
    notFound: 'We could not find this page',
    audit: ['Deactivated an account', 'Approved a review', 'Answered a message by email'],
    guest: { name: 'Huda Alqahtani', message: 'How do I print a paper test in two versions for my class?' },
    answer: 'From the tests page choose Print, then Two versions. Kind regards.',
    review: 'The grades report is the first one my head teacher understood',
  },
} as const

/** Every page of the area (from app/routes.ts) and a made-up message id for the one with a parameter. */
function areaPaths(lang: string): string[] {
  const walk = (entries: RouteConfigEntry[], prefix: string): string[] =>
    entries.flatMap((e) => {
      const full = e.path ? (prefix ? `${prefix}/${e.path}` : e.path) : prefix
      const here = full === ':lang/admin' || full.startsWith(':lang/admin/') ? [full] : []
      return [...here, ...walk(e.children ?? [], full)]
    })
  return walk(routes, '').map((p) => `/${p.replace(':lang', lang).replace(/:\w+/g, '00000000-0000-4000-8000-000000000000')}`)
}

/** Screenshots of the area's pages, phone and desktop, light and dark (kept as test artifacts, to look at). */
async function screenshots(page: Page, lang: 'ar' | 'en', paths: string[]) {
  for (const [device, size] of [
    ['phone', { width: 390, height: 844 }],
    ['desktop', { width: 1280, height: 900 }],
  ] as const) {
    await page.setViewportSize(size)
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' })
      for (const path of paths) {
        await page.goto(path)
        const name =
          path
            .replace(/\?.*$/, '')
            .split('/')
            .slice(2)
            .join('-')
            .replace(/-[0-9a-f-]{36}$/, '-one') || 'area'
        await page.screenshot({ path: `.tmp/operators/${lang}-${name}-${device}-${scheme}.png`, fullPage: true })
      }
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.emulateMedia({ colorScheme: 'light' })
}

for (const lang of ['ar', 'en'] as const) {
  test(
    `${lang}: the operator answers a message, approves a review and deactivates a teacher`,
    { tag: '@database' },
    async ({ browser }) => {
      const w = words[lang]
      const { page } = operator

      if (lang === 'ar') {
        // Granted, but without two-step verification: the area asks for it first, and says where.
        const refused = await page.goto('/ar/admin/teachers')
        expect(refused?.status()).toBe(403)
        await expect(page.getByRole('heading', { name: w.twoFactorFirst })).toBeVisible()
        await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
        await page.screenshot({ path: '.tmp/operators/ar-two-factor-first.png', fullPage: true })
        await page.getByRole('link', { name: w.twoFactorLink }).click()
        await expect(page).toHaveURL(/\/ar\/profile#two-factor$/)
        const key = await enrolTwoFactor(page, 'ar')
        // This session was opened with the password alone: the area asks for a sign-in with the code.
        expect((await page.goto('/ar/admin/teachers'))?.status()).toBe(403)
        await expect(page.getByRole('heading', { name: 'سجّل الدخول من جديد بالرمز' })).toBeVisible()
        await page.screenshot({ path: '.tmp/operators/ar-sign-in-again.png', fullPage: true })
        await page.getByRole('link', { name: 'سجّل الخروج ثم ادخل من جديد' }).click()
        await signInAgainWithCode(page, 'ar', operator.email, key)
        // The operator's own menu leads to the area.
        await page.goto('/ar')
        await page.locator('.account-menu summary').click()
        await page.locator('.account-menu').getByRole('link', { name: 'منطقة المشرفين' }).click()
        await expect(page).toHaveURL(/\/ar\/admin$/)
        await expect(page.getByRole('navigation', { name: 'منطقة المشرفين' })).toBeVisible()
      }

      // A guest writes through the contact page.
      const guest = await newVisitor(browser)
      const guestEmail = `guest-${lang}-${Date.now()}@school.example`
      await guest.page.goto(`/${lang}/contact-us`)
      await guest.page.locator('input[name="name"]').fill(w.guest.name)
      await guest.page.locator('input[name="email"]').fill(guestEmail)
      await guest.page.locator('select[name="type"]').selectOption('inquiry')
      await guest.page.locator('textarea[name="message"]').fill(w.guest.message)
      await guest.page.locator('main button[type="submit"]').click()
      await expect(guest.page.locator('.toast').first()).toBeVisible()

      // The operator answers it.
      await page.goto(`/${lang}/admin/messages`)
      await expect(page.getByRole('heading', { name: w.messagesTitle, level: 1 })).toBeVisible()
      await page.getByRole('link', { name: new RegExp(w.guest.name) }).click()
      await expect(page.getByText(w.guest.message)).toBeVisible()
      await page.getByLabel(w.answerLabel).fill(w.answer)
      await page.screenshot({ path: `.tmp/operators/${lang}-message-answer-form.png`, fullPage: true })
      await page.getByRole('button', { name: w.send }).click()
      await expect(page.getByText(w.answerSent).first()).toBeVisible()
      await expect(page.locator('main').getByText(w.answer)).toBeVisible()
      const messagePage = new URL(page.url()).pathname
      const mail = await latestMailTo(guestEmail, server.outbox)
      expect(mail.subject).toBe(w.mailSubject)
      expect(mail.text).toContain(w.answer)
      expect(mail.text).toContain(w.guest.message)

      // A teacher leaves a review; the operator approves it; the home page shows it.
      const teacher = await newVisitor(browser)
      const { email: teacherEmail } = await signedInTeacher(teacher.page, lang, `teacher-${lang}`, { outbox: server.outbox })
      await teacher.page.goto(`/${lang}/rates`)
      await teacher.page.locator('input[name="rating"][value="5"]').check({ force: true })
      await teacher.page.locator('textarea[name="comment"]').fill(w.review)
      await teacher.page.locator('main form button[type="submit"]').click()
      await expect(teacher.page.locator('.toast').first()).toBeVisible()
      await page.goto(`/${lang}/admin/reviews`)
      const card = page.locator('.admin-cards li').filter({ hasText: w.review })
      await card.getByRole('button', { name: w.approve }).click()
      await expect(page.getByText(w.approved).first()).toBeVisible()
      // The home page's list of reviews is kept for up to 15 seconds (PUBLIC_LIST_TTL_MS).
      await expect(async () => {
        await guest.page.goto(`/${lang}`)
        await expect(guest.page.getByText(w.review)).toBeVisible({ timeout: 1000 })
      }).toPass({ timeout: 25_000, intervals: [1000, 2000, 3000] })

      // The teacher finds no operator area: no link to it, the site's 404 on every page of it, in both languages, and on every endpoint.
      await expect(teacher.page.locator('.account-menu a[href$="/admin"]')).toHaveCount(0)
      for (const path of [...areaPaths('ar'), ...areaPaths('en')]) {
        const answer = await teacher.page.goto(path)
        expect([path, answer?.status()]).toEqual([path, 404])
      }
      // The last of them may be a download (a credit note's PDF): the site's page for a page of the area.
      await teacher.page.goto('/en/admin/teachers')
      await expect(teacher.page.getByRole('heading', { name: 'We could not find this page' })).toBeVisible()
      await teacher.page.goto(`/${lang}/admin/audit`)
      await expect(teacher.page.getByRole('heading', { name: w.notFound })).toBeVisible()
      const token = (
        (await (
          await teacher.page.request.post('/api/v1/auth/login', { data: { email: teacherEmail, password: TEACHER_PASSWORD } })
        ).json()) as { data: { token: string } }
      ).data.token
      const document = (await (await teacher.page.request.get('/api/v1/openapi.json')).json()) as { paths: Record<string, object> }
      const endpoints = Object.entries(document.paths)
        .filter(([path]) => path.startsWith('/admin/'))
        .flatMap(([path, item]) =>
          Object.keys(item).map((method) => [method, path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000')]),
        )
      expect(endpoints.length).toBeGreaterThanOrEqual(12)
      for (const [method, path] of endpoints) {
        const answer = await teacher.page.request.fetch(`/api/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, 'accept-language': lang },
          ...(method === 'get' ? {} : { data: {} }),
        })
        expect([method, path, answer.status()]).toEqual([method, path, 404])
      }

      // The operator deactivates her; her next page sends her to sign in, where she is told why she cannot.
      await page.goto(`/${lang}/admin/teachers?q=${encodeURIComponent(teacherEmail)}`)
      await page.locator('tbody tr').filter({ hasText: teacherEmail }).getByRole('button', { name: w.deactivate }).click()
      await expect(page.getByText(w.deactivated).first()).toBeVisible()
      await teacher.page.goto(`/${lang}/profile`)
      await expect(teacher.page).toHaveURL(new RegExp(`/${lang}/login\\?redirectTo=`))
      await teacher.page.getByLabel(w.email).fill(teacherEmail)
      await teacher.page.locator('input[name="password"]').fill(TEACHER_PASSWORD)
      await teacher.page.getByRole('button', { name: w.login, exact: true }).click()
      await expect(teacher.page.getByText(w.refused).first()).toBeVisible()
      expect((await teacher.page.request.get('/api/v1/auth/profile', { headers: { authorization: `Bearer ${token}` } })).status()).toBe(401)

      // Each of the three is in the audit log.
      await page.goto(`/${lang}/admin/audit`)
      for (const line of w.audit) await expect(page.locator('tbody').getByText(line).first()).toBeVisible()

      await screenshots(page, lang, [
        `/${lang}/admin/teachers?q=${encodeURIComponent(teacherEmail)}`,
        `/${lang}/admin/reviews?status=approved`,
        `/${lang}/admin/messages?state=all`,
        messagePage,
        `/${lang}/admin/audit`,
      ])
      await guest.context.close()
      await teacher.context.close()
    },
  )
}
