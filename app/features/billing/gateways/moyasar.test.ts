import { randomUUID } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startMoyasarFake, type MoyasarFake } from '#tests/fakes/moyasar.ts'
import { createMoyasarGateway, type MoyasarGatewayOptions } from './moyasar.server.ts'
import { GatewayError, type CardSource, type CreatePaymentInput } from './types.ts'

const SECRET_KEY = 'sk_test_hallil_secret'
const PUBLISHABLE_KEY = 'pk_test_hallil_publishable'
const WEBHOOK_SECRET = 'a-long-random-webhook-secret'
const CALLBACK = 'https://hallil.test/billing/return?lang=ar'

const card = (number: string): CardSource => ({
  type: 'creditcard',
  name: 'Noura Alqahtani',
  number,
  month: 12,
  year: new Date().getUTCFullYear() + 3,
  cvc: '123',
})

const paymentInput = (overrides: Partial<CreatePaymentInput> = {}): CreatePaymentInput => ({
  amount: 11500,
  currency: 'SAR',
  description: 'Hallil: Basic package, 3 months',
  callbackUrl: CALLBACK,
  idempotencyKey: randomUUID(),
  method: 'creditcard',
  metadata: { paymentId: 'p-1', packageId: '2' },
  source: card('4111111111111111'),
  ...overrides,
})

let fake: MoyasarFake
beforeEach(async () => {
  fake = await startMoyasarFake({ secretKey: SECRET_KEY, publishableKey: PUBLISHABLE_KEY, webhookSecret: WEBHOOK_SECRET })
})
afterEach(async () => {
  await fake.close()
})

const gatewayFor = (overrides: Partial<MoyasarGatewayOptions> = {}) =>
  createMoyasarGateway({
    secretKey: SECRET_KEY,
    publishableKey: PUBLISHABLE_KEY,
    webhookSecret: WEBHOOK_SECRET,
    apiUrl: fake.url,
    ...overrides,
  })

/** The payer's browser on the 3-D Secure page: where it is sent back to. */
async function completeThreeDs(redirectUrl: string | null): Promise<URL> {
  expect(redirectUrl).toBeTruthy()
  const response = await fetch(redirectUrl as string, { redirect: 'manual' })
  expect(response.status).toBe(302)
  return new URL(response.headers.get('location') as string)
}

async function rejection(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(GatewayError)
  return error as GatewayError
}

describe('Moyasar gateway: payments', () => {
  it('creates a card payment that needs 3-D Secure, then reports it paid with its real amount, currency and metadata', async () => {
    const gateway = gatewayFor()
    expect(gateway.name).toBe('moyasar')
    const input = paymentInput()
    const created = await gateway.createPayment(input)
    // given_id becomes the payment's id at Moyasar.
    expect(created).toEqual({ id: input.idempotencyKey, status: 'initiated', redirectUrl: `${fake.url}/3ds/${input.idempotencyKey}` })
    expect((await gateway.fetchPayment(created.id)).status).toBe('initiated')

    const back = await completeThreeDs(created.redirectUrl)
    expect(`${back.origin}${back.pathname}`).toBe('https://hallil.test/billing/return')
    expect(back.searchParams.get('lang')).toBe('ar')
    expect(back.searchParams.get('id')).toBe(created.id)
    expect(back.searchParams.get('status')).toBe('paid')
    expect(back.searchParams.get('message')).toBe('APPROVED')

    expect(await gateway.fetchPayment(created.id)).toEqual({
      id: created.id,
      status: 'paid',
      amount: 11500,
      currency: 'SAR',
      metadata: { paymentId: 'p-1', packageId: '2' },
      message: 'APPROVED',
    })
    // Moyasar keeps only a masked number.
    expect(fake.payments.get(created.id)?.source.number).toBe('411111******1111')
  })

  it('reports a declined card as failed, with the reason', async () => {
    const gateway = gatewayFor()
    const created = await gateway.createPayment(paymentInput({ source: card('4000000000000002') }))
    expect(created.status).toBe('initiated')
    const back = await completeThreeDs(created.redirectUrl)
    expect(back.searchParams.get('status')).toBe('failed')
    const payment = await gateway.fetchPayment(created.id)
    expect(payment.status).toBe('failed')
    expect(payment.message).toBe('DECLINED')
  })

  it('sends an STC Pay source with the mobile number', async () => {
    const gateway = gatewayFor()
    const created = await gateway.createPayment(paymentInput({ method: 'stcpay', source: { type: 'stcpay', mobile: '0512345678' } }))
    expect(created.status).toBe('initiated')
    expect(fake.payments.get(created.id)?.source).toMatchObject({ type: 'stcpay', mobile: '0512345678' })
  })

  it('never creates a second payment for the same idempotency key, and answers a retry with the first one', async () => {
    const gateway = gatewayFor()
    const input = paymentInput()
    const first = await gateway.createPayment(input)
    const again = await gateway.createPayment(input)
    expect(again).toEqual(first)
    expect(fake.payments.size).toBe(1)
    expect(fake.requests.filter((r) => r.method === 'POST')).toHaveLength(2)

    // After the payer finished, a retry reports the payment as it now is.
    await completeThreeDs(first.redirectUrl)
    expect(await gateway.createPayment(input)).toMatchObject({ id: first.id, status: 'paid' })
    expect(fake.payments.size).toBe(1)
  })

  it('refuses to pass off a different payment held under the same key as this one', async () => {
    const gateway = gatewayFor()
    const input = paymentInput()
    await gateway.createPayment(input)
    const error = await rejection(gateway.createPayment({ ...input, amount: 23000 }))
    expect(error.kind).toBe('rejected')
    expect(fake.payments.size).toBe(1)
  })

  it('recovers from a create that timed out after Moyasar had made the payment', async () => {
    const input = paymentInput()
    fake.delayNext(400)
    const error = await rejection(gatewayFor({ timeoutMs: 100 }).createPayment(input))
    expect(error.kind).toBe('unavailable')
    await vi.waitFor(() => expect(fake.payments.size).toBe(1))
    // The retry with the usual time allowed (a loaded machine may take more than 100 ms to answer).
    const retry = await gatewayFor().createPayment(input)
    expect(retry.id).toBe(input.idempotencyKey)
    expect(fake.payments.size).toBe(1)
  })

  it('passes on Moyasar validation errors as rejected, without the card number', async () => {
    const gateway = gatewayFor()
    const error = await rejection(gateway.createPayment(paymentInput({ source: card('4111111111111112') })))
    expect(error.kind).toBe('rejected')
    expect(error.message).toContain('Validation Failed')
    expect(error.message).toContain('source.number')
    expect(error.message).not.toContain('4111111111111112')
    expect(fake.payments.size).toBe(0)
  })

  it('refuses to create a payment without a source, before calling Moyasar', async () => {
    const gateway = gatewayFor()
    const error = await rejection(gateway.createPayment(paymentInput({ source: undefined })))
    expect(error.kind).toBe('rejected')
    expect(fake.requests).toHaveLength(0)
  })

  it('reports a wrong secret key as rejected, with Moyasar’s message', async () => {
    const gateway = gatewayFor({ secretKey: 'sk_test_not_ours' })
    const error = await rejection(gateway.createPayment(paymentInput()))
    expect(error.kind).toBe('rejected')
    expect(error.message).toContain('Invalid authorization credentials')
    expect((await rejection(gateway.fetchPayment(randomUUID()))).kind).toBe('rejected')
    expect(fake.payments.size).toBe(0)
  })

  it('reports a Moyasar 500 as unavailable', async () => {
    const gateway = gatewayFor()
    fake.failNext(500)
    expect((await rejection(gateway.createPayment(paymentInput()))).kind).toBe('unavailable')
    expect(fake.payments.size).toBe(0)
    const created = await gateway.createPayment(paymentInput())
    fake.failNext(503)
    expect((await rejection(gateway.fetchPayment(created.id))).kind).toBe('unavailable')
  })

  it('reports a slow Moyasar as unavailable after timeoutMs', async () => {
    const created = await gatewayFor().createPayment(paymentInput())
    fake.delayNext(1000)
    const started = Date.now()
    const error = await rejection(gatewayFor({ timeoutMs: 100 }).fetchPayment(created.id))
    expect(error.kind).toBe('unavailable')
    expect(Date.now() - started).toBeLessThan(900)
  })

  it('reports an unreachable Moyasar as unavailable', async () => {
    const url = fake.url
    await fake.close()
    const gateway = createMoyasarGateway({
      secretKey: SECRET_KEY,
      publishableKey: PUBLISHABLE_KEY,
      webhookSecret: WEBHOOK_SECRET,
      apiUrl: url,
    })
    expect((await rejection(gateway.fetchPayment(randomUUID()))).kind).toBe('unavailable')
    fake = await startMoyasarFake()
  })

  it('reports an unknown payment id as not_found', async () => {
    const gateway = gatewayFor()
    expect((await rejection(gateway.fetchPayment(randomUUID()))).kind).toBe('not_found')
    // Whatever a callback's query carries never becomes another API path.
    expect((await rejection(gateway.fetchPayment('../v1/payments'))).kind).toBe('not_found')
    expect(fake.requests).toHaveLength(1)
  })

  it('shows a changed amount or currency: fetchPayment reports what Moyasar holds, not what was asked', async () => {
    const gateway = gatewayFor()
    const created = await gateway.createPayment(paymentInput())
    await completeThreeDs(created.redirectUrl)
    fake.tamper(created.id, { amount: 100 })
    expect(await gateway.fetchPayment(created.id)).toMatchObject({ status: 'paid', amount: 100, currency: 'SAR' })
    fake.tamper(created.id, { amount: 11500, currency: 'USD' })
    expect(await gateway.fetchPayment(created.id)).toMatchObject({ status: 'paid', amount: 11500, currency: 'USD' })
  })

  it('maps every Moyasar status onto initiated, paid or failed', async () => {
    const gateway = gatewayFor()
    const created = await gateway.createPayment(paymentInput())
    const expected = {
      initiated: 'initiated',
      authorized: 'initiated',
      verified: 'initiated',
      paid: 'paid',
      captured: 'paid',
      failed: 'failed',
      voided: 'failed',
      refunded: 'failed',
    } as const
    const seen: Record<string, string> = {}
    for (const moyasar of Object.keys(expected) as Array<keyof typeof expected>) {
      const stored = fake.payments.get(created.id)
      if (stored) stored.status = moyasar
      seen[moyasar] = (await gateway.fetchPayment(created.id)).status
    }
    expect(seen).toEqual(expected)
  })

  it('logs nothing, so card data cannot reach a log', async () => {
    const spies = (['log', 'info', 'warn', 'debug', 'trace'] as const).map((name) => vi.spyOn(console, name))
    const stdout = vi.spyOn(process.stdout, 'write')
    const stderr = vi.spyOn(process.stderr, 'write')
    try {
      const gateway = gatewayFor()
      const paid = await gateway.createPayment(paymentInput())
      await completeThreeDs(paid.redirectUrl)
      await gateway.fetchPayment(paid.id)
      await rejection(gateway.createPayment(paymentInput({ source: card('4111111111111112') })))
      fake.failNext(500)
      await rejection(gateway.createPayment(paymentInput({ source: card('4000000000000002') })))
      const written = [...spies, stdout, stderr].flatMap((spy) => spy.mock.calls.map((args) => args.map(String).join(' ')))
      for (const line of written) expect(line).not.toMatch(/4111111111111111|4111111111111112|4000000000000002/)
      for (const spy of spies) expect(spy).not.toHaveBeenCalled()
    } finally {
      for (const spy of [...spies, stdout, stderr]) spy.mockRestore()
    }
  })
})

describe('Moyasar gateway: webhooks', () => {
  /** A stand-in for Hallil's webhook route: verifies, answers 200 with the event or 400. */
  async function startReceiver(gateway: ReturnType<typeof gatewayFor>) {
    const server: Server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        try {
          const event = gateway.verifyWebhook(Buffer.concat(chunks).toString('utf8'), new Headers())
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(event))
        } catch (error) {
          res.writeHead(400).end(error instanceof GatewayError ? error.kind : 'error')
        }
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    receivers.push(server)
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/moyasar`
  }
  const receivers: Server[] = []
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))))
  })

  const event = (overrides: Record<string, unknown> = {}) =>
    JSON.stringify({
      id: randomUUID(),
      type: 'payment_paid',
      created_at: new Date().toISOString(),
      secret_token: WEBHOOK_SECRET,
      account_name: 'Hallil',
      live: false,
      data: { id: 'pay-1', status: 'paid' },
      ...overrides,
    })

  it('accepts payment_paid with the right token', async () => {
    const gateway = gatewayFor()
    const created = await gateway.createPayment(paymentInput())
    await completeThreeDs(created.redirectUrl)
    const url = await startReceiver(gateway)
    const answer = await fake.sendWebhook(url, created.id)
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body)).toEqual({ paymentId: created.id, type: 'payment_paid' })
  })

  it('accepts payment_failed and Moyasar’s misspelt payment_faild as a failure', async () => {
    const gateway = gatewayFor()
    const created = await gateway.createPayment(paymentInput({ source: card('4000000000000002') }))
    await completeThreeDs(created.redirectUrl)
    const url = await startReceiver(gateway)
    for (const type of ['payment_failed', 'payment_faild']) {
      const answer = await fake.sendWebhook(url, created.id, { type })
      expect({ type, status: answer.status }).toEqual({ type, status: 200 })
      expect(JSON.parse(answer.body)).toEqual({ paymentId: created.id, type: 'payment_failed' })
    }
  })

  it('refuses a wrong token, of the same length or not', async () => {
    const gateway = gatewayFor()
    const created = await gateway.createPayment(paymentInput())
    const url = await startReceiver(gateway)
    const sameLength = `${WEBHOOK_SECRET.slice(0, -1)}X`
    for (const secretToken of [sameLength, 'short', `${WEBHOOK_SECRET}-and-more`, '']) {
      const answer = await fake.sendWebhook(url, created.id, { secretToken })
      expect({ secretToken, ...answer }).toEqual({ secretToken, status: 400, body: 'invalid_webhook' })
    }
  })

  it('refuses malformed bodies and events it does not handle', () => {
    const gateway = gatewayFor()
    const refuse = (body: string) => {
      let thrown: unknown = null
      try {
        gateway.verifyWebhook(body, new Headers())
      } catch (error) {
        thrown = error
      }
      expect(thrown).toBeInstanceOf(GatewayError)
      expect({ body, kind: (thrown as GatewayError).kind }).toEqual({ body, kind: 'invalid_webhook' })
    }
    refuse('{"type": "payment_paid", "secret_token": ')
    refuse('')
    refuse('null')
    refuse(JSON.stringify({ type: 'payment_paid', secret_token: WEBHOOK_SECRET }))
    refuse(event({ secret_token: 42 }))
    refuse(event({ type: 'payment_refunded' }))
    // A test-mode event never drives a live configuration, nor the reverse.
    refuse(event({ live: true }))
    expect(gatewayFor({ secretKey: 'sk_live_x' }).verifyWebhook(event({ live: true }), new Headers())).toEqual({
      paymentId: 'pay-1',
      type: 'payment_paid',
    })
    expect(gateway.verifyWebhook(event(), new Headers())).toEqual({ paymentId: 'pay-1', type: 'payment_paid' })
  })
})

describe('Moyasar gateway: refunds', () => {
  /** A card payment taken through 3-D Secure: paid at the fake. */
  async function paid(gateway = gatewayFor()) {
    const created = await gateway.createPayment(paymentInput())
    await completeThreeDs(created.redirectUrl)
    expect((await gateway.fetchPayment(created.id)).status).toBe('paid')
    return created.id
  }

  it('refunds the whole amount (Refund Payment, amount in halalas); the payment then reads as failed for settlement', async () => {
    const gateway = gatewayFor()
    const id = await paid(gateway)
    const refund = await gateway.refundPayment(id, 11_500)
    expect(refund.id).toBe(id)
    expect(refund.refundedAmount).toBe(11_500)
    expect(refund.refundedAt.getTime()).toBeGreaterThan(Date.now() - 60_000)
    expect(fake.requests.at(-1)).toEqual({ method: 'POST', path: `/v1/payments/${id}/refund` })
    expect(fake.payments.get(id)).toMatchObject({ status: 'refunded', refunded: 11_500 })
    expect((await gateway.fetchPayment(id)).status).toBe('failed')
    // Asked again (a retry after a lost answer): the same refund, not a second one.
    expect((await gateway.refundPayment(id, 11_500)).refundedAmount).toBe(11_500)
    expect(fake.payments.get(id)?.refunded).toBe(11_500)
  })

  it('says no, with Moyasar’s words kept for the logs, to what cannot be refunded', async () => {
    const gateway = gatewayFor()
    const pending = await gateway.createPayment(paymentInput())
    expect((await rejection(gateway.refundPayment(pending.id, 11_500))).kind).toBe('rejected')
    expect((await rejection(gateway.refundPayment('no-such-payment', 11_500))).kind).toBe('not_found')
    const id = await paid(gateway)
    // More than was paid is refused by Moyasar; less than the whole is not the refund asked for.
    expect((await rejection(gateway.refundPayment(id, 20_000))).kind).toBe('rejected')
    fake.failNext(503)
    expect((await rejection(gateway.refundPayment(id, 11_500))).kind).toBe('unavailable')
    expect(fake.payments.get(id)?.status).toBe('paid')
  })

  it('needs the secret key: the publishable one cannot refund', async () => {
    const id = await paid()
    const withPublishable = gatewayFor({ secretKey: PUBLISHABLE_KEY })
    expect((await rejection(withPublishable.refundPayment(id, 11_500))).kind).toBe('rejected')
    expect(fake.payments.get(id)?.status).toBe('paid')
  })
})
