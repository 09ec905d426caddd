import { count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DomainError } from '#app/lib/errors.ts'
import { creditNotes, invoices, notifications, payments, sandboxPayments, subscriptions, users } from '#app/platform/db/schema.ts'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { loadEnv } from '#app/platform/env.server.ts'
import { metricsText } from '#app/platform/metrics.server.ts'
import { testContext } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { startMoyasarFake, type MoyasarFake } from '#tests/fakes/moyasar.ts'
import { startCheckout } from './checkout.server.ts'
import { listUserCreditNotes } from './credit-notes.server.ts'
import { gatewayFor, sandboxFor } from './gateway.server.ts'
import { SANDBOX_CARD_SUCCEEDS } from './gateways/sandbox.server.ts'
import { GatewayError, type PaymentGateway } from './gateways/types.ts'
import { refundPayment } from './refund-payment.server.ts'
import { settlePayment } from './settle-payment.server.ts'
import { currentSubscription } from './subscriptions.server.ts'
import { readZatcaQr } from './zatca-qr.ts'

// Refunds and credit notes (docs/billing.md, "Refunds and credit notes"), through the sandbox
// and through Moyasar's API on a local fake. Seeded packages: 1 Monthly 2,900 halalas + 15% VAT
// = 435 VAT, 3,335 in all; 2 Term 9,900 + 1,485 = 11,385.

const testDb = setupTestDatabase(async (db) => {
  await seedPackages({ db: db.db })
})

const SECRET = 'sk_test_refunds'
let fake: MoyasarFake
beforeAll(async () => {
  fake = await startMoyasarFake({
    secretKey: SECRET,
    publishableKey: 'pk_test_refunds',
    webhookSecret: 'refunds-webhook-secret-0123456789',
  })
})
afterAll(async () => {
  await fake.close()
})

let n = 0
async function teacher() {
  const [user] = await testDb()
    .db.insert(users)
    .values({
      username: `refund teacher ${++n}`,
      email: `refund${n}-${Date.now()}@school.sa`,
      phone: '+966551234567',
      passwordHash: 'not-used',
      emailVerifiedAt: new Date(),
    })
    .returning()
  return user!
}

/** A teacher who paid through the sandbox (card, 3-D Secure) and whose payment was settled. */
async function paidThroughSandbox(packageId = 1) {
  const user = await teacher()
  const ctx = testContext(testDb())
  const gateway = sandboxFor(ctx)
  const checkout = await startCheckout({ ...ctx, gateway, input: { userId: user.id, packageId, method: 'creditcard', lang: 'en' } })
  await gateway.submitCard(checkout.gatewayPaymentId, { number: SANDBOX_CARD_SUCCEEDS, name: 'Noura', expiry: '12/30', cvc: '123' })
  await gateway.confirm3ds(checkout.gatewayPaymentId)
  const settled = await settlePayment({
    db: ctx.db,
    gateway,
    env: ctx.env,
    logger: ctx.logger,
    gatewayPaymentId: checkout.gatewayPaymentId,
  })
  expect(settled?.status).toBe('paid')
  return { user, ctx, gateway, paymentId: checkout.paymentId, gatewayPaymentId: checkout.gatewayPaymentId }
}

function moyasarContext() {
  const base = testContext(testDb())
  const env = loadEnv({
    DATA_DIR: base.env.DATA_DIR,
    SESSION_SECRET: base.env.SESSION_SECRET,
    LOG_LEVEL: 'silent',
    PAYMENT_GATEWAY: 'moyasar',
    MOYASAR_API_URL: fake.url,
    MOYASAR_SECRET_KEY: SECRET,
    MOYASAR_PUBLISHABLE_KEY: 'pk_test_refunds',
    MOYASAR_WEBHOOK_SECRET: 'refunds-webhook-secret-0123456789',
  })
  return testContext(testDb(), { env })
}

/** A teacher who paid by card at Moyasar (the fake on loopback) and whose payment was settled. */
async function paidThroughMoyasar(packageId = 1) {
  const user = await teacher()
  const ctx = moyasarContext()
  const gateway = gatewayFor(ctx, 'en')
  const source = { type: 'creditcard' as const, name: 'Noura Alqahtani', number: '4111111111111111', month: 12, year: 2030, cvc: '123' }
  const checkout = await startCheckout({ ...ctx, gateway, input: { userId: user.id, packageId, method: 'creditcard', lang: 'en', source } })
  // The payer's browser passes 3-D Secure at the gateway.
  await fetch(checkout.redirectUrl ?? '', { redirect: 'manual' })
  const settled = await settlePayment({
    db: ctx.db,
    gateway,
    env: ctx.env,
    logger: ctx.logger,
    gatewayPaymentId: checkout.gatewayPaymentId,
  })
  expect(settled?.status).toBe('paid')
  return { user, ctx, gateway, paymentId: checkout.paymentId, gatewayPaymentId: checkout.gatewayPaymentId }
}

async function domainError(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(DomainError)
  return error as DomainError
}

async function invoiceOf(paymentId: string) {
  const [row] = await testDb().db.select().from(invoices).where(eq(invoices.paymentId, paymentId))
  return row!
}

async function creditNotesOf(paymentId: string) {
  return testDb().db.select().from(creditNotes).where(eq(creditNotes.paymentId, paymentId))
}

const refundWith = (paid: { ctx: ReturnType<typeof testContext>; gateway: PaymentGateway; paymentId: string }, now?: Date) =>
  refundPayment({ db: paid.ctx.db, gateway: paid.gateway, env: paid.ctx.env, logger: paid.ctx.logger, paymentId: paid.paymentId, now })

describe('refundPayment through the sandbox', () => {
  it('gives the money back, issues a credit note reversing the invoice, leaves the invoice as it was and ends the subscription', async () => {
    const paid = await paidThroughSandbox(2)
    const invoiceBefore = await invoiceOf(paid.paymentId)
    expect(await currentSubscription({ db: paid.ctx.db, userId: paid.user.id })).not.toBeNull()
    const now = new Date()

    const { creditNote } = await refundWith(paid, now)

    expect(creditNote.serial).toMatch(/^CN-\d{6}$/)
    expect(creditNote.invoiceId).toBe(invoiceBefore.id)
    expect(creditNote.invoiceSerial).toBe(invoiceBefore.serial)
    // Term: 9,900 + 1,485 VAT = 11,385, all negated.
    expect([creditNote.price, creditNote.vat, creditNote.total]).toEqual([-9900, -1485, -11_385])
    expect(creditNote.vatRateBp).toBe(1500)
    expect(creditNote.userId).toBe(paid.user.id)
    expect(creditNote.issuedAt.toISOString()).toBe(now.toISOString())
    expect(readZatcaQr(creditNote.qr)).toEqual([
      paid.ctx.env.SELLER_NAME_AR,
      paid.ctx.env.SELLER_VAT_NUMBER,
      now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      '-113.85',
      '-14.85',
    ])
    // The invoice is untouched: every column as it was.
    expect(await invoiceOf(paid.paymentId)).toEqual(invoiceBefore)

    const [payment] = await paid.ctx.db.select().from(payments).where(eq(payments.id, paid.paymentId))
    expect(payment?.status).toBe('refunded')
    expect(payment?.refundedAt?.toISOString()).toBe(now.toISOString())
    const [atGateway] = await paid.ctx.db.select().from(sandboxPayments).where(eq(sandboxPayments.id, paid.gatewayPaymentId))
    expect(atGateway).toMatchObject({ status: 'refunded', refundedAmount: 11_385 })
    // The subscription it bought ends at the refund, so the tools close.
    const [sub] = await paid.ctx.db.select().from(subscriptions).where(eq(subscriptions.paymentId, paid.paymentId))
    expect(sub?.endsAt.toISOString()).toBe(now.toISOString())
    expect(await currentSubscription({ db: paid.ctx.db, userId: paid.user.id, now: new Date(now.getTime() + 1) })).toBeNull()
    // The teacher is told, and sees the credit note among her own.
    const kinds = await paid.ctx.db.select({ kind: notifications.kind }).from(notifications).where(eq(notifications.userId, paid.user.id))
    expect(kinds.map((k) => k.kind)).toContain('payment_refunded')
    expect((await listUserCreditNotes({ db: paid.ctx.db, userId: paid.user.id })).map((c) => c.id)).toEqual([creditNote.id])
    // A late settlement of the refunded payment (the payer's return, a webhook) changes nothing.
    const late = await settlePayment({
      db: paid.ctx.db,
      gateway: paid.gateway,
      env: paid.ctx.env,
      logger: paid.ctx.logger,
      gatewayPaymentId: paid.gatewayPaymentId,
    })
    expect(late?.status).toBe('failed')
    const [after] = await paid.ctx.db.select().from(payments).where(eq(payments.id, paid.paymentId))
    expect(after?.status).toBe('refunded')
  })

  it('refuses a second refund of the same payment, with no second credit note', async () => {
    const paid = await paidThroughSandbox()
    await refundWith(paid)
    const again = await domainError(refundWith(paid))
    expect(again.status).toBe(409)
    expect(again.messageKey).toBe('billing.refund.errors.alreadyRefunded')
    expect(await creditNotesOf(paid.paymentId)).toHaveLength(1)
  })

  it('gives one credit note when two refunds of one payment run at once', async () => {
    const paid = await paidThroughSandbox()
    const results = await Promise.allSettled([refundWith(paid), refundWith(paid)])
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    const refused = results.find((r) => r.status === 'rejected')
    expect(refused?.status === 'rejected' && refused.reason).toMatchObject({
      status: 409,
      messageKey: 'billing.refund.errors.alreadyRefunded',
    })
    expect(await creditNotesOf(paid.paymentId)).toHaveLength(1)
  })

  it('numbers credit notes without gaps under 10 refunds at once, apart from the invoices', async () => {
    const paid = []
    for (let i = 0; i < 10; i++) paid.push(await paidThroughSandbox())
    const invoicesBefore = await testDb().db.select({ n: count() }).from(invoices)
    await Promise.all(paid.map((p) => refundWith(p)))
    const serials = (await testDb().db.select({ serial: creditNotes.serial }).from(creditNotes))
      .map((r) => Number(r.serial.slice(3)))
      .toSorted((a, b) => a - b)
    // Every credit note of this file's database, from CN-000001 on, none missing or repeated.
    expect(serials.length).toBeGreaterThanOrEqual(10)
    expect(serials).toEqual(Array.from({ length: serials.length }, (_, i) => i + 1))
    // Refunds take no invoice numbers.
    expect(await testDb().db.select({ n: count() }).from(invoices)).toEqual(invoicesBefore)
  })

  it('leaves everything as it was when the gateway fails, with a clean error', async () => {
    const paid = await paidThroughSandbox()
    const failing: PaymentGateway = Object.assign(Object.create(paid.gateway) as PaymentGateway, {
      refundPayment: () => Promise.reject(new GatewayError('connection reset', 'unavailable')),
    })
    const error = await domainError(refundWith({ ...paid, gateway: failing }))
    expect(error.status).toBe(503)
    expect(error.messageKey).toBe('billing.refund.errors.gateway')
    const [payment] = await paid.ctx.db.select().from(payments).where(eq(payments.id, paid.paymentId))
    expect(payment?.status).toBe('paid')
    expect(await creditNotesOf(paid.paymentId)).toHaveLength(0)
    expect(await currentSubscription({ db: paid.ctx.db, userId: paid.user.id })).not.toBeNull()
    // Later, with the gateway back, the refund goes through.
    expect((await refundWith(paid)).creditNote.total).toBe(-3335)
  })

  it('refuses what cannot be refunded: another gateway’s payment, an unpaid or unknown one', async () => {
    const paid = await paidThroughSandbox()
    const other = await domainError(refundWith({ ...paid, gateway: gatewayFor(moyasarContext()) }))
    expect(other).toMatchObject({ status: 409, messageKey: 'billing.refund.errors.otherGateway' })
    const user = await teacher()
    const ctx = testContext(testDb())
    const pending = await startCheckout({
      ...ctx,
      gateway: sandboxFor(ctx),
      input: { userId: user.id, packageId: 1, method: 'mada', lang: 'ar' },
    })
    expect(await domainError(refundWith({ ctx, gateway: sandboxFor(ctx), paymentId: pending.paymentId }))).toMatchObject({
      status: 409,
      messageKey: 'billing.refund.errors.notRefundable',
    })
    const unknown = { ctx, gateway: sandboxFor(ctx), paymentId: '00000000-0000-4000-8000-000000000000' }
    expect(await domainError(refundWith(unknown))).toMatchObject({ status: 404 })
    expect(await domainError(refundWith({ ...unknown, paymentId: 'not-an-id' }))).toMatchObject({ status: 404 })
  })

  it('keeps credit notes append-only, and keeps them when the account is deleted', async () => {
    const paid = await paidThroughSandbox()
    const { creditNote } = await refundWith(paid)
    const refusal = (error: unknown) => String((error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message)
    const db = paid.ctx.db
    await expect(
      db.update(creditNotes).set({ customerName: 'x' }).where(eq(creditNotes.id, creditNote.id)).catch(refusal),
    ).resolves.toContain('append-only')
    await expect(db.delete(creditNotes).where(eq(creditNotes.id, creditNote.id)).catch(refusal)).resolves.toContain('append-only')
    // The invoice it reverses stays as it was too.
    await expect(
      db.update(invoices).set({ customerName: 'x' }).where(eq(invoices.id, creditNote.invoiceId)).catch(refusal),
    ).resolves.toContain('append-only')
    await db.delete(users).where(eq(users.id, paid.user.id))
    const [kept] = await db.select().from(creditNotes).where(eq(creditNotes.id, creditNote.id))
    expect(kept?.userId).toBeNull()
    expect(kept?.serial).toBe(creditNote.serial)
  })
})

describe('refundPayment through Moyasar (local fake)', () => {
  it('refunds the whole amount with Moyasar’s Refund Payment and issues the credit note', async () => {
    const paid = await paidThroughMoyasar()
    const { creditNote } = await refundWith(paid)
    expect(fake.requests).toContainEqual({ method: 'POST', path: `/v1/payments/${paid.gatewayPaymentId}/refund` })
    const atMoyasar = fake.payments.get(paid.gatewayPaymentId)
    expect(atMoyasar?.status).toBe('refunded')
    expect(atMoyasar?.refunded).toBe(3335)
    expect(atMoyasar?.refunded_at).toBeTruthy()
    expect([creditNote.price, creditNote.vat, creditNote.total]).toEqual([-2900, -435, -3335])
    expect(creditNote.invoiceSerial).toBe((await invoiceOf(paid.paymentId)).serial)
  })

  it('counts the gateway’s failure, issues nothing and can be tried again', async () => {
    const paid = await paidThroughMoyasar()
    const failures = async () => {
      const line = (await metricsText()).body
        .split('\n')
        .find((l) => l.startsWith('hallil_payment_gateway_failures_total{gateway="moyasar",operation="refundPayment",kind="unavailable"}'))
      return Number(line?.split(' ').at(-1) ?? 0)
    }
    const before = await failures()
    fake.failNext(500)
    const error = await domainError(refundWith(paid))
    expect(error).toMatchObject({ status: 503, messageKey: 'billing.refund.errors.gateway' })
    expect(await failures()).toBe(before + 1)
    expect(fake.payments.get(paid.gatewayPaymentId)?.status).toBe('paid')
    expect(await creditNotesOf(paid.paymentId)).toHaveLength(0)
    const [payment] = await paid.ctx.db.select().from(payments).where(eq(payments.id, paid.paymentId))
    expect(payment?.status).toBe('paid')
    expect((await refundWith(paid)).creditNote.total).toBe(-3335)
  })

  it('issues the credit note when an earlier refund went through but its answer was lost', async () => {
    const paid = await paidThroughMoyasar()
    // The refund reached Moyasar, and then the connection (or the process) died.
    const lost = await fetch(`${fake.url}/v1/payments/${paid.gatewayPaymentId}/refund`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${SECRET}:`).toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 3335 }),
    })
    expect(lost.status).toBe(200)
    const { creditNote } = await refundWith(paid)
    expect(creditNote.total).toBe(-3335)
    // Moyasar gave the money back once.
    expect(fake.payments.get(paid.gatewayPaymentId)?.refunded).toBe(3335)
  })

  it('refuses a payment partly refunded at Moyasar (its dashboard): no credit note for a refund that is not whole', async () => {
    const paid = await paidThroughMoyasar()
    await fetch(`${fake.url}/v1/payments/${paid.gatewayPaymentId}/refund`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${SECRET}:`).toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 1000 }),
    })
    const error = await domainError(refundWith(paid))
    expect(error).toMatchObject({ status: 409, messageKey: 'billing.refund.errors.gateway' })
    expect(await creditNotesOf(paid.paymentId)).toHaveLength(0)
    expect(fake.payments.get(paid.gatewayPaymentId)?.refunded).toBe(1000)
  })
})
