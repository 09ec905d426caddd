import AxeBuilder from '@axe-core/playwright'
import { startMoyasarFake, type MoyasarFake } from '../fakes/moyasar.ts'
import { startAppServer, type AppServer } from './app-server.ts'
import { expect, test, type Page } from './fixtures.ts'
import { signedInTeacher } from './teacher.ts'

// The same app configured for Moyasar (PAYMENT_GATEWAY=moyasar), talking to the local fake of
// Moyasar's API on loopback: the payer's browser creates the payment at "Moyasar" with the
// publishable key, passes 3-D Secure or the STC Pay code there, and comes back; the fake also
// sends its webhook. Hallil's server must never see the card.

// A port of this worker's own: a retry runs in a new worker, beside whatever the last one left.
const port = Number(process.env.E2E_PORT ?? 3100) + 50 + Number(process.env.TEST_WORKER_INDEX ?? 0)
const PUBLISHABLE_KEY = 'pk_test_e2e_publishable'
const SECRET_KEY = 'sk_test_e2e_secret'
const WEBHOOK_SECRET = 'e2e-moyasar-webhook-secret-0123456789'
const CARD_OK = '4111111111111111'
const CARD_DECLINED = '4000000000000002'

let fake: MoyasarFake
let app: AppServer

// A server of its own starts first (a new PGlite, its migrations), and every journey goes through
// the gateway's pages and 3-D Secure: on a loaded machine both take longer than the default.
test.describe.configure({ mode: 'serial', timeout: 90_000 })
test.use({ baseURL: `http://localhost:${port}` })

test.beforeAll(async () => {
  test.setTimeout(120_000)
  fake = await startMoyasarFake({
    secretKey: SECRET_KEY,
    publishableKey: PUBLISHABLE_KEY,
    webhookSecret: WEBHOOK_SECRET,
    webhookUrl: `http://localhost:${port}/api/v1/payments/webhook/moyasar`,
  })
  app = await startAppServer({
    port,
    name: 'moyasar',
    env: {
      PAYMENT_GATEWAY: 'moyasar',
      MOYASAR_API_URL: fake.url,
      MOYASAR_SECRET_KEY: SECRET_KEY,
      MOYASAR_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
      MOYASAR_WEBHOOK_SECRET: WEBHOOK_SECRET,
    },
  })
})

test.afterAll(async () => {
  await app?.stop()
  await fake?.close()
})

const words = {
  ar: {
    subscribe: 'اشترك',
    pay: 'المتابعة إلى الدفع',
    card: 'بطاقة ائتمانية',
    stc: 'STC Pay',
    number: 'رقم البطاقة',
    name: 'الاسم على البطاقة',
    month: 'شهر الانتهاء (MM)',
    year: 'سنة الانتهاء (YY)',
    cvc: 'رمز التحقق (CVC)',
    payButton: 'ادفع',
    mobile: 'رقم جوال STC Pay',
    sendCode: 'أرسل الرمز',
    otp: 'رمز التحقق',
    confirm: 'تأكيد الدفع',
    success: 'تم الدفع بنجاح',
    failed: 'فشلت عملية الدفع',
    invalidNumber: 'أدخل رقم بطاقة صحيحًا',
  },
  en: {
    subscribe: 'Subscribe',
    pay: 'Continue to payment',
    card: 'Credit card',
    stc: 'STC Pay',
    number: 'Card number',
    name: 'Name on card',
    month: 'Expiry month (MM)',
    year: 'Expiry year (YY)',
    cvc: 'CVC',
    payButton: 'Pay',
    mobile: 'STC Pay mobile number',
    sendCode: 'Send the code',
    otp: 'Verification code',
    confirm: 'Confirm payment',
    success: 'Payment was successful',
    failed: 'Payment failed',
    invalidNumber: 'Enter a valid card number',
  },
} as const

/** Every request body the page sends to Hallil itself, to prove the card is not among them. */
function bodiesToHallil(page: Page): string[] {
  const bodies: string[] = []
  page.on('request', (request) => {
    if (request.url().startsWith(`http://localhost:${port}`)) bodies.push(`${request.url()} ${request.postData() ?? ''}`)
  })
  return bodies
}

async function toPaymentPage(page: Page, lang: 'ar' | 'en', method: string) {
  const w = words[lang]
  await page.goto(`/${lang}/packages`)
  await page.locator('.package-card.is-best-seller').getByRole('link', { name: w.subscribe }).click()
  await page.getByLabel(method).check()
  await page.getByRole('button', { name: w.pay }).click()
  await expect(page).toHaveURL(new RegExp(`/${lang}/payments/pay/[0-9a-f-]{36}$`))
  // The form works once the page's script runs (the card goes from the browser to Moyasar).
  await expect(page.getByRole('button', { name: method === w.stc ? w.sendCode : w.payButton, exact: true })).toBeEnabled()
}

async function fillCard(page: Page, lang: 'ar' | 'en', number: string) {
  const w = words[lang]
  await page.getByLabel(w.number).fill(number)
  await page.getByLabel(w.name).fill('NOURA ALQAHTANI')
  await page.getByLabel(w.month).fill('12')
  await page.getByLabel(w.year).fill(String((new Date().getFullYear() + 3) % 100))
  await page.getByLabel(w.cvc).fill('123')
}

test(
  'Arabic: pays by card at Moyasar, through 3-D Secure, and lands on success with the subscription; the card never reaches Hallil',
  { tag: '@database' },
  async ({ page }) => {
    const w = words.ar
    const toHallil = bodiesToHallil(page)
    await signedInTeacher(page, 'ar', 'moyasar-card', { outbox: app.outbox })
    await toPaymentPage(page, 'ar', w.card)
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
    if (process.env.SHOTS) await page.screenshot({ path: '/tmp/pay-ar.png', fullPage: true })
    // No serious or critical accessibility problem on the payment page, in either colour mode.
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      const results = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
        .analyze()
      expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${scheme} ${v.id}`)).toEqual(
        [],
      )
    }
    // A mistyped number is caught on the page, in Arabic, before anything is sent.
    await fillCard(page, 'ar', '4111111111111112')
    await page.getByRole('button', { name: w.payButton, exact: true }).click()
    await expect(page.getByText(w.invalidNumber)).toBeVisible()
    expect(fake.payments.size).toBe(0)

    await fillCard(page, 'ar', CARD_OK)
    await page.getByRole('button', { name: w.payButton, exact: true }).click()
    await expect(page).toHaveURL(/\/ar\/payments\/result\//)
    await expect(page.getByRole('heading', { name: w.success })).toBeVisible()
    expect([...fake.payments.values()].some((p) => p.status === 'paid')).toBe(true)
    expect(toHallil.filter((b) => b.includes(CARD_OK) || b.includes('NOURA'))).toEqual([])
    // Moyasar's webhook arrives on its own and settles nothing twice.
    await expect.poll(() => fake.webhooksSent.length).toBeGreaterThan(0)
    expect(fake.webhooksSent.every((h) => h.status === 200)).toBe(true)
    await page.goto('/ar/subscriptions')
    await expect(page.locator('.subscription-list > li')).toHaveCount(1)
    await expect(page.locator('.status-current')).toBeVisible()
  },
)

test('English: a declined card ends in Payment failed, with a way to try again', async ({ page }) => {
  const w = words.en
  await signedInTeacher(page, 'en', 'moyasar-declined', { outbox: app.outbox })
  await toPaymentPage(page, 'en', w.card)
  await fillCard(page, 'en', CARD_DECLINED)
  await page.getByRole('button', { name: w.payButton, exact: true }).click()
  await expect(page).toHaveURL(/\/en\/payments\/result\//)
  await expect(page.getByRole('heading', { name: w.failed })).toBeVisible()
  await expect(page.getByRole('link', { name: /try again/i })).toBeVisible()
})

test('English: STC Pay asks for the code sent to the mobile, then pays', async ({ page }) => {
  const w = words.en
  await signedInTeacher(page, 'en', 'moyasar-stc', { outbox: app.outbox })
  await toPaymentPage(page, 'en', w.stc)
  await page.getByLabel(w.mobile).fill('0551234567')
  await page.getByRole('button', { name: w.sendCode }).click()
  await page.getByLabel(w.otp).fill('123456')
  await page.getByRole('button', { name: w.confirm }).click()
  await expect(page).toHaveURL(/\/en\/payments\/result\//)
  await expect(page.getByRole('heading', { name: w.success })).toBeVisible()
})

test("Arabic: Apple Pay in a browser that has it (Safari's ApplePaySession, stood in for here): merchant validation and the token go to Moyasar", async ({
  page,
}) => {
  // Chromium has no Apple Pay; this stand-in follows Apple's documented session API: begin()
  // asks for merchant validation, then hands over the payment token, then waits for the result.
  await page.addInitScript(() => {
    class FakeApplePaySession {
      static STATUS_SUCCESS = 0
      static STATUS_FAILURE = 1
      static canMakePayments() {
        return true
      }
      onvalidatemerchant: ((e: { validationURL: string }) => void) | null = null
      onpaymentauthorized: ((e: { payment: { token: unknown } }) => void) | null = null
      oncancel: (() => void) | null = null
      request: unknown
      constructor(_version: number, request: unknown) {
        this.request = request
      }
      begin() {
        this.onvalidatemerchant?.({ validationURL: 'https://apple-pay-gateway.apple.com/paymentservices/startSession' })
      }
      completeMerchantValidation(session: unknown) {
        ;(window as unknown as { __merchantSession: unknown }).__merchantSession = session
        this.onpaymentauthorized?.({
          payment: { token: { paymentData: { version: 'EC_v1', data: 'opaque' }, paymentMethod: { network: 'Visa' } } },
        })
      }
      completePayment(status: number) {
        ;(window as unknown as { __applePayStatus: number }).__applePayStatus = status
      }
      abort() {}
    }
    ;(window as unknown as { ApplePaySession: unknown }).ApplePaySession = FakeApplePaySession
  })
  await signedInTeacher(page, 'ar', 'moyasar-apple', { outbox: app.outbox })
  await toPaymentPageApple(page)
  await page.getByRole('button', { name: 'الدفع عبر Apple Pay' }).click()
  await expect(page).toHaveURL(/\/ar\/payments\/result\//)
  await expect(page.getByRole('heading', { name: words.ar.success })).toBeVisible()
})

async function toPaymentPageApple(page: Page) {
  await page.goto('/ar/packages')
  await page.locator('.package-card.is-best-seller').getByRole('link', { name: words.ar.subscribe }).click()
  await page.getByLabel('Apple Pay').check()
  await page.getByRole('button', { name: words.ar.pay }).click()
  await expect(page).toHaveURL(/\/ar\/payments\/pay\//)
}

test('the page may call Moyasar and nothing else besides Hallil', async ({ request }) => {
  const response = await request.get('/ar')
  const csp = response.headers()['content-security-policy'] ?? ''
  expect(csp).toContain(`connect-src 'self' ${new URL(fake.url).origin}`)
})
