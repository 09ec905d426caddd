import { and, desc, eq, gt, lt, sql } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { invoiceCounters, invoices, notifications, packages, payments, subscriptions, users } from '#app/platform/db/schema.ts'
import type { Env } from '#app/platform/env.server.ts'
import type { Logger } from '#app/platform/logger.server.ts'
import { addCalendarMonths } from './calendar.ts'
import { GatewayError, type PaymentGateway } from './gateways/types.ts'
import { halalasToDecimal, zatcaQr } from './zatca-qr.ts'

export type SettleOptions = { db: Db; gateway: PaymentGateway; env: Env; logger: Logger; gatewayPaymentId: string; now?: Date }
export type SettleResult = { paymentId: string; status: 'paid' | 'failed' | 'initiated'; subscriptionId?: string; invoiceId?: string }

const SELLER = 'hallil'

/**
 * Settles a payment, whoever calls (the payer's return, the webhook, reconciliation), in any
 * order and any number of times: the gateway is asked for the truth, the amount and currency
 * are checked, and one transaction marks it paid, starts the subscription, issues the invoice
 * and notifies. Unique keys (a subscription and an invoice per payment) make it exactly once.
 */
export async function settlePayment({
  db,
  gateway,
  env,
  logger,
  gatewayPaymentId,
  now = new Date(),
}: SettleOptions): Promise<SettleResult | null> {
  const [local] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.gateway, gateway.name), eq(payments.gatewayPaymentId, gatewayPaymentId)))
    .limit(1)
  if (!local) {
    logger.warn({ gateway: gateway.name }, 'settlement for an unknown payment')
    return null
  }
  const remote = await gateway.fetchPayment(gatewayPaymentId)
  const matches =
    remote.amount === local.total &&
    remote.currency === local.currency &&
    (!remote.metadata.payment_id || remote.metadata.payment_id === local.id)
  if (!matches) {
    logger.error({ paymentId: local.id }, 'gateway payment does not match: amount, currency or metadata differ')
    await markFailed(db, local.id, 'amount_mismatch', now)
    return { paymentId: local.id, status: 'failed' }
  }
  if (remote.status === 'initiated') return { paymentId: local.id, status: 'initiated' }
  if (remote.status === 'failed') {
    await markFailed(db, local.id, remote.message ?? 'failed', now)
    return { paymentId: local.id, status: 'failed' }
  }

  return db.transaction(async (tx) => {
    // One settler at a time per payment; a later one finds it paid and returns what exists.
    const [locked] = await tx.select().from(payments).where(eq(payments.id, local.id)).for('update')
    if (!locked) throw new Error('payment disappeared')
    // Refunded after it was settled: settlement is over for it (a late return or webhook changes nothing).
    if (locked.status === 'refunded') return { paymentId: locked.id, status: 'failed' as const }
    if (locked.status === 'paid') {
      const [sub] = await tx.select({ id: subscriptions.id }).from(subscriptions).where(eq(subscriptions.paymentId, locked.id))
      const [inv] = await tx.select({ id: invoices.id }).from(invoices).where(eq(invoices.paymentId, locked.id))
      return { paymentId: locked.id, status: 'paid' as const, subscriptionId: sub?.id, invoiceId: inv?.id }
    }
    await tx.update(payments).set({ status: 'paid', settledAt: now, failureReason: null }).where(eq(payments.id, locked.id))

    const [pkg] = await tx.select().from(packages).where(eq(packages.id, locked.packageId))
    if (!pkg) throw new Error('package of a payment is missing')
    const userId = locked.userId
    if (!userId) throw new Error('the account of a paid payment was deleted before settlement')
    // Two checkouts paid back to back: the second starts when the first ends, so nothing paid is lost.
    const [latest] = await tx
      .select({ endsAt: subscriptions.endsAt })
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, userId), gt(subscriptions.endsAt, now)))
      .orderBy(desc(subscriptions.endsAt))
      .limit(1)
    const startsAt = latest ? latest.endsAt : now
    const [subscription] = await tx
      .insert(subscriptions)
      .values({ userId, packageId: pkg.id, paymentId: locked.id, startsAt, endsAt: addCalendarMonths(startsAt, pkg.months) })
      .returning({ id: subscriptions.id })

    // The serial comes from the counter row, locked by this update until the transaction ends:
    // concurrent settlements wait, and a rolled-back one gives its number back. No gaps.
    const [counter] = await tx
      .insert(invoiceCounters)
      .values({ seller: SELLER, lastSerial: 1 })
      .onConflictDoUpdate({ target: invoiceCounters.seller, set: { lastSerial: sql`${invoiceCounters.lastSerial} + 1` } })
      .returning({ lastSerial: invoiceCounters.lastSerial })
    const serial = `INV-${String(counter?.lastSerial ?? 0).padStart(6, '0')}`
    // The customer as the account names her now, kept with the invoice (which never changes).
    const [customer] = await tx
      .select({ username: users.username, fullNameAr: users.fullNameAr, fullNameEn: users.fullNameEn })
      .from(users)
      .where(eq(users.id, userId))
    const issuedAt = now
    const qr = zatcaQr({
      sellerName: env.SELLER_NAME_AR,
      vatNumber: env.SELLER_VAT_NUMBER,
      timestamp: issuedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      total: halalasToDecimal(locked.total),
      vat: halalasToDecimal(locked.vat),
    })
    const [invoice] = await tx
      .insert(invoices)
      .values({
        serial,
        seller: SELLER,
        paymentId: locked.id,
        userId,
        issuedAt,
        sellerNameAr: env.SELLER_NAME_AR,
        sellerNameEn: env.SELLER_NAME_EN,
        sellerAddressAr: env.SELLER_ADDRESS_AR,
        sellerAddressEn: env.SELLER_ADDRESS_EN,
        sellerVatNumber: env.SELLER_VAT_NUMBER,
        customerName: customer?.username ?? '',
        customerNameAr: customer?.fullNameAr ?? null,
        customerNameEn: customer?.fullNameEn ?? null,
        packageNameAr: pkg.nameAr,
        packageNameEn: pkg.nameEn,
        months: pkg.months,
        price: locked.price,
        vatRateBp: locked.vatRateBp,
        vat: locked.vat,
        total: locked.total,
        paymentMethod: locked.method,
        qr,
      })
      .returning({ id: invoices.id })
    await tx
      .insert(notifications)
      .values({ userId, kind: 'payment_succeeded', params: { package: pkg.nameEn, packageAr: pkg.nameAr, serial } })
    return { paymentId: locked.id, status: 'paid' as const, subscriptionId: subscription?.id, invoiceId: invoice?.id }
  })
}

async function markFailed(db: Db, paymentId: string, reason: string, now: Date, notify = true) {
  const changed = await db
    .update(payments)
    .set({ status: 'failed', failureReason: reason.slice(0, 200), settledAt: now })
    .where(and(eq(payments.id, paymentId), eq(payments.status, 'initiated')))
    .returning({ userId: payments.userId })
  const userId = changed[0]?.userId
  if (userId && notify) await db.insert(notifications).values({ userId, kind: 'payment_failed', params: {} })
}

const ABANDONED_AFTER_MS = 60 * 60 * 1000

/**
 * Settles payments left `initiated` whose gateway status may have changed (a payer who closed
 * the tab, a lost webhook). Run at start-up and by `npm run admin -- payments:reconcile`.
 */
export async function reconcilePayments(options: Omit<SettleOptions, 'gatewayPaymentId'> & { olderThanMs?: number }) {
  const now = options.now ?? new Date()
  const pending = await options.db
    .select({ id: payments.id, gatewayPaymentId: payments.gatewayPaymentId, createdAt: payments.createdAt })
    .from(payments)
    .where(
      and(
        eq(payments.gateway, options.gateway.name),
        eq(payments.status, 'initiated'),
        lt(payments.createdAt, new Date(now.getTime() - (options.olderThanMs ?? 60_000))),
      ),
    )
  let settled = 0
  for (const p of pending) {
    if (!p.gatewayPaymentId) continue
    try {
      const result = await settlePayment({ ...options, gatewayPaymentId: p.gatewayPaymentId, now })
      if (result && result.status !== 'initiated') settled++
    } catch (error) {
      // A payment the payer's browser never created at the gateway (the page was left): after
      // an hour nothing can arrive any more, so it stops being pending.
      if (error instanceof GatewayError && error.kind === 'not_found' && now.getTime() - p.createdAt.getTime() > ABANDONED_AFTER_MS) {
        await markFailed(options.db, p.id, 'abandoned', now, false)
        settled++
        continue
      }
      options.logger.warn({ err: error instanceof Error ? error.message : 'unknown' }, 'reconciliation could not settle a payment')
    }
  }
  return { checked: pending.length, settled }
}
