import { createHmac, randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { sandboxPayments } from '#app/platform/db/schema.ts'
import { constantTimeEqual } from '#app/platform/crypto.server.ts'
import type { Logger } from '#app/platform/logger.server.ts'
import { GatewayError, type PaymentGateway, type WebhookEvent } from './types.ts'

// The published test cards (docs/billing.md): the first succeeds, the second fails after 3-D Secure.
export const SANDBOX_CARD_SUCCEEDS = '4111111111111111'
export const SANDBOX_CARD_FAILS = '4000000000000002'

export type SandboxGateway = PaymentGateway & {
  /** The card step of the sandbox's page: test cards only; then the 3-D Secure step. */
  submitCard(id: string, card: { number: string; name: string; expiry: string; cvc: string }, now?: Date): Promise<'awaiting_3ds'>
  /** The 3-D Secure step: the payment ends paid or failed; returns where the payer goes next. */
  confirm3ds(id: string): Promise<string>
  find(id: string): Promise<typeof sandboxPayments.$inferSelect | null>
}

export type SandboxCardError = 'card' | 'name' | 'expiry' | 'cvc'
export class SandboxCardRejected extends Error {
  constructor(public readonly field: SandboxCardError) {
    super(`sandbox card rejected: ${field}`)
  }
}

/** The sandbox webhook's secret, derived from the session secret so nothing else needs configuring. */
export function sandboxWebhookSecret(sessionSecret: string): string {
  return createHmac('sha256', sessionSecret).update('sandbox-webhook').digest('base64url')
}

export function createSandboxGateway(options: {
  db: Db
  appUrl: string
  sessionSecret: string
  logger: Logger
  lang?: 'ar' | 'en'
}): SandboxGateway {
  const { db, appUrl, logger } = options
  const secret = sandboxWebhookSecret(options.sessionSecret)

  const find = async (id: string) => {
    const [row] = await db.select().from(sandboxPayments).where(eq(sandboxPayments.id, id)).limit(1)
    return row ?? null
  }

  const sendWebhook = async (id: string, type: WebhookEvent['type']) => {
    try {
      const response = await fetch(`${appUrl}/api/v1/payments/webhook/sandbox`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: randomUUID(), type, secret_token: secret, data: { id } }),
        signal: AbortSignal.timeout(10_000),
      })
      if (!response.ok) logger.warn({ status: response.status }, 'sandbox webhook answered with an error')
    } catch {
      // Like a real gateway, the webhook may not arrive; the callback and reconciliation settle anyway.
      logger.warn('sandbox webhook could not be delivered')
    }
  }

  return {
    name: 'sandbox',
    async createPayment(input) {
      const [existing] = await db.select().from(sandboxPayments).where(eq(sandboxPayments.givenId, input.idempotencyKey)).limit(1)
      if (existing)
        return { id: existing.id, status: 'initiated', redirectUrl: `${appUrl}/${options.lang ?? 'ar'}/sandbox-pay?id=${existing.id}` }
      const id = `sbx_${randomUUID()}`
      await db.insert(sandboxPayments).values({
        id,
        givenId: input.idempotencyKey,
        amount: input.amount,
        currency: input.currency,
        description: input.description,
        callbackUrl: input.callbackUrl,
        metadata: input.metadata,
      })
      return { id, status: 'initiated', redirectUrl: `${appUrl}/${options.lang ?? 'ar'}/sandbox-pay?id=${id}` }
    },
    async fetchPayment(id) {
      const row = await find(id)
      if (!row) throw new GatewayError('payment not found', 'not_found')
      return {
        id: row.id,
        // A refunded payment is no longer money collected: 'failed', as the Moyasar adapter maps it.
        status: row.status === 'paid' ? 'paid' : row.status === 'failed' || row.status === 'refunded' ? 'failed' : 'initiated',
        amount: row.amount,
        currency: row.currency,
        metadata: row.metadata,
        message: row.message ?? undefined,
      }
    },
    async refundPayment(id, amount) {
      // One statement decides: only a paid payment of exactly this amount becomes refunded, so two
      // refunds at once cannot both give the money back.
      const now = new Date()
      const [refunded] = await db
        .update(sandboxPayments)
        .set({ status: 'refunded', refundedAmount: amount, refundedAt: now })
        .where(and(eq(sandboxPayments.id, id), eq(sandboxPayments.status, 'paid'), eq(sandboxPayments.amount, amount)))
        .returning()
      const row = refunded ?? (await find(id))
      if (!row) throw new GatewayError('payment not found', 'not_found')
      // Asked again after it went through: the same refund, not a second one.
      if (row.status === 'refunded' && row.refundedAmount === amount && row.refundedAt)
        return { id: row.id, refundedAmount: row.refundedAmount, refundedAt: row.refundedAt }
      if (row.amount !== amount) throw new GatewayError('a refund is of the whole amount', 'rejected')
      throw new GatewayError(`a ${row.status} payment cannot be refunded`, 'rejected')
    },
    verifyWebhook(body) {
      let parsed: { type?: unknown; secret_token?: unknown; data?: { id?: unknown } | null } | null
      try {
        parsed = JSON.parse(body) as typeof parsed
      } catch {
        throw new GatewayError('webhook is not JSON', 'invalid_webhook')
      }
      // `null`, a number or a list is JSON too, and no event.
      if (typeof parsed !== 'object' || parsed === null) throw new GatewayError('webhook is not an event', 'invalid_webhook')
      if (typeof parsed.secret_token !== 'string' || !constantTimeEqual(parsed.secret_token, secret))
        throw new GatewayError('webhook secret mismatch', 'invalid_webhook')
      if (typeof parsed.data?.id !== 'string' || !parsed.data.id || (parsed.type !== 'payment_paid' && parsed.type !== 'payment_failed'))
        throw new GatewayError('webhook event not understood', 'invalid_webhook')
      return { paymentId: parsed.data.id, type: parsed.type }
    },
    async submitCard(id, card, now = new Date()) {
      const row = await find(id)
      if (!row || row.status !== 'initiated') throw new GatewayError('payment not payable', 'not_found')
      const number = card.number.replace(/[\s-]/g, '')
      if (number !== SANDBOX_CARD_SUCCEEDS && number !== SANDBOX_CARD_FAILS) throw new SandboxCardRejected('card')
      if (!card.name.trim()) throw new SandboxCardRejected('name')
      const expiry = /^(\d{2})\s*\/\s*(\d{2})$/.exec(card.expiry.trim())
      const month = Number(expiry?.[1])
      const year = 2000 + Number(expiry?.[2])
      const endOfMonth = new Date(Date.UTC(year, month, 1))
      if (!expiry || month < 1 || month > 12 || endOfMonth <= now) throw new SandboxCardRejected('expiry')
      if (!/^\d{3,4}$/.test(card.cvc.trim())) throw new SandboxCardRejected('cvc')
      await db
        .update(sandboxPayments)
        .set({ status: 'awaiting_3ds', cardLast4: number.slice(-4) })
        .where(eq(sandboxPayments.id, id))
      return 'awaiting_3ds'
    },
    async confirm3ds(id) {
      const row = await find(id)
      if (!row || row.status !== 'awaiting_3ds') throw new GatewayError('payment not awaiting 3-D Secure', 'not_found')
      const paid = row.cardLast4 === SANDBOX_CARD_SUCCEEDS.slice(-4)
      const status = paid ? 'paid' : 'failed'
      const message = paid ? 'APPROVED' : 'DECLINED: insufficient funds'
      await db.update(sandboxPayments).set({ status, message }).where(eq(sandboxPayments.id, id))
      void sendWebhook(id, paid ? 'payment_paid' : 'payment_failed')
      const url = new URL(row.callbackUrl)
      url.searchParams.set('id', id)
      url.searchParams.set('status', status)
      url.searchParams.set('message', message)
      return url.toString()
    },
    find,
  }
}
