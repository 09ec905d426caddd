import { count, eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { invoices, notifications, payments, sandboxPayments, subscriptions, users } from '#app/platform/db/schema.ts'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { hashPassword } from '#app/features/accounts/index.server.ts'
import { testContext } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { startCheckout } from './checkout.server.ts'
import { sandboxFor } from './gateway.server.ts'
import { SANDBOX_CARD_FAILS, SANDBOX_CARD_SUCCEEDS } from './gateways/sandbox.server.ts'
import { invoiceDocumentOf, invoiceToJson } from './invoices.server.ts'
import { reconcilePayments, settlePayment } from './settle-payment.server.ts'
import { currentSubscription, requireSubscription } from './subscriptions.server.ts'
import { readZatcaQr } from './zatca-qr.ts'

const testDb = setupTestDatabase(async (db) => {
  await seedPackages({ db: db.db })
})

let n = 0
async function teacher() {
  const [user] = await testDb()
    .db.insert(users)
    .values({
      username: `teacher ${++n}`,
      email: `t${n}-${Date.now()}@example.sa`,
      phone: '+966551234567',
      passwordHash: await hashPassword('x'),
      emailVerifiedAt: new Date(),
    })
    .returning()
  return user!
}

/** Pays through the sandbox as a teacher would: checkout, card, 3-D Secure. */
async function pay(userId: string, card = SANDBOX_CARD_SUCCEEDS, packageId = 1) {
  const ctx = testContext(testDb())
  const gateway = sandboxFor(ctx)
  const checkout = await startCheckout({ ...ctx, gateway, input: { userId, packageId, method: 'creditcard', lang: 'en' } })
  await gateway.submitCard(checkout.gatewayPaymentId, { number: card, name: 'Noura', expiry: '12/30', cvc: '123' })
  const callback = new URL(await gateway.confirm3ds(checkout.gatewayPaymentId))
  return { ctx, gateway, checkout, callback }
}

describe('settlePayment', () => {
  it('pays, starts the subscription, issues one invoice and notifies, once whatever the calls', async () => {
    const user = await teacher()
    const { ctx, gateway, checkout, callback } = await pay(user.id)
    expect(callback.searchParams.get('id')).toBe(checkout.gatewayPaymentId)
    expect(callback.searchParams.get('status')).toBe('paid')
    const settle = () =>
      settlePayment({ db: ctx.db, gateway, env: ctx.env, logger: ctx.logger, gatewayPaymentId: checkout.gatewayPaymentId })
    // The callback, the webhook and retries, in any order, some at once.
    const results = await Promise.all([settle(), settle(), settle()])
    const again = await settle()
    for (const r of [...results, again]) expect(r?.status).toBe('paid')
    expect(new Set([...results, again].map((r) => r?.invoiceId)).size).toBe(1)
    const subs = await ctx.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id))
    const invs = await ctx.db.select().from(invoices).where(eq(invoices.userId, user.id))
    expect(subs).toHaveLength(1)
    expect(invs).toHaveLength(1)
    const [notes] = await ctx.db.select({ n: count() }).from(notifications).where(eq(notifications.userId, user.id))
    expect(notes?.n).toBe(1)
    expect(await currentSubscription({ db: ctx.db, userId: user.id })).not.toBeNull()
    const invoice = invs[0]!
    expect(invoice.total).toBe(invoice.price + invoice.vat)
    expect(readZatcaQr(invoice.qr)).toEqual([
      ctx.env.SELLER_NAME_AR,
      ctx.env.SELLER_VAT_NUMBER,
      invoice.issuedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      (invoice.total / 100).toFixed(2),
      (invoice.vat / 100).toFixed(2),
    ])
  })

  it('refuses a second subscription while one is current', async () => {
    const user = await teacher()
    const { ctx, gateway, checkout } = await pay(user.id)
    await settlePayment({ db: ctx.db, gateway, env: ctx.env, logger: ctx.logger, gatewayPaymentId: checkout.gatewayPaymentId })
    await expect(
      startCheckout({ ...ctx, gateway, input: { userId: user.id, packageId: 2, method: 'mada', lang: 'ar' } }),
    ).rejects.toMatchObject({
      status: 409,
      messageKey: 'billing.errors.alreadySubscribed',
    })
  })

  it('offers only the configured payment methods', async () => {
    const user = await teacher()
    const ctx = testContext(testDb())
    const limited = { ...ctx, env: { ...ctx.env, PAYMENT_METHODS: ['mada' as const] } }
    await expect(
      startCheckout({ ...limited, gateway: sandboxFor(limited), input: { userId: user.id, packageId: 1, method: 'stcpay', lang: 'en' } }),
    ).rejects.toMatchObject({ status: 422, fields: { method: ['billing.errors.method'] } })
  })

  it('marks a declined card failed, with no subscription or invoice', async () => {
    const user = await teacher()
    const { ctx, gateway, checkout, callback } = await pay(user.id, SANDBOX_CARD_FAILS)
    expect(callback.searchParams.get('status')).toBe('failed')
    const result = await settlePayment({
      db: ctx.db,
      gateway,
      env: ctx.env,
      logger: ctx.logger,
      gatewayPaymentId: checkout.gatewayPaymentId,
    })
    expect(result?.status).toBe('failed')
    expect(await ctx.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id))).toHaveLength(0)
    expect(await ctx.db.select().from(invoices).where(eq(invoices.userId, user.id))).toHaveLength(0)
    await expect(requireSubscription({ db: ctx.db, userId: user.id })).rejects.toMatchObject({
      status: 403,
      messageKey: 'billing.errors.notSubscribed',
    })
  })

  it('does not trust a gateway payment whose amount differs', async () => {
    const user = await teacher()
    const { ctx, gateway, checkout } = await pay(user.id)
    await ctx.db.update(sandboxPayments).set({ amount: 100 }).where(eq(sandboxPayments.id, checkout.gatewayPaymentId))
    const result = await settlePayment({
      db: ctx.db,
      gateway,
      env: ctx.env,
      logger: ctx.logger,
      gatewayPaymentId: checkout.gatewayPaymentId,
    })
    expect(result?.status).toBe('failed')
    expect(await ctx.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id))).toHaveLength(0)
  })

  it('gives gap-free serials under 20 concurrent settlements', async () => {
    const paid = await Promise.all(Array.from({ length: 20 }, async () => pay((await teacher()).id)))
    const { ctx, gateway } = paid[0]!
    const before = await ctx.db.select({ serial: invoices.serial }).from(invoices)
    await Promise.all(
      paid.map((p) =>
        settlePayment({ db: ctx.db, gateway, env: ctx.env, logger: ctx.logger, gatewayPaymentId: p.checkout.gatewayPaymentId }),
      ),
    )
    const serials = (await ctx.db.select({ serial: invoices.serial }).from(invoices))
      .map((r) => Number(r.serial.slice(4)))
      .toSorted((a, b) => a - b)
    expect(serials).toHaveLength(before.length + 20)
    expect(serials).toEqual(Array.from({ length: serials.length }, (_, i) => i + 1))
  })

  it('reconciliation settles a payment whose payer never came back', async () => {
    const user = await teacher()
    const { ctx, gateway, checkout } = await pay(user.id)
    await ctx.db
      .update(payments)
      .set({ createdAt: sql`now() - interval '10 minutes'` })
      .where(eq(payments.id, checkout.paymentId))
    const result = await reconcilePayments({ db: ctx.db, gateway, env: ctx.env, logger: ctx.logger })
    expect(result.settled).toBeGreaterThanOrEqual(1)
    expect(await currentSubscription({ db: ctx.db, userId: user.id })).not.toBeNull()
  })

  it('keeps invoices append-only, and keeps them when the account is deleted', async () => {
    const user = await teacher()
    const { ctx, gateway, checkout } = await pay(user.id)
    const settled = await settlePayment({
      db: ctx.db,
      gateway,
      env: ctx.env,
      logger: ctx.logger,
      gatewayPaymentId: checkout.gatewayPaymentId,
    })
    const refusal = (error: unknown) => String((error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message)
    await expect(ctx.db.update(invoices).set({ total: 1 }).where(eq(invoices.id, settled!.invoiceId!)).catch(refusal)).resolves.toContain(
      'append-only',
    )
    await expect(ctx.db.delete(invoices).where(eq(invoices.id, settled!.invoiceId!)).catch(refusal)).resolves.toContain('append-only')
    await ctx.db.delete(users).where(eq(users.id, user.id))
    const [kept] = await ctx.db.select().from(invoices).where(eq(invoices.id, settled!.invoiceId!))
    expect(kept?.userId).toBeNull()
    expect(kept?.customerName).toBe(user.username)
  })

  it('names the customer by her full name in the invoice’s language as it was at issue, else by the username', async () => {
    const user = await teacher()
    await testDb().db.update(users).set({ fullNameAr: 'نورة بنت سعد العتيبي', fullNameEn: null }).where(eq(users.id, user.id))
    const { ctx, gateway, checkout } = await pay(user.id)
    const settled = await settlePayment({
      db: ctx.db,
      gateway,
      env: ctx.env,
      logger: ctx.logger,
      gatewayPaymentId: checkout.gatewayPaymentId,
    })
    // A later change of name leaves the issued invoice as it was.
    await ctx.db.update(users).set({ fullNameAr: 'اسم آخر', fullNameEn: 'Another Name' }).where(eq(users.id, user.id))
    const [issued] = await ctx.db.select().from(invoices).where(eq(invoices.id, settled!.invoiceId!))
    expect(issued).toMatchObject({ customerName: user.username, customerNameAr: 'نورة بنت سعد العتيبي', customerNameEn: null })
    expect(invoiceToJson(issued!, 'ar').customer_name).toBe('نورة بنت سعد العتيبي')
    // No English name was given: the English side has the username.
    expect(invoiceToJson(issued!, 'en').customer_name).toBe(user.username)
    expect(invoiceDocumentOf(issued!)).toMatchObject({
      customerName: user.username,
      customerNameAr: 'نورة بنت سعد العتيبي',
      customerNameEn: null,
    })
  })

  it('moves a subscription to expired at its end', async () => {
    const user = await teacher()
    const { ctx, gateway, checkout } = await pay(user.id)
    await settlePayment({ db: ctx.db, gateway, env: ctx.env, logger: ctx.logger, gatewayPaymentId: checkout.gatewayPaymentId })
    const [sub] = await ctx.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id))
    expect(await currentSubscription({ db: ctx.db, userId: user.id, now: new Date(sub!.endsAt.getTime() - 1000) })).not.toBeNull()
    expect(await currentSubscription({ db: ctx.db, userId: user.id, now: sub!.endsAt })).toBeNull()
  })
})

describe('subscription notifications', () => {
  it('says "ends in 7 days" and "has ended" once each', async () => {
    const { notifySubscriptionEndings } = await import('./subscriptions.server.ts')
    const user = await teacher()
    const { ctx, gateway, checkout } = await pay(user.id)
    await settlePayment({ db: ctx.db, gateway, env: ctx.env, logger: ctx.logger, gatewayPaymentId: checkout.gatewayPaymentId })
    const [sub] = await ctx.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id))
    const sixDaysBefore = new Date(sub!.endsAt.getTime() - 6 * 24 * 3600 * 1000)
    await notifySubscriptionEndings({ db: ctx.db, now: sixDaysBefore })
    await notifySubscriptionEndings({ db: ctx.db, now: sixDaysBefore })
    const afterEnd = new Date(sub!.endsAt.getTime() + 3600 * 1000)
    await notifySubscriptionEndings({ db: ctx.db, now: afterEnd })
    await notifySubscriptionEndings({ db: ctx.db, now: afterEnd })
    const kinds = (await ctx.db.select({ kind: notifications.kind }).from(notifications).where(eq(notifications.userId, user.id)))
      .map((r) => r.kind)
      .toSorted()
    expect(kinds).toEqual(['payment_succeeded', 'subscription_ended', 'subscription_ending'])
  })
})
