// A local stand-in for Moyasar's HTTP API (docs.moyasar.com), for tests: a real server on
// 127.0.0.1 that speaks the endpoints the adapter uses, in Moyasar's shapes, plus the
// browser's side of 3-D Secure and webhooks, and knobs to make it slow, broken or dishonest.
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type FakeMoyasarPayment = {
  id: string
  status: 'initiated' | 'paid' | 'failed' | 'authorized' | 'captured' | 'refunded' | 'voided' | 'verified'
  amount: number
  fee: number
  currency: string
  refunded: number
  refunded_at: string | null
  captured: number
  captured_at: string | null
  voided_at: string | null
  description: string | null
  amount_format: string
  fee_format: string
  invoice_id: string | null
  ip: string | null
  callback_url: string | null
  created_at: string
  updated_at: string
  metadata: Record<string, string> | null
  source: Record<string, unknown> & { type: string; message: string | null; transaction_url?: string | null }
}

export type MoyasarFakeOptions = {
  secretKey?: string
  publishableKey?: string
  /** What sendWebhook puts in `secret_token` unless told otherwise. */
  webhookSecret?: string
  accountName?: string
  /** When set, the fake posts the webhook event here whenever a payment ends paid or failed, as Moyasar does. */
  webhookUrl?: string
}

export type MoyasarFake = {
  url: string
  close(): Promise<void>
  /** Every payment by id, as GET /v1/payments/{id} would return it. */
  payments: Map<string, FakeMoyasarPayment>
  /** Webhooks posted on its own (webhookUrl), with the app's answer status (0: unreachable). */
  webhooksSent: Array<{ paymentId: string; status: number }>
  /** Requests the API received (method and path, never bodies). */
  requests: Array<{ method: string; path: string }>
  /** POSTs a Moyasar webhook event for the payment to `url`; the answer's status and body. */
  sendWebhook(url: string, paymentId: string, options?: { secretToken?: string; type?: string }): Promise<{ status: number; body: string }>
  /** The next API request answers `status` without doing anything. */
  failNext(status?: number): void
  /** The next API request is carried out, but answered `ms` later. */
  delayNext(ms: number): void
  /** Changes what Moyasar reports for a payment, as if it held another amount or currency. */
  tamper(id: string, change: { amount?: number; currency?: string }): void
}

/**
 * Card outcomes after 3-D Secure. docs/billing.md's two published test numbers, and Moyasar's own
 * success cards for mada and Mastercard; any other number fails, as in Moyasar's test mode.
 */
const cardOutcomes: Record<string, { status: 'paid' | 'failed'; message: string; code: string }> = {
  '4111111111111111': { status: 'paid', message: 'APPROVED', code: '00' },
  '4201320111111010': { status: 'paid', message: 'APPROVED', code: '00' },
  '5421080101000000': { status: 'paid', message: 'APPROVED', code: '00' },
  '4000000000000002': { status: 'failed', message: 'DECLINED', code: '05' },
}
const unlistedCard = { status: 'failed', message: 'UNSPECIFIED FAILURE', code: '99' } as const

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export async function startMoyasarFake(options: MoyasarFakeOptions = {}): Promise<MoyasarFake> {
  const secretKey = options.secretKey ?? 'sk_test_fake_secret'
  const publishableKey = options.publishableKey ?? 'pk_test_fake_publishable'
  const webhookSecret = options.webhookSecret ?? 'fake-webhook-secret'
  const accountName = options.accountName ?? 'Hallil (test)'
  const webhooksSent: Array<{ paymentId: string; status: number }> = []

  const payments = new Map<string, FakeMoyasarPayment>()
  /** What completing 3-D Secure (or the OTP) will do to each payment: never in `payments`. */
  const outcomes = new Map<string, { status: 'paid' | 'failed'; message: string; code: string }>()
  const requests: Array<{ method: string; path: string }> = []
  const timers = new Set<NodeJS.Timeout>()
  let nextFailure: number | null = null
  let nextDelay = 0
  let url = ''

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, { type: 'api_error', message: 'Internal server error', errors: null })
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const { pathname, searchParams } = new URL(req.url ?? '/', url)
    const method = req.method ?? 'GET'
    // Browsers call the API from the merchant's page (publishable key): Moyasar answers CORS.
    res.setHeader('access-control-allow-origin', '*')
    if (method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-methods': 'GET, POST',
        // Whatever the page asks to send (the e2e browser adds X-Forwarded-For to every request).
        'access-control-allow-headers': req.headers['access-control-request-headers'] ?? 'authorization, content-type, accept',
        'access-control-max-age': '600',
      })
      return res.end()
    }
    const raw = await readBody(req)

    // The payer's browser: the 3-D Secure page, which completes the payment and goes back.
    const threeDs = /^\/3ds\/([^/]+)$/.exec(pathname)
    if (threeDs && method === 'GET') return completeThreeDs(res, decodeURIComponent(threeDs[1] ?? ''))
    const otp = /^\/stcpay\/([^/]+)\/proceed$/.exec(pathname)
    if (otp && method === 'POST') return completeOtp(res, decodeURIComponent(otp[1] ?? ''), raw, searchParams)

    if (!pathname.startsWith('/v1/')) return send(res, 404, { type: 'api_error', message: 'Not found', errors: null })
    requests.push({ method, path: pathname })

    if (nextFailure !== null) {
      const status = nextFailure
      nextFailure = null
      return send(res, status, { type: 'api_error', message: 'Internal server error', errors: null })
    }
    const delay = nextDelay
    nextDelay = 0
    const reply = (status: number, body: unknown) => later(delay, () => send(res, status, body))

    if (pathname === '/v1/applepay/initiate' && method === 'POST') return reply(...appleMerchantSession(raw))
    // HTTP Basic: the key is the username and the password is empty; a browser may instead
    // put the publishable key in the body (`publishable_api_key`).
    const key = basicUser(req.headers.authorization) ?? bodyKey(raw)
    const isSecret = key === secretKey
    const isPublishable = key === publishableKey
    if (!isSecret && !isPublishable)
      return reply(401, { type: 'authentication_error', message: 'Invalid authorization credentials', errors: null })

    if (pathname === '/v1/payments' && method === 'POST') return reply(...createPayment(raw, req))
    // The publishable key may only create payments.
    if (!isSecret) return reply(403, { type: 'authentication_error', message: 'Forbidden', errors: null })
    const refund = /^\/v1\/payments\/([^/]+)\/refund$/.exec(pathname)
    if (refund && method === 'POST') return reply(...refundPayment(decodeURIComponent(refund[1] ?? ''), raw))
    const fetchOne = /^\/v1\/payments\/([^/]+)$/.exec(pathname)
    if (fetchOne && method === 'GET') {
      const payment = payments.get(decodeURIComponent(fetchOne[1] ?? ''))
      return payment ? reply(200, payment) : reply(404, { type: 'api_error', message: 'Object not found', errors: null })
    }
    return reply(404, { type: 'api_error', message: 'Not found', errors: null })
  }

  function createPayment(raw: string, req: IncomingMessage): [number, unknown] {
    let body: Record<string, unknown>
    try {
      const parsed: unknown = JSON.parse(raw)
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object')
      body = parsed as Record<string, unknown>
    } catch {
      return [400, { type: 'invalid_request_error', message: 'Invalid JSON body', errors: null }]
    }
    const errors = validate(body)
    if (Object.keys(errors).length > 0) return [400, { type: 'invalid_request_error', message: 'Validation Failed', errors }]

    const givenId = typeof body.given_id === 'string' ? body.given_id : undefined
    if (givenId && payments.has(givenId))
      return [
        400,
        { type: 'used_given_id', message: 'The given_id provided has been already used with a different payment.', errors: null },
      ]

    const id = givenId ?? randomUUID()
    const source = body.source as Record<string, unknown>
    const amount = body.amount as number
    const currency = typeof body.currency === 'string' ? body.currency.toUpperCase() : 'SAR'
    const now = new Date().toISOString()
    let responseSource: FakeMoyasarPayment['source']
    if (source.type === 'creditcard') {
      const number = String(source.number)
      outcomes.set(id, cardOutcomes[number] ?? unlistedCard)
      responseSource = {
        type: 'creditcard',
        company: number.startsWith('5') ? 'master' : number.startsWith('420132') ? 'mada' : 'visa',
        name: String(source.name),
        number: `${number.slice(0, 6)}${'*'.repeat(number.length - 10)}${number.slice(-4)}`,
        gateway_id: `moyasar_cc_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
        reference_number: null,
        token: null,
        message: null,
        transaction_url: `${url}/3ds/${id}`,
        response_code: null,
        authorization_code: null,
      }
    } else if (source.type === 'stcpay') {
      outcomes.set(id, { status: 'paid', message: 'Paid', code: '00' })
      responseSource = {
        type: 'stcpay',
        mobile: String(source.mobile),
        reference_number: null,
        cashier: null,
        branch: null,
        message: null,
        transaction_url: `${url}/stcpay/${id}/proceed`,
      }
    } else if (source.type === 'applepay') {
      // An Apple Pay token is already authenticated by the device: no 3-D Secure step.
      outcomes.set(id, { status: 'paid', message: 'APPROVED', code: '00' })
      responseSource = {
        type: 'applepay',
        company: 'visa',
        name: null,
        number: '4111 11** **** 1111',
        message: null,
        transaction_url: null,
      }
    } else {
      outcomes.set(id, { status: 'paid', message: 'APPROVED', code: '00' })
      responseSource = {
        type: 'creditcard',
        company: 'visa',
        name: null,
        number: '411111******1111',
        token: String(source.token),
        message: null,
        transaction_url: `${url}/3ds/${id}`,
      }
    }
    const payment: FakeMoyasarPayment = {
      id,
      status: 'initiated',
      amount,
      fee: 0,
      currency,
      refunded: 0,
      refunded_at: null,
      captured: 0,
      captured_at: null,
      voided_at: null,
      description: typeof body.description === 'string' ? body.description : null,
      amount_format: `${(amount / 100).toFixed(2)} ${currency}`,
      fee_format: `0.00 ${currency}`,
      invoice_id: null,
      ip: req.socket.remoteAddress ?? null,
      callback_url: typeof body.callback_url === 'string' ? body.callback_url : null,
      created_at: now,
      updated_at: now,
      metadata: stringRecord(body.metadata),
      source: responseSource,
    }
    payments.set(id, payment)
    if (source.type === 'applepay') settle(payment)
    return [201, payment]
  }

  /**
   * Refund Payment as Moyasar documents it: a paid (or captured) payment, the amount in halalas
   * (optional: the rest of the payment), at most what is left to refund; the answer is the
   * payment, now `refunded`, with `refunded` (the halalas given back in all) and `refunded_at`.
   * Moyasar counts a partly refunded payment as `refunded` too.
   */
  function refundPayment(id: string, raw: string): [number, unknown] {
    const payment = payments.get(id)
    if (!payment) return [404, { type: 'api_error', message: 'Object not found', errors: null }]
    let body: Record<string, unknown> = {}
    try {
      const parsed: unknown = raw ? JSON.parse(raw) : {}
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object')
      body = parsed as Record<string, unknown>
    } catch {
      return [400, { type: 'invalid_request_error', message: 'Invalid JSON body', errors: null }]
    }
    const left = payment.amount - payment.refunded
    const refundable = payment.status === 'paid' || payment.status === 'captured' || (payment.status === 'refunded' && left > 0)
    if (!refundable)
      return [400, { type: 'invalid_request_error', message: `Payment cannot be refunded while it is ${payment.status}`, errors: null }]
    const amount = body.amount === undefined ? left : body.amount
    if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 1)
      return [400, { type: 'invalid_request_error', message: 'Validation Failed', errors: { amount: ['must be a positive integer'] } }]
    if (amount > left)
      return [
        400,
        {
          type: 'invalid_request_error',
          message: 'Validation Failed',
          errors: { amount: ['must be less than or equal to the refundable amount'] },
        },
      ]
    const now = new Date().toISOString()
    payment.refunded += amount
    payment.refunded_at = now
    payment.status = 'refunded'
    payment.updated_at = now
    return [200, payment]
  }

  /** Merchant validation for Apple Pay on the web: an opaque session object, as Apple returns it. */
  function appleMerchantSession(raw: string): [number, unknown] {
    let body: Record<string, unknown> = {}
    try {
      body = JSON.parse(raw) as Record<string, unknown>
    } catch {
      return [400, { type: 'invalid_request_error', message: 'Invalid JSON body', errors: null }]
    }
    if (body.publishable_api_key !== publishableKey)
      return [401, { type: 'authentication_error', message: 'Invalid authorization credentials', errors: null }]
    if (typeof body.validation_url !== 'string' || typeof body.domain_name !== 'string')
      return [400, { type: 'invalid_request_error', message: 'Validation Failed', errors: { validation_url: ["can't be blank"] } }]
    return [
      200,
      {
        merchantSessionIdentifier: `fake_${randomUUID()}`,
        domainName: body.domain_name,
        displayName: body.display_name ?? '',
        signature: 'fake',
      },
    ]
  }

  function completeThreeDs(res: ServerResponse, id: string) {
    const payment = payments.get(id)
    if (!payment || payment.source.type !== 'creditcard') return sendText(res, 404, 'No such payment')
    settle(payment)
    const back = new URL(payment.callback_url ?? url)
    back.searchParams.set('id', payment.id)
    back.searchParams.set('status', payment.status)
    back.searchParams.set('message', payment.source.message ?? '')
    res.writeHead(302, { location: back.toString() })
    res.end()
  }

  /** STC Pay's OTP step: the sandbox's 123456 succeeds, any other code fails. */
  function completeOtp(res: ServerResponse, id: string, raw: string, query: URLSearchParams) {
    const payment = payments.get(id)
    if (!payment || payment.source.type !== 'stcpay')
      return send(res, 404, { type: 'api_error', message: 'Object not found', errors: null })
    let otp = query.get('otp_value')
    try {
      const parsed = raw ? (JSON.parse(raw) as { otp_value?: unknown }) : {}
      if (parsed.otp_value !== undefined) otp = String(parsed.otp_value)
    } catch {
      otp = new URLSearchParams(raw).get('otp_value') ?? otp
    }
    if (payment.status === 'initiated' && otp !== '123456') outcomes.set(id, { status: 'failed', message: 'Invalid OTP', code: '99' })
    settle(payment)
    send(res, 200, payment)
  }

  function settle(payment: FakeMoyasarPayment) {
    if (payment.status !== 'initiated') return
    const outcome = outcomes.get(payment.id) ?? unlistedCard
    payment.status = outcome.status
    payment.source.message = outcome.message
    payment.source.response_code = outcome.code
    if (outcome.status === 'paid') payment.source.authorization_code = '123456'
    payment.updated_at = new Date().toISOString()
    if (options.webhookUrl) {
      const target = options.webhookUrl
      // Moyasar sends the event on its own schedule, apart from the payer's return.
      later(50, () => {
        sendEvent(target, payment.id).then(
          (answer) => webhooksSent.push({ paymentId: payment.id, status: answer.status }),
          () => webhooksSent.push({ paymentId: payment.id, status: 0 }),
        )
      })
    }
  }

  async function sendEvent(
    target: string,
    paymentId: string,
    { secretToken = webhookSecret, type }: { secretToken?: string; type?: string } = {},
  ) {
    const payment = payments.get(paymentId)
    if (!payment) throw new Error(`The fake holds no payment ${paymentId}`)
    const event = {
      id: randomUUID(),
      type: type ?? (payment.status === 'paid' ? 'payment_paid' : 'payment_failed'),
      created_at: new Date().toISOString(),
      secret_token: secretToken,
      account_name: accountName,
      live: false,
      data: payment,
    }
    const response = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(event),
    })
    return { status: response.status, body: await response.text() }
  }

  function later(ms: number, fn: () => void) {
    if (ms <= 0) return fn()
    const timer = setTimeout(() => {
      timers.delete(timer)
      fn()
    }, ms)
    timers.add(timer)
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    url,
    payments,
    requests,
    async close() {
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
    webhooksSent,
    sendWebhook: sendEvent,
    failNext(status = 500) {
      nextFailure = status
    },
    delayNext(ms) {
      nextDelay = ms
    },
    tamper(id, change) {
      const payment = payments.get(id)
      if (!payment) throw new Error(`The fake holds no payment ${id}`)
      if (change.amount !== undefined) payment.amount = change.amount
      if (change.currency !== undefined) payment.currency = change.currency
      payment.amount_format = `${(payment.amount / 100).toFixed(2)} ${payment.currency}`
    },
  }
}

/** Moyasar's validation, for the fields Hallil sends; messages name the field, never its value. */
function validate(body: Record<string, unknown>): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  const add = (field: string, message: string) => (errors[field] ??= []).push(message)
  const amount = body.amount
  if (amount === undefined) add('amount', "can't be blank")
  else if (typeof amount !== 'number' || !Number.isInteger(amount)) add('amount', 'must be an integer')
  else if (amount < 100) add('amount', 'must be greater than or equal to 100')
  if (body.currency !== undefined && (typeof body.currency !== 'string' || !/^[A-Za-z]{3}$/.test(body.currency)))
    add('currency', 'is invalid')
  if (body.given_id !== undefined && (typeof body.given_id !== 'string' || !uuidPattern.test(body.given_id)))
    add('given_id', 'must be a valid UUID')
  if (body.metadata !== undefined && body.metadata !== null) {
    if (typeof body.metadata !== 'object' || Array.isArray(body.metadata)) add('metadata', 'must be an object')
    else if (Object.keys(body.metadata).length > 30) add('metadata', 'must have at most 30 keys')
  }
  const source = body.source
  if (!source || typeof source !== 'object') {
    add('source', "can't be blank")
    return errors
  }
  const s = source as Record<string, unknown>
  const needsCallback = s.type === 'creditcard' || s.type === 'token'
  if (needsCallback && (typeof body.callback_url !== 'string' || !/^https?:\/\//.test(body.callback_url)))
    add('callback_url', "can't be blank")
  if (s.type === 'creditcard') {
    if (typeof s.name !== 'string' || s.name.trim().split(/\s+/).length < 2) add('source.name', 'must be a first and last name')
    if (typeof s.number !== 'string' || !/^\d{13,19}$/.test(s.number) || !luhn(s.number)) add('source.number', 'is invalid')
    const month = Number(s.month)
    if (!Number.isInteger(month) || month < 1 || month > 12) add('source.month', 'is invalid')
    const year = Number(s.year)
    const fullYear = year < 100 ? 2000 + year : year
    const now = new Date()
    if (!Number.isInteger(year) || fullYear < now.getUTCFullYear() || (fullYear === now.getUTCFullYear() && month < now.getUTCMonth() + 1))
      add('source.year', 'is expired or invalid')
    if (typeof s.cvc !== 'string' && typeof s.cvc !== 'number') add('source.cvc', "can't be blank")
    else if (!/^\d{3,4}$/.test(String(s.cvc))) add('source.cvc', 'is invalid')
  } else if (s.type === 'stcpay') {
    if (typeof s.mobile !== 'string' || !/^05\d{8}$/.test(s.mobile)) add('source.mobile', 'is invalid')
  } else if (s.type === 'token') {
    if (typeof s.token !== 'string' || !s.token.startsWith('token_')) add('source.token', 'is invalid')
  } else if (s.type === 'applepay') {
    if (typeof s.token !== 'string' || s.token.length < 2) add('source.token', "can't be blank")
  } else {
    add('source.type', 'is not supported')
  }
  return errors
}

function luhn(number: string): boolean {
  let sum = 0
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i])
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2
    sum += digit
  }
  return sum % 10 === 0
}

function basicUser(header: string | undefined): string | null {
  const match = /^Basic\s+(.+)$/i.exec(header ?? '')
  if (!match?.[1]) return null
  const decoded = Buffer.from(match[1], 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  // The password must be empty: `key:` and nothing after.
  if (colon === -1 || colon !== decoded.length - 1) return null
  return decoded.slice(0, colon)
}

function bodyKey(raw: string): string | null {
  try {
    const parsed = JSON.parse(raw) as { publishable_api_key?: unknown }
    return typeof parsed.publishable_api_key === 'string' ? parsed.publishable_api_key : null
  } catch {
    return null
  }
}

function stringRecord(value: unknown): Record<string, string> | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]))
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

function send(res: ServerResponse, status: number, body: unknown) {
  if (res.writableEnded || res.destroyed) return
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

function sendText(res: ServerResponse, status: number, text: string) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' })
  res.end(text)
}
