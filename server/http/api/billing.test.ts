import { describe, expect, it } from 'vitest'
import { createSession, hashPassword } from '#app/features/accounts/index.server.ts'
import { refundPayment, sandboxFor, sandboxWebhookSecret, settlePayment } from '#app/features/billing/index.server.ts'
import { users } from '#app/platform/db/schema.ts'
import { defaultPackages, seedPackages } from '#app/platform/db/seed.server.ts'
import { testContext, testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { apiTestApp } from '#tests/api-app.ts'

let app: ReturnType<typeof apiTestApp>
let services: ReturnType<typeof testServices>
const testDb = setupTestDatabase(async (db) => {
  await seedPackages({ db: db.db })
  services = testServices(db)
  app = apiTestApp(services)
})

async function teacherToken() {
  const db = testDb().db
  const [user] = await db
    .insert(users)
    .values({
      username: `api ${Math.random()}`,
      email: `api${Math.random()}@x.sa`,
      phone: '+966551234567',
      passwordHash: await hashPassword('x'),
      emailVerifiedAt: new Date(),
    })
    .returning()
  const { token } = await createSession({ db, secret: services.env.SESSION_SECRET, userId: user!.id, kind: 'api' })
  return { user: user!, auth: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'accept-language': 'en' } }
}

/** Pays the sandbox payment behind a payment_url as the payer's browser would, without sending the webhook's reply anywhere. */
async function payInSandbox(paymentUrl: string) {
  const id = new URL(paymentUrl).searchParams.get('id') ?? ''
  const gateway = sandboxFor(testContext(testDb(), { env: services.env }))
  await gateway.submitCard(id, { number: '4111111111111111', name: 'A', expiry: '12/30', cvc: '123' })
  await gateway.confirm3ds(id)
  return id
}

describe('/api/v1 billing', () => {
  it('lists the packages without a token, in display order, with VAT at 15 % and names in the request’s language', async () => {
    const list = async (lang: string) =>
      (
        (await (await app.request('/api/v1/packages', { headers: { 'accept-language': lang } })).json()) as {
          data: Array<{
            name: string
            months: number
            price: number
            vat_rate: number
            vat: number
            total: number
            is_best_seller: boolean
          }>
        }
      ).data
    const en = await list('en')
    const ar = await list('ar')
    expect(en.map((p) => [p.name, p.months, p.price, p.is_best_seller])).toEqual(
      defaultPackages.map((p) => [p.nameEn, p.months, p.priceHalalas, p.isBestSeller ?? false]),
    )
    expect(ar.map((p) => p.name)).toEqual(defaultPackages.map((p) => p.nameAr))
    for (const p of en) {
      expect(p.vat_rate).toBe(15)
      expect(p.vat).toBe(Math.round(p.price * 0.15))
      expect(p.total).toBe(p.price + p.vat)
    }
  })

  it('needs a token', async () => {
    for (const [method, path] of [
      ['POST', '/api/v1/subscriptions'],
      ['GET', '/api/v1/subscriptions'],
      ['GET', '/api/v1/invoices'],
    ] as const)
      expect((await app.request(path, { method })).status).toBe(401)
  })

  it('validates the subscription request with per-field errors', async () => {
    const { auth } = await teacherToken()
    const res = await app.request('/api/v1/subscriptions', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ package_id: 'x', method: 'paypal' }),
    })
    expect(res.status).toBe(422)
    const body = (await res.json()) as { errors: Record<string, string[]> }
    expect(body.errors.method).toEqual(['Choose a payment method'])
    // A package that is not offered is a record that does not exist (docs/api.md: 404).
    const unknown = await app.request('/api/v1/subscriptions', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ package_id: 999, method: 'mada' }),
    })
    expect(unknown.status).toBe(404)
  })

  it('subscribes through the webhook, lists the subscription and the invoice, refuses a second subscription', async () => {
    const { auth } = await teacherToken()
    const created = await app.request('/api/v1/subscriptions', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ package_id: 3, method: 'mada' }),
    })
    expect(created.status).toBe(201)
    const { data } = (await created.json()) as { data: { payment_url: string } }
    const id = await payInSandbox(data.payment_url)
    // The webhook as the sandbox sends it: a wrong secret is refused, the right one settles.
    const wrong = await app.request('/api/v1/payments/webhook/sandbox', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'payment_paid', secret_token: 'nope', data: { id } }),
    })
    expect(wrong.status).toBe(401)
    const hook = JSON.stringify({ type: 'payment_paid', secret_token: sandboxWebhookSecret(services.env.SESSION_SECRET), data: { id } })
    for (let i = 0; i < 3; i++)
      expect(
        (
          await app.request('/api/v1/payments/webhook/sandbox', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: hook,
          })
        ).status,
      ).toBe(200)

    const subs = (await (await app.request('/api/v1/subscriptions?status=current', { headers: auth })).json()) as {
      data: Array<{ status: string; package: { name: string } }>
    }
    expect(subs.data).toHaveLength(1)
    expect(subs.data[0]).toMatchObject({ status: 'current', package: { name: 'Yearly' } })
    const invs = (await (await app.request('/api/v1/invoices', { headers: auth })).json()) as {
      data: Array<{ id: string; serial: string; total: number; price: number; vat: number; vat_rate: number; qr: string }>
    }
    expect(invs.data).toHaveLength(1)
    const inv = invs.data[0]!
    expect(inv.serial).toMatch(/^INV-\d{6}$/)
    expect(inv.total).toBe(inv.price + inv.vat)
    expect(inv.vat_rate).toBe(15)
    const pdf = await app.request(`/api/v1/invoices/${inv.id}/pdf`, { headers: auth })
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-')

    const again = await app.request('/api/v1/subscriptions', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ package_id: 1, method: 'mada' }),
    })
    expect(again.status).toBe(409)
    expect(((await again.json()) as { message: string }).message).toBe(
      'You already have an active subscription that has not yet expired. You cannot subscribe before the current package ends.',
    )

    // Another teacher cannot read this invoice by its id.
    const other = await teacherToken()
    expect((await app.request(`/api/v1/invoices/${inv.id}`, { headers: other.auth })).status).toBe(404)
    expect((await app.request(`/api/v1/invoices/${inv.id}/pdf`, { headers: other.auth })).status).toBe(404)
    expect((await app.request('/api/v1/invoices/not-a-uuid', { headers: other.auth })).status).toBe(404)
  })

  it('lists a refunded payment’s credit note and serves its PDF to its teacher only', async () => {
    const { auth } = await teacherToken()
    const created = await app.request('/api/v1/subscriptions', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ package_id: 1, method: 'mada' }),
    })
    const { data } = (await created.json()) as { data: { payment_url: string; payment_id: string } }
    const id = await payInSandbox(data.payment_url)
    const ctx = testContext(testDb(), { env: services.env })
    const gateway = sandboxFor(ctx)
    await settlePayment({ db: ctx.db, gateway, env: ctx.env, logger: ctx.logger, gatewayPaymentId: id })
    expect(((await (await app.request('/api/v1/credit-notes', { headers: auth })).json()) as { data: unknown[] }).data).toEqual([])
    await refundPayment({ db: ctx.db, gateway, env: ctx.env, logger: ctx.logger, paymentId: data.payment_id })

    const invs = (await (await app.request('/api/v1/invoices', { headers: auth })).json()) as {
      data: Array<{ id: string; serial: string; total: number }>
    }
    const notes = (await (await app.request('/api/v1/credit-notes', { headers: auth })).json()) as {
      data: Array<{ id: string; serial: string; invoice_id: string; invoice_serial: string; price: number; vat: number; total: number }>
    }
    expect(notes.data).toHaveLength(1)
    const note = notes.data[0]!
    // Monthly: 29.00 + 4.35 VAT = 33.35, reversed; the invoice is still listed as it was.
    expect(note).toMatchObject({
      invoice_id: invs.data[0]!.id,
      invoice_serial: invs.data[0]!.serial,
      price: -2900,
      vat: -435,
      total: -3335,
    })
    expect(invs.data[0]!.total).toBe(3335)
    expect(note.serial).toMatch(/^CN-\d{6}$/)
    const pdf = await app.request(`/api/v1/credit-notes/${note.id}/pdf`, { headers: auth })
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="${note.serial}.pdf"`)
    const other = await teacherToken()
    expect((await app.request(`/api/v1/credit-notes/${note.id}/pdf`, { headers: other.auth })).status).toBe(404)
    expect(((await (await app.request('/api/v1/credit-notes', { headers: other.auth })).json()) as { data: unknown[] }).data).toEqual([])
  })
})
