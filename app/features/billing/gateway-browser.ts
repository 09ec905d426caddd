// The payer's side of a payment created by the browser at the gateway (Moyasar's "custom
// payments"): card, STC Pay and Apple Pay details go from this code to the gateway's API with
// the publishable key, never to Hallil's server. Pure functions over `fetch`, so they are
// tested against the local fake of the gateway.
import type { BrowserCheckout } from './gateways/types.ts'

export type CardFields = { name: string; number: string; month: string; year: string; cvc: string }
export type CardField = keyof CardFields
export type PayError = 'number' | 'name' | 'month' | 'year' | 'cvc' | 'mobile' | 'otp'

export type BrowserSource =
  | { type: 'creditcard'; name: string; number: string; month: number; year: number; cvc: string }
  | { type: 'stcpay'; mobile: string }
  | { type: 'applepay'; token: string }

/** What the page does next after talking to the gateway. */
export type PayStep =
  | { kind: 'navigate'; url: string }
  | { kind: 'otp'; url: string }
  | { kind: 'invalid'; fields: PayError[] }
  | { kind: 'rejected' }
  | { kind: 'unreachable' }

const digitsOnly = (value: string) => toAsciiDigits(value).replace(/[\s-]/g, '')

/** Arabic-Indic digits typed on an Arabic keyboard count as digits. */
export function toAsciiDigits(value: string): string {
  return value.replace(/[\u0660-\u0669\u06F0-\u06F9]/g, (d) => String((d.codePointAt(0) ?? 0) & 0xf))
}

export function luhnValid(number: string): boolean {
  if (!/^\d{13,19}$/.test(number)) return false
  let sum = 0
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i])
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2
    sum += digit
  }
  return sum % 10 === 0
}

/** Checks the card on the page first, so obvious mistakes never travel; the gateway checks again. */
export function cardSource(fields: CardFields, now = new Date()): { source: BrowserSource } | { errors: PayError[] } {
  const errors: PayError[] = []
  const number = digitsOnly(fields.number)
  const name = fields.name.trim().replace(/\s+/g, ' ')
  const month = Number(digitsOnly(fields.month))
  const yearDigits = digitsOnly(fields.year)
  const year = yearDigits.length === 2 ? 2000 + Number(yearDigits) : Number(yearDigits)
  const cvc = digitsOnly(fields.cvc)
  if (!luhnValid(number)) errors.push('number')
  if (name.split(' ').length < 2) errors.push('name')
  const monthOk = /^\d{1,2}$/.test(digitsOnly(fields.month)) && month >= 1 && month <= 12
  if (!monthOk) errors.push('month')
  const thisYear = now.getUTCFullYear()
  const expired = year < thisYear || (year === thisYear && monthOk && month < now.getUTCMonth() + 1)
  if (!/^\d{2}(\d{2})?$/.test(yearDigits) || expired || year > thisYear + 20) errors.push('year')
  if (!/^\d{3,4}$/.test(cvc)) errors.push('cvc')
  if (errors.length) return { errors }
  return { source: { type: 'creditcard', name, number, month, year, cvc } }
}

export function stcPaySource(mobile: string): { source: BrowserSource } | { errors: PayError[] } {
  const digits = digitsOnly(mobile)
  return /^05\d{8}$/.test(digits) ? { source: { type: 'stcpay', mobile: digits } } : { errors: ['mobile'] }
}

/** Back to Hallil's callback as the gateway itself would send the payer: `?id=…&status=…`. */
export function callbackUrl(checkout: BrowserCheckout, payment: { id: string; status: string; message?: string | null }): string {
  const url = new URL(checkout.body.callback_url)
  url.searchParams.set('id', payment.id)
  url.searchParams.set('status', payment.status)
  if (payment.message) url.searchParams.set('message', payment.message)
  return url.toString()
}

type GatewayAnswer = { status: number; body: unknown }

async function post(fetchImpl: typeof fetch, url: string, publishableKey: string | null, body: unknown): Promise<GatewayAnswer | null> {
  try {
    const response = await fetchImpl(url, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        ...(publishableKey ? { authorization: `Basic ${btoa(`${publishableKey}:`)}` } : {}),
      },
      body: JSON.stringify(body),
      credentials: 'omit',
    })
    const text = await response.text()
    let parsed: unknown = null
    try {
      parsed = text ? JSON.parse(text) : null
    } catch {
      parsed = null
    }
    return { status: response.status, body: parsed }
  } catch {
    return null
  }
}

type GatewayPaymentJson = { id: string; status: string; source?: { transaction_url?: string | null; message?: string | null } | null }

function asPayment(body: unknown): GatewayPaymentJson | null {
  if (!body || typeof body !== 'object') return null
  const b = body as Record<string, unknown>
  return typeof b.id === 'string' && typeof b.status === 'string' ? (b as GatewayPaymentJson) : null
}

/** Moyasar names fields `source.number`, `source.mobile`…; those map to the page's fields. */
function invalidFields(body: unknown): PayError[] {
  const errors = body && typeof body === 'object' ? (body as { errors?: unknown }).errors : null
  if (!errors || typeof errors !== 'object') return []
  const known: PayError[] = ['number', 'name', 'month', 'year', 'cvc', 'mobile']
  return Object.keys(errors)
    .map((key) => key.replace(/^source\./, '') as PayError)
    .filter((key) => known.includes(key))
}

/** Creates the payment at the gateway with the source the payer typed, and says where to go. */
export async function createBrowserPayment(
  checkout: BrowserCheckout,
  source: BrowserSource,
  fetchImpl: typeof fetch = fetch,
): Promise<PayStep> {
  const answer = await post(fetchImpl, `${checkout.apiUrl}/v1/payments`, checkout.publishableKey, { ...checkout.body, source })
  if (!answer) return { kind: 'unreachable' }
  if (answer.status >= 500 || answer.status === 429) return { kind: 'unreachable' }
  const payment = asPayment(answer.body)
  if ((answer.status === 200 || answer.status === 201) && payment) {
    const next = payment.source?.transaction_url
    if (payment.status === 'initiated' && next)
      return source.type === 'stcpay' ? { kind: 'otp', url: next } : { kind: 'navigate', url: next }
    return { kind: 'navigate', url: callbackUrl(checkout, { id: payment.id, status: payment.status, message: payment.source?.message }) }
  }
  const type = answer.body && typeof answer.body === 'object' ? (answer.body as { type?: unknown }).type : null
  // Created before (a second click, a retry): Hallil's callback asks the gateway what became of it.
  if (type === 'used_given_id') return { kind: 'navigate', url: callbackUrl(checkout, { id: checkout.body.given_id, status: 'initiated' }) }
  const fields = invalidFields(answer.body)
  return fields.length ? { kind: 'invalid', fields } : { kind: 'rejected' }
}

/** STC Pay's second step: the code the payer received, sent to the payment's transaction URL. */
export async function confirmStcPay(
  checkout: BrowserCheckout,
  transactionUrl: string,
  otp: string,
  fetchImpl: typeof fetch = fetch,
): Promise<PayStep> {
  const code = digitsOnly(otp)
  if (!/^\d{4,8}$/.test(code)) return { kind: 'invalid', fields: ['otp'] }
  const answer = await post(fetchImpl, transactionUrl, null, { otp_value: code })
  if (!answer || answer.status >= 500) return { kind: 'unreachable' }
  const payment = asPayment(answer.body)
  if (!payment) return { kind: 'rejected' }
  return { kind: 'navigate', url: callbackUrl(checkout, { id: payment.id, status: payment.status, message: payment.source?.message }) }
}

/** Apple Pay's merchant validation through the gateway (no Apple developer certificate of our own). */
export async function appleMerchantSession(
  checkout: BrowserCheckout,
  validationUrl: string,
  displayName: string,
  domain: string,
  fetchImpl: typeof fetch = fetch,
): Promise<unknown> {
  const answer = await post(fetchImpl, `${checkout.apiUrl}/v1/applepay/initiate`, null, {
    validation_url: validationUrl,
    display_name: displayName,
    domain_name: domain,
    publishable_api_key: checkout.publishableKey,
  })
  if (!answer || answer.status !== 200) throw new Error('merchant validation failed')
  return answer.body
}
