// One interface for every payment gateway (docs/billing.md): create a payment, fetch it, verify a webhook.

export type PaymentMethod = 'mada' | 'creditcard' | 'applepay' | 'stcpay'
export type GatewayPaymentStatus = 'initiated' | 'paid' | 'failed'

/** Card details typed on the checkout page: passed straight to the gateway, never stored or logged. */
export type CardSource = { type: 'creditcard'; name: string; number: string; month: number; year: number; cvc: string }
export type PaymentSource = CardSource | { type: 'stcpay'; mobile: string } | { type: 'token'; token: string }

export type CreatePaymentInput = {
  /** Halalas. */
  amount: number
  currency: 'SAR'
  description: string
  /** Where the payer's browser returns: `callbackUrl?id=…&status=…`. */
  callbackUrl: string
  /** Our payment id: the gateway refuses a second payment with the same key (Moyasar's given_id). */
  idempotencyKey: string
  method: PaymentMethod
  metadata: Record<string, string>
  /** Required by gateways that take the card on our page (Moyasar); the sandbox shows its own page. */
  source?: PaymentSource
}

export type CreatedPayment = {
  id: string
  status: GatewayPaymentStatus
  /** Where to send the payer next (3-D Secure or the gateway's page); null when nothing is left to do. */
  redirectUrl: string | null
}

/** A payment as the gateway reports it now: what settlement trusts, after checking amount and currency. */
export type GatewayPayment = {
  id: string
  status: GatewayPaymentStatus
  amount: number
  currency: string
  metadata: Record<string, string>
  /** The gateway's reason for a failure, for logs and support (never card data). */
  message?: string
}

/** A refund the gateway confirmed: the whole payment given back (Hallil refunds only in full). */
export type GatewayRefund = {
  /** The gateway's payment id. */
  id: string
  /** Halalas given back in all, as the gateway reports it. */
  refundedAmount: number
  refundedAt: Date
  /** The gateway's own reference for the refund, when it has one apart from the payment's. */
  reference?: string
}

export type WebhookEvent = { paymentId: string; type: 'payment_paid' | 'payment_failed' }

export class GatewayError extends Error {
  constructor(
    message: string,
    public readonly kind: 'unavailable' | 'rejected' | 'not_found' | 'invalid_webhook',
  ) {
    super(message)
    this.name = 'GatewayError'
  }
}

/**
 * What the payer's browser needs to create the payment at the gateway itself, for gateways
 * whose terms forbid card data on the merchant's server (Moyasar): the public key and the
 * request body without its source, which the browser adds.
 */
export type BrowserCheckout = {
  apiUrl: string
  publishableKey: string
  body: {
    given_id: string
    amount: number
    currency: 'SAR'
    description: string
    callback_url: string
    metadata: Record<string, string>
  }
}

export interface PaymentGateway {
  readonly name: 'sandbox' | 'moyasar'
  createPayment(input: CreatePaymentInput): Promise<CreatedPayment>
  /**
   * Present on gateways whose payment is created by the payer's browser; the gateway's id of
   * that payment is then our idempotency key (given_id).
   */
  browserCheckout?(input: Omit<CreatePaymentInput, 'source' | 'method'>): BrowserCheckout
  fetchPayment(id: string): Promise<GatewayPayment>
  /**
   * Gives a paid payment's whole amount back. Asked again for a payment it already refunded in
   * full (a retry after a timeout or a crash), it answers that refund instead of failing, so the
   * credit note can still be issued; anything else it cannot do throws GatewayError.
   */
  refundPayment(id: string, amount: number): Promise<GatewayRefund>
  /** Checks a webhook's secret in constant time and reads its event; throws GatewayError('invalid_webhook'). */
  verifyWebhook(body: string, headers: Headers): WebhookEvent
}
