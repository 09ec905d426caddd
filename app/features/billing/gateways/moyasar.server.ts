// The Moyasar adapter (docs/billing.md, "Gateways"), following Moyasar's API reference
// (docs.moyasar.com: Authentication, Create/Fetch Payment, Payment Status Reference, Errors,
// 3DS in a Payment, Idempotency, Webhook Reference). It never logs and never puts card data
// in an error: the card travels in the request body to Moyasar and nowhere else.
import { timingSafeEqual } from 'node:crypto'
import { z } from '#app/lib/zod.ts'
import {
  GatewayError,
  type CreatePaymentInput,
  type CreatedPayment,
  type GatewayPayment,
  type GatewayPaymentStatus,
  type PaymentGateway,
  type PaymentSource,
  type WebhookEvent,
  type BrowserCheckout,
  type GatewayRefund,
} from './types.ts'

export type MoyasarGatewayOptions = {
  /** sk_test_… or sk_live_…: HTTP Basic username, empty password. Server side only. */
  secretKey: string
  /** pk_…: the only key a browser may hold (Moyasar Form); handed to the checkout page. */
  publishableKey: string
  /** The webhook's shared secret, echoed back by Moyasar as `secret_token`. */
  webhookSecret: string
  /** https://api.moyasar.com, or a local fake in tests. */
  apiUrl: string
  fetch?: typeof fetch
  /** Per request; a timeout is reported as 'unavailable', like a 5xx. */
  timeoutMs?: number
}

export type MoyasarGateway = PaymentGateway & { readonly name: 'moyasar'; readonly publishableKey: string }

/**
 * Moyasar's statuses on the three Hallil knows. Settlement trusts only 'paid', so anything
 * that is not money collected must not map there.
 * - paid, captured: the cardholder was charged.
 * - failed, voided: nothing was (or stays) charged.
 * - refunded: the money went back. The interface has no 'refunded', and of the three values
 *   'failed' is the only safe one: 'paid' would grant a subscription for returned money and
 *   'initiated' would leave the payment pending for ever. Settlement happens once, so a
 *   payment refunded after it was settled does not undo the subscription or the invoice.
 * - initiated: created, the payer has not finished (3-D Secure, STC Pay OTP).
 * - authorized: funds held, not captured. Moyasar only authorizes when `source.manual` is
 *   true; we never send it, so a default (purchase) payment goes straight to paid. Treated as
 *   not yet paid until Moyasar reports it captured.
 * - verified: a card checked during tokenization, no charge.
 * - anything Moyasar adds later: not yet paid, never failed, until someone maps it.
 */
const statusMap: Record<string, GatewayPaymentStatus> = {
  paid: 'paid',
  captured: 'paid',
  failed: 'failed',
  voided: 'failed',
  refunded: 'failed',
  initiated: 'initiated',
  authorized: 'initiated',
  verified: 'initiated',
}

const moyasarPayment = z.object({
  id: z.string().min(1),
  status: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  /** Halalas refunded so far, and when (Moyasar's Refund Payment answers the payment itself). */
  refunded: z.number().int().nullish(),
  refunded_at: z.string().nullish(),
  source: z
    .object({
      type: z.string().optional(),
      message: z.string().nullish(),
      transaction_url: z.string().nullish(),
    })
    .passthrough()
    .nullish(),
})
type MoyasarPayment = z.infer<typeof moyasarPayment>

const moyasarError = z.object({
  type: z.string().nullish(),
  message: z.string().nullish(),
  errors: z.unknown().optional(),
})

const webhookBody = z.object({
  id: z.string().optional(),
  type: z.string(),
  secret_token: z.string(),
  live: z.boolean().optional(),
  data: z.object({ id: z.string().min(1) }).passthrough(),
})

/** payment_faild is how Moyasar's own event list spells it; both mean the payment failed. */
const webhookTypes: Record<string, WebhookEvent['type']> = {
  payment_paid: 'payment_paid',
  payment_failed: 'payment_failed',
  payment_faild: 'payment_failed',
}

/** Moyasar payment ids are UUIDs; anything else never reaches the URL path. */
const paymentIdPattern = /^[A-Za-z0-9_-]{1,100}$/

type Answer = { status: number; body: unknown }

export function createMoyasarGateway(options: MoyasarGatewayOptions): MoyasarGateway {
  const apiUrl = options.apiUrl.replace(/\/+$/, '')
  const doFetch = options.fetch ?? fetch
  const timeoutMs = options.timeoutMs ?? 15_000
  const authorization = `Basic ${Buffer.from(`${options.secretKey}:`).toString('base64')}`
  const webhookSecret = Buffer.from(options.webhookSecret, 'utf8')
  const keyMode = options.secretKey.startsWith('sk_live_') ? 'live' : options.secretKey.startsWith('sk_test_') ? 'test' : null

  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
    let response: Response
    try {
      response = await doFetch(`${apiUrl}${path}`, {
        method,
        headers: {
          authorization,
          accept: 'application/json',
          // api.moyasar.com sits behind a firewall that refuses some default client agents.
          'user-agent': 'Hallil (moyasar adapter)',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
      throw new GatewayError(timedOut ? `Moyasar did not answer within ${timeoutMs} ms` : 'Moyasar could not be reached', 'unavailable')
    }
    let text: string
    try {
      text = await response.text()
    } catch {
      throw new GatewayError('Moyasar closed the connection mid-answer', 'unavailable')
    }
    let parsed: unknown = null
    try {
      parsed = text ? JSON.parse(text) : null
    } catch {
      parsed = null
    }
    return { status: response.status, body: parsed }
  }

  /** Network trouble, 5xx and 429 are worth retrying later; other 4xx are Moyasar saying no. */
  function failure(answer: Answer, notFoundIsKind = false): GatewayError {
    const detail = describeError(answer)
    if (answer.status >= 500 || answer.status === 429) return new GatewayError(detail, 'unavailable')
    if (answer.status === 404 && notFoundIsKind) return new GatewayError(detail, 'not_found')
    return new GatewayError(detail, 'rejected')
  }

  function readPayment(answer: Answer): MoyasarPayment {
    const parsed = moyasarPayment.safeParse(answer.body)
    if (!parsed.success) throw new GatewayError(`Moyasar answered ${answer.status} with an unexpected payment`, 'unavailable')
    return parsed.data
  }

  async function fetchRaw(id: string): Promise<MoyasarPayment> {
    if (!paymentIdPattern.test(id)) throw new GatewayError('Not a Moyasar payment id', 'not_found')
    const answer = await call('GET', `/v1/payments/${encodeURIComponent(id)}`)
    if (answer.status !== 200) throw failure(answer, true)
    return readPayment(answer)
  }

  return {
    name: 'moyasar',
    publishableKey: options.publishableKey,

    async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
      if (!input.source) throw new GatewayError('Moyasar needs the payment source (card, STC Pay or token)', 'rejected')
      const answer = await call('POST', '/v1/payments', {
        // Moyasar's idempotency key; it also becomes the payment's id.
        given_id: input.idempotencyKey,
        amount: input.amount,
        currency: input.currency,
        description: input.description,
        callback_url: input.callbackUrl,
        source: sourceBody(input.source),
        metadata: input.metadata,
        // A BIN coupon would charge less than the invoice says; Hallil has none to apply.
        apply_coupon: false,
      })
      if (answer.status === 200 || answer.status === 201) return created(readPayment(answer))
      if (isGivenIdConflict(answer)) {
        // A retry of a create that already went through (e.g. after a timeout): Moyasar
        // refuses the second one, so read the first instead of failing the payer.
        const existing = await fetchExisting(input.idempotencyKey)
        if (!existing) throw failure(answer)
        if (existing.amount !== input.amount || existing.currency.toUpperCase() !== input.currency)
          throw new GatewayError('Moyasar holds a different payment under this idempotency key', 'rejected')
        return created(existing)
      }
      throw failure(answer)
    },

    browserCheckout(input): BrowserCheckout {
      return {
        apiUrl,
        publishableKey: options.publishableKey,
        body: {
          given_id: input.idempotencyKey,
          amount: input.amount,
          currency: input.currency,
          description: input.description,
          callback_url: input.callbackUrl,
          metadata: input.metadata,
        },
      }
    },

    async fetchPayment(id: string): Promise<GatewayPayment> {
      const payment = await fetchRaw(id)
      const message = payment.source?.message
      return {
        id: payment.id,
        status: statusMap[payment.status] ?? 'initiated',
        amount: payment.amount,
        currency: payment.currency.toUpperCase(),
        metadata: stringMetadata(payment.metadata),
        ...(message ? { message: scrub(message) } : {}),
      }
    },

    /**
     * Moyasar's Refund Payment: POST /v1/payments/{id}/refund with the amount in halalas (the
     * secret key), answered with the payment, now `refunded`, its `refunded` amount and
     * `refunded_at`. A second refund of a fully refunded payment is refused by Moyasar with a
     * 4xx; then the payment is read, and a refund of exactly this amount already there is the
     * answer (a retry after a timeout), anything else the refusal.
     */
    async refundPayment(id: string, amount: number): Promise<GatewayRefund> {
      if (!paymentIdPattern.test(id)) throw new GatewayError('Not a Moyasar payment id', 'not_found')
      const answer = await call('POST', `/v1/payments/${encodeURIComponent(id)}/refund`, { amount })
      if (answer.status === 200 || answer.status === 201) return refundOf(readPayment(answer), amount)
      if (answer.status >= 400 && answer.status < 500 && answer.status !== 401 && answer.status !== 404 && answer.status !== 429) {
        const existing = await fetchExisting(id)
        if (existing?.status === 'refunded' && existing.refunded === amount) return refundOf(existing, amount)
      }
      throw failure(answer, true)
    },

    verifyWebhook(body: string, _headers: Headers): WebhookEvent {
      let json: unknown
      try {
        json = JSON.parse(body)
      } catch {
        throw new GatewayError('Webhook body is not JSON', 'invalid_webhook')
      }
      const parsed = webhookBody.safeParse(json)
      if (!parsed.success) throw new GatewayError('Webhook body is not a Moyasar event', 'invalid_webhook')
      const event = parsed.data
      // Moyasar authenticates a webhook only by echoing the shared secret in the body.
      const token = Buffer.from(event.secret_token, 'utf8')
      if (token.length !== webhookSecret.length || !timingSafeEqual(token, webhookSecret))
        throw new GatewayError('Webhook secret token does not match', 'invalid_webhook')
      if (keyMode && typeof event.live === 'boolean' && event.live !== (keyMode === 'live'))
        throw new GatewayError(`A ${event.live ? 'live' : 'test'} event reached a ${keyMode} configuration`, 'invalid_webhook')
      const type = webhookTypes[event.type]
      if (!type) throw new GatewayError(`Unsupported webhook event ${event.type}`, 'invalid_webhook')
      return { paymentId: event.data.id, type }
    },
  }

  async function fetchExisting(id: string): Promise<MoyasarPayment | null> {
    try {
      return await fetchRaw(id)
    } catch (error) {
      if (error instanceof GatewayError && error.kind === 'not_found') return null
      throw error
    }
  }
}

/** Hallil refunds whole payments: anything short of the full amount refunded is not the refund asked for. */
function refundOf(payment: MoyasarPayment, amount: number): GatewayRefund {
  if (payment.status !== 'refunded' || payment.refunded !== amount)
    throw new GatewayError(`Moyasar reports ${payment.refunded ?? 0} of ${amount} refunded (${payment.status})`, 'rejected')
  const at = payment.refunded_at ? new Date(payment.refunded_at) : new Date()
  return { id: payment.id, refundedAmount: payment.refunded, refundedAt: Number.isNaN(at.getTime()) ? new Date() : at }
}

function created(payment: MoyasarPayment): CreatedPayment {
  return {
    id: payment.id,
    status: statusMap[payment.status] ?? 'initiated',
    redirectUrl: payment.source?.transaction_url || null,
  }
}

/** Exactly the fields Moyasar documents for each source type, nothing of ours besides. */
function sourceBody(source: PaymentSource) {
  switch (source.type) {
    case 'creditcard':
      return { type: 'creditcard', name: source.name, number: source.number, month: source.month, year: source.year, cvc: source.cvc }
    case 'stcpay':
      return { type: 'stcpay', mobile: source.mobile }
    case 'token':
      return { type: 'token', token: source.token }
  }
}

/**
 * Moyasar answers a reused given_id with a 400 (type `used_given_id`; older answers said
 * "Payment is already created"), not with the first payment, so both spellings are accepted.
 */
function isGivenIdConflict(answer: Answer): boolean {
  if (answer.status !== 400 && answer.status !== 409) return false
  const parsed = moyasarError.safeParse(answer.body)
  if (!parsed.success) return false
  return parsed.data.type === 'used_given_id' || /given_id|already (been )?created/i.test(parsed.data.message ?? '')
}

function describeError(answer: Answer): string {
  const parsed = moyasarError.safeParse(answer.body)
  if (!parsed.success || !parsed.data.message) return `Moyasar answered ${answer.status}`
  const { message, errors } = parsed.data
  let details = ''
  if (typeof errors === 'string') details = errors
  else if (errors && typeof errors === 'object')
    details = Object.entries(errors)
      .map(([field, problems]) => `${field} ${Array.isArray(problems) ? problems.join(', ') : String(problems)}`)
      .join('; ')
  return scrub(`Moyasar answered ${answer.status}: ${message}${details ? ` (${details})` : ''}`)
}

/** A second line of defence: no run of digits as long as a card number leaves the adapter. */
function scrub(text: string): string {
  return text.replace(/\d[\d -]{10,21}\d/g, (run) => (run.replace(/\D/g, '').length >= 12 ? '[redacted]' : run))
}

function stringMetadata(metadata: Record<string, unknown> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(metadata ?? {})) if (value !== null && value !== undefined) out[key] = String(value)
  return out
}
