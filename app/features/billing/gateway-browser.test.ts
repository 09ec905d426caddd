import { count, eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { invoices, payments, subscriptions, users } from '#app/platform/db/schema.ts'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { hashPassword } from '#app/features/accounts/index.server.ts'
import { testContext } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { startMoyasarFake, type MoyasarFake } from '#tests/fakes/moyasar.ts'
import { browserCheckoutFor, startCheckout } from './checkout.server.ts'
import {
  appleMerchantSession,
  cardSource,
  confirmStcPay,
  createBrowserPayment,
  luhnValid,
  stcPaySource,
  type BrowserSource,
} from './gateway-browser.ts'
import { createMoyasarGateway } from './gateways/moyasar.server.ts'
import type { BrowserCheckout } from './gateways/types.ts'
import { reconcilePayments, settlePayment } from './settle-payment.server.ts'

const SECRET_KEY = 'sk_test_browser_secret'
const PUBLISHABLE_KEY = 'pk_test_browser_publishable'
const WEBHOOK_SECRET = 'browser-webhook-secret-0123456789'
const NOW = new Date('2026-11-22T10:00:00Z')
const nextYear = String((NOW.getUTCFullYear() + 2) % 100).padStart(2, '0')

const testDb = setupTestDatabase(async (db) => {
  await seedPackages({ db: db.db })
})

let fake: MoyasarFake
beforeEach(async () => {
  fake = await startMoyasarFake({ secretKey: SECRET_KEY, publishableKey: PUBLISHABLE_KEY, webhookSecret: WEBHOOK_SECRET })
})
afterEach(async () => {
  await fake.close()
})

const gateway = () =>
  createMoyasarGateway({ secretKey: SECRET_KEY, publishableKey: PUBLISHABLE_KEY, webhookSecret: WEBHOOK_SECRET, apiUrl: fake.url })

let n = 0
async function teacher() {
  const [user] = await testDb()
    .db.insert(users)
    .values({
      username: `payer ${++n}`,
      email: `payer${n}-${Date.now()}@example.sa`,
      phone: '+966551234567',
      passwordHash: await hashPassword('x'),
      emailVerifiedAt: new Date(),
    })
    .returning()
  return user!
}

async function openCheckout(method: 'creditcard' | 'stcpay' | 'applepay' = 'creditcard') {
  const ctx = testContext(testDb())
  const user = await teacher()
  const started = await startCheckout({ ...ctx, gateway: gateway(), input: { userId: user.id, packageId: 1, method, lang: 'ar' } })
  const { checkout } = await browserCheckoutFor({
    ...ctx,
    gateway: gateway(),
    input: { userId: user.id, paymentId: started.paymentId, lang: 'ar' },
  })
  if (!checkout) throw new Error('no browser checkout')
  return { ctx, user, started, checkout }
}

const goodCard = (number = '4111111111111111') => {
  const built = cardSource({ name: 'Noura Alqahtani', number, month: '12', year: nextYear, cvc: '123' }, NOW)
  if (!('source' in built)) throw new Error(`card refused: ${built.errors.join(',')}`)
  return built.source
}

/** The payer's browser on the 3-D Secure page: where the gateway sends it back. */
async function throughThreeDs(url: string): Promise<URL> {
  const response = await fetch(url, { redirect: 'manual' })
  expect(response.status).toBe(302)
  return new URL(response.headers.get('location') ?? '')
}

describe('card checks on the page', () => {
  it('accepts a valid card, with spaces and Arabic-Indic digits, and refuses each wrong field by name', () => {
    expect(
      cardSource({ name: ' Noura  Alqahtani ', number: '٤١١١ ١١١١ ١١١١ ١١١١', month: '٠٩', year: `20${nextYear}`, cvc: '٠١٢' }, NOW),
    ).toEqual({
      source: {
        type: 'creditcard',
        name: 'Noura Alqahtani',
        number: '4111111111111111',
        month: 9,
        year: 2000 + Number(nextYear),
        cvc: '012',
      },
    })
    expect(cardSource({ name: 'Noura', number: '4111111111111112', month: '13', year: '20', cvc: '12' }, NOW)).toEqual({
      errors: ['number', 'name', 'month', 'year', 'cvc'],
    })
    // This month still counts; last month has expired.
    expect(cardSource({ name: 'A B', number: '4111111111111111', month: '11', year: '26', cvc: '123' }, NOW)).toHaveProperty('source')
    expect(cardSource({ name: 'A B', number: '4111111111111111', month: '10', year: '26', cvc: '123' }, NOW)).toEqual({ errors: ['year'] })
  })

  it('knows the Luhn check and STC Pay numbers', () => {
    expect(luhnValid('4000000000000002')).toBe(true)
    expect(luhnValid('4000000000000003')).toBe(false)
    expect(luhnValid('41111')).toBe(false)
    expect(stcPaySource('٠٥٥١٢٣٤٥٦٧')).toEqual({ source: { type: 'stcpay', mobile: '0551234567' } })
    expect(stcPaySource('0651234567')).toEqual({ errors: ['mobile'] })
  })
})

describe('a payment the browser creates at Moyasar', () => {
  it('checkout hands the browser its request; the card never reaches Hallil; settlement pays once', async () => {
    const { ctx, user, started, checkout } = await openCheckout()
    expect(started.redirectUrl).toBe(`/ar/payments/pay/${started.paymentId}`)
    const [row] = await ctx.db.select().from(payments).where(eq(payments.id, started.paymentId))
    expect(row?.gatewayPaymentId).toBe(row?.idempotencyKey)
    expect(checkout).toMatchObject({ apiUrl: fake.url, publishableKey: PUBLISHABLE_KEY })
    expect(checkout.body).toMatchObject({
      given_id: row?.idempotencyKey,
      amount: row?.total,
      currency: 'SAR',
      metadata: { payment_id: started.paymentId },
    })
    expect(JSON.stringify(checkout)).not.toContain(SECRET_KEY)
    // Nothing reached Moyasar yet: the server created no payment there.
    expect(fake.requests).toEqual([])

    const step = await createBrowserPayment(checkout, goodCard())
    expect(step).toEqual({ kind: 'navigate', url: `${fake.url}/3ds/${row?.idempotencyKey}` })
    const back = await throughThreeDs(step.kind === 'navigate' ? step.url : '')
    expect(`${back.origin}${back.pathname}`).toBe(`${ctx.env.APP_URL}/ar/payments/callback`)
    expect(back.searchParams.get('id')).toBe(row?.idempotencyKey)

    const settle = () => settlePayment({ ...ctx, gateway: gateway(), gatewayPaymentId: back.searchParams.get('id') ?? '' })
    const results = await Promise.all([settle(), settle()])
    expect(results.map((r) => r?.status)).toEqual(['paid', 'paid'])
    const [subs] = await ctx.db.select({ n: count() }).from(subscriptions).where(eq(subscriptions.userId, user.id))
    const [invs] = await ctx.db.select({ n: count() }).from(invoices).where(eq(invoices.userId, user.id))
    expect([subs?.n, invs?.n]).toEqual([1, 1])
    // Paid: the page has nothing left to offer.
    expect(
      (await browserCheckoutFor({ ...ctx, gateway: gateway(), input: { userId: user.id, paymentId: started.paymentId, lang: 'ar' } }))
        .checkout,
    ).toBeNull()
  })

  it('a declined card comes back failed and settles as failed', async () => {
    const { ctx, started, checkout } = await openCheckout()
    const step = await createBrowserPayment(checkout, goodCard('4000000000000002'))
    const back = await throughThreeDs(step.kind === 'navigate' ? step.url : '')
    expect(back.searchParams.get('status')).toBe('failed')
    const result = await settlePayment({ ...ctx, gateway: gateway(), gatewayPaymentId: back.searchParams.get('id') ?? '' })
    expect(result).toEqual({ paymentId: started.paymentId, status: 'failed' })
  })

  it('a second click goes to the callback instead of paying twice', async () => {
    const { checkout } = await openCheckout()
    await createBrowserPayment(checkout, goodCard())
    const again = await createBrowserPayment(checkout, goodCard())
    expect(again.kind).toBe('navigate')
    const url = new URL(again.kind === 'navigate' ? again.url : '')
    expect(url.searchParams.get('id')).toBe(checkout.body.given_id)
    expect(fake.payments.size).toBe(1)
  })

  it('Moyasar’s field errors come back by field; a wrong key is rejected; a dead gateway is unreachable', async () => {
    const { checkout } = await openCheckout()
    const badCard: BrowserSource = { type: 'creditcard', name: 'Noura', number: '4111111111111112', month: 12, year: 2030, cvc: '12' }
    expect(await createBrowserPayment(checkout, badCard)).toEqual({ kind: 'invalid', fields: ['name', 'number', 'cvc'] })
    const wrongKey: BrowserCheckout = { ...checkout, publishableKey: 'pk_test_not_ours' }
    expect(await createBrowserPayment(wrongKey, goodCard())).toEqual({ kind: 'rejected' })
    fake.failNext(503)
    expect(await createBrowserPayment(checkout, goodCard())).toEqual({ kind: 'unreachable' })
    const closed = { ...checkout, apiUrl: 'http://127.0.0.1:9' }
    expect(await createBrowserPayment(closed, goodCard())).toEqual({ kind: 'unreachable' })
  })

  it('STC Pay asks for the code, then pays with the right one', async () => {
    const { ctx, checkout } = await openCheckout('stcpay')
    const built = stcPaySource('0551234567')
    if (!('source' in built)) throw new Error('mobile refused')
    const step = await createBrowserPayment(checkout, built.source)
    expect(step.kind).toBe('otp')
    const otpUrl = step.kind === 'otp' ? step.url : ''
    expect(await confirmStcPay(checkout, otpUrl, '12')).toEqual({ kind: 'invalid', fields: ['otp'] })
    const done = await confirmStcPay(checkout, otpUrl, '١٢٣٤٥٦')
    const back = new URL(done.kind === 'navigate' ? done.url : '')
    expect(back.searchParams.get('status')).toBe('paid')
    expect((await settlePayment({ ...ctx, gateway: gateway(), gatewayPaymentId: checkout.body.given_id }))?.status).toBe('paid')
  })

  it('STC Pay with a wrong code fails', async () => {
    const { checkout } = await openCheckout('stcpay')
    const step = await createBrowserPayment(checkout, { type: 'stcpay', mobile: '0551234567' })
    const done = await confirmStcPay(checkout, step.kind === 'otp' ? step.url : '', '654321')
    expect(new URL(done.kind === 'navigate' ? done.url : '').searchParams.get('status')).toBe('failed')
  })

  it('Apple Pay: merchant validation through Moyasar, then a token payment paid at once', async () => {
    const { ctx, checkout } = await openCheckout('applepay')
    const session = await appleMerchantSession(
      checkout,
      'https://apple-pay-gateway.apple.com/paymentservices/startSession',
      'Hallil',
      'hallil.sa',
    )
    expect(session).toMatchObject({ domainName: 'hallil.sa' })
    await expect(
      appleMerchantSession(
        { ...checkout, publishableKey: 'pk_test_wrong' },
        'https://apple-pay-gateway.apple.com/x',
        'Hallil',
        'hallil.sa',
      ),
    ).rejects.toThrow('merchant validation failed')
    const step = await createBrowserPayment(checkout, { type: 'applepay', token: JSON.stringify({ paymentData: { version: 'EC_v1' } }) })
    expect(step.kind).toBe('navigate')
    expect(new URL(step.kind === 'navigate' ? step.url : '').searchParams.get('status')).toBe('paid')
    expect((await settlePayment({ ...ctx, gateway: gateway(), gatewayPaymentId: checkout.body.given_id }))?.status).toBe('paid')
  })

  it('reconciliation closes a checkout the browser never created after an hour, quietly', async () => {
    const { ctx, started } = await openCheckout()
    const soon = await reconcilePayments({ ...ctx, gateway: gateway(), now: new Date(Date.now() + 5 * 60_000) })
    expect(soon.settled).toBe(0)
    const later = await reconcilePayments({ ...ctx, gateway: gateway(), now: new Date(Date.now() + 2 * 60 * 60_000) })
    // Earlier tests in this file left their own open checkouts, unknown to this fresh fake.
    expect(later.settled).toBeGreaterThanOrEqual(1)
    const [row] = await ctx.db.select().from(payments).where(eq(payments.id, started.paymentId))
    expect([row?.status, row?.failureReason]).toEqual(['failed', 'abandoned'])
  })
})
