import { and, eq } from 'drizzle-orm'
import type { Lang } from '#app/i18n/config.ts'
import { DomainError } from '#app/lib/errors.ts'
import type { RequestContext } from '#app/platform/context.server.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { packages, payments } from '#app/platform/db/schema.ts'
import { GatewayError, type PaymentGateway, type PaymentMethod, type PaymentSource } from './gateways/types.ts'
import { currentSubscription } from './subscriptions.server.ts'
import { priceBreakdown } from './vat.ts'
import { isUuid } from '#app/lib/ids.ts'

export type CheckoutContext = Pick<RequestContext, 'db' | 'env' | 'logger'>

export type StartCheckoutOptions = CheckoutContext & {
  gateway: PaymentGateway
  input: { userId: string; packageId: number; method: PaymentMethod; lang: Lang; source?: PaymentSource }
}

/**
 * Starts paying for a package: refused while a subscription is current (409), otherwise a
 * pending payment with its own idempotency key, then the gateway's payment. Returns where
 * the payer goes next.
 */
export async function startCheckout({ gateway, input, ...ctx }: StartCheckoutOptions) {
  if (!ctx.env.PAYMENT_METHODS.includes(input.method))
    throw new DomainError(422, 'billing.errors.method', { method: ['billing.errors.method'] })
  if (await currentSubscription({ db: ctx.db, userId: input.userId })) throw new DomainError(409, 'billing.errors.alreadySubscribed')
  const [pkg] = await ctx.db
    .select()
    .from(packages)
    .where(and(eq(packages.id, input.packageId), eq(packages.isActive, true)))
    .limit(1)
  if (!pkg) throw new DomainError(404, 'billing.errors.packageNotFound')
  const amounts = priceBreakdown(pkg.priceHalalas, ctx.env.VAT_RATE_BP)
  const [payment] = await ctx.db
    .insert(payments)
    .values({
      userId: input.userId,
      packageId: pkg.id,
      gateway: gateway.name,
      method: input.method,
      price: amounts.price,
      vatRateBp: ctx.env.VAT_RATE_BP,
      vat: amounts.vat,
      total: amounts.total,
    })
    .returning()
  if (!payment) throw new Error('payment insert returned no row')
  const request = paymentRequest(ctx.env, pkg, payment, input.lang)
  if (!input.source && gateway.browserCheckout) {
    // The payer's browser creates the payment at the gateway with our idempotency key as its
    // id (Moyasar's given_id), so the card never passes through this server.
    await ctx.db.update(payments).set({ gatewayPaymentId: payment.idempotencyKey }).where(eq(payments.id, payment.id))
    return {
      paymentId: payment.id,
      gatewayPaymentId: payment.idempotencyKey,
      redirectUrl: `/${input.lang}/payments/pay/${payment.id}`,
      status: 'initiated' as const,
    }
  }
  try {
    const created = await gateway.createPayment({ ...request, method: input.method, source: input.source })
    await ctx.db.update(payments).set({ gatewayPaymentId: created.id }).where(eq(payments.id, payment.id))
    return { paymentId: payment.id, gatewayPaymentId: created.id, redirectUrl: created.redirectUrl, status: created.status }
  } catch (error) {
    const reason = error instanceof GatewayError ? error.kind : 'error'
    await ctx.db
      .update(payments)
      .set({ status: 'failed', failureReason: `create: ${reason}` })
      .where(eq(payments.id, payment.id))
    if (error instanceof GatewayError) {
      ctx.logger.warn({ kind: error.kind, paymentId: payment.id }, 'gateway refused to create a payment')
      throw new DomainError(error.kind === 'unavailable' ? 503 : 422, 'billing.errors.subscriptionFailed')
    }
    throw error
  }
}

export type FindUserPaymentOptions = { db: Db; userId: string; paymentId: string }

/** The payment of a teacher, by our id; another teacher's id is "not found". */
export async function findUserPayment({ db, userId, paymentId }: FindUserPaymentOptions) {
  if (!isUuid(paymentId)) return null
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.userId, userId)))
    .limit(1)
  return row ?? null
}

type PaymentRow = typeof payments.$inferSelect
type PackageRow = typeof packages.$inferSelect

/** The gateway request of a payment, the same whether this server or the payer's browser sends it. */
function paymentRequest(env: CheckoutContext['env'], pkg: PackageRow, payment: PaymentRow, lang: Lang) {
  return {
    amount: payment.total,
    currency: 'SAR' as const,
    description: `Hallil — ${pkg.nameEn} (${pkg.months} months)`,
    callbackUrl: `${env.APP_URL}/${lang}/payments/callback`,
    idempotencyKey: payment.idempotencyKey,
    metadata: { payment_id: payment.id },
  }
}

export type BrowserCheckoutForOptions = CheckoutContext & {
  gateway: PaymentGateway
  input: { userId: string; paymentId: string; lang: Lang }
}

/**
 * The payer's side of a browser-created payment: the teacher's own payment, still open, with
 * what their browser sends to the gateway. Null when there is nothing left to pay here.
 */
export async function browserCheckoutFor({ gateway, input, ...ctx }: BrowserCheckoutForOptions) {
  const payment = await findUserPayment({ db: ctx.db, userId: input.userId, paymentId: input.paymentId })
  if (!payment || !gateway.browserCheckout || payment.gateway !== gateway.name) return { payment, checkout: null }
  if (payment.status !== 'initiated') return { payment, checkout: null }
  const [pkg] = await ctx.db.select().from(packages).where(eq(packages.id, payment.packageId)).limit(1)
  if (!pkg) return { payment, checkout: null }
  return { payment, pkg, checkout: gateway.browserCheckout(paymentRequest(ctx.env, pkg, payment, input.lang)) }
}

export type FindUserPaymentByGatewayIdOptions = { db: Db; userId: string; gateway: PaymentGateway['name']; gatewayPaymentId: string }

/** The payment of a teacher by the gateway's id (the payer's return carries only that). */
export async function findUserPaymentByGatewayId({ db, userId, gateway, gatewayPaymentId }: FindUserPaymentByGatewayIdOptions) {
  if (!gatewayPaymentId || gatewayPaymentId.length > 200) return null
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.gateway, gateway), eq(payments.gatewayPaymentId, gatewayPaymentId), eq(payments.userId, userId)))
    .limit(1)
  return row ?? null
}
