import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { sandboxFor, settlePayment, startCheckout } from '#app/features/billing/index.server.ts'
import type { RequestContext } from '#app/platform/context.server.ts'
import { creditNotes, invoices, operatorAudit, payments } from '#app/platform/db/schema.ts'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { apiTestApp } from '#tests/api-app.ts'
import { testContext, testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { silenceOutboxHints } from '#tests/factories.ts'
import { areaUser, type AreaUser } from '#tests/operators.ts'

// /api/v1/admin's money endpoints (docs/operators.md, "Money"), for an operator with two-step
// verification; the gate itself (404 to teachers, 403 without 2FA) is gate.test.ts's, which
// reads these endpoints from the contracts.

let services: ReturnType<typeof testServices>
let app: ReturnType<typeof apiTestApp>
const testDb = setupTestDatabase(async (database) => {
  await seedPackages({ db: database.db })
  services = testServices(database)
  app = apiTestApp(services)
})
silenceOutboxHints()
let ctx: RequestContext
let operator: AreaUser
beforeAll(async () => {
  ctx = testContext(testDb(), { env: services.env, mailer: services.mailer, files: services.files })
  operator = await areaUser(ctx)
})

const headers = (lang = 'en') => ({ ...operator.bearer, 'content-type': 'application/json', 'accept-language': lang })

/** A teacher who paid for the Monthly package (2,900 + 435 VAT) through the sandbox. */
async function paidTeacher() {
  const teacher = await areaUser(ctx, { role: 'teacher' })
  const gateway = sandboxFor(ctx)
  const checkout = await startCheckout({ ...ctx, gateway, input: { userId: teacher.user.id, packageId: 1, method: 'mada', lang: 'en' } })
  await gateway.submitCard(checkout.gatewayPaymentId, { number: '4111111111111111', name: 'N', expiry: '12/30', cvc: '123' })
  await gateway.confirm3ds(checkout.gatewayPaymentId)
  await settlePayment({ db: ctx.db, gateway, env: ctx.env, logger: ctx.logger, gatewayPaymentId: checkout.gatewayPaymentId })
  const [invoice] = await ctx.db.select().from(invoices).where(eq(invoices.paymentId, checkout.paymentId))
  return { teacher, paymentId: checkout.paymentId, invoice: invoice! }
}

describe('/api/v1/admin payments', () => {
  it('finds a payment, refunds it once with a credit note and an audit entry, and serves both documents', async () => {
    const { teacher, paymentId, invoice } = await paidTeacher()
    const list = (await (
      await app.request(`/api/v1/admin/payments?q=${encodeURIComponent(teacher.user.email)}`, { headers: headers() })
    ).json()) as {
      data: Array<{ id: string; status: string; invoice_serial: string | null; total: number }>
    }
    expect(list.data).toEqual([expect.objectContaining({ id: paymentId, status: 'paid', invoice_serial: invoice.serial, total: 3335 })])

    const refunded = await app.request(`/api/v1/admin/payments/${paymentId}/refund`, { method: 'POST', headers: headers() })
    expect(refunded.status).toBe(201)
    const body = (await refunded.json()) as {
      data: { credit_note: { id: string; serial: string; invoice_serial: string; total: number } }
      message: string
    }
    expect(body.message).toBe('The payment was refunded and its credit note issued.')
    expect(body.data.credit_note).toMatchObject({ invoice_serial: invoice.serial, total: -3335 })

    // Twice: refused, in the request's language, and still one credit note.
    const again = await app.request(`/api/v1/admin/payments/${paymentId}/refund`, { method: 'POST', headers: headers('ar') })
    expect(again.status).toBe(409)
    expect(((await again.json()) as { message: string }).message).toBe(
      'استُرد مبلغ هذه الدفعة من قبل وصدر إشعارها الدائن، ولا يمكن استرداده مرة أخرى.',
    )
    expect(await ctx.db.select().from(creditNotes).where(eq(creditNotes.paymentId, paymentId))).toHaveLength(1)

    const [entry] = await ctx.db.select().from(operatorAudit).where(eq(operatorAudit.targetId, paymentId))
    expect(entry).toMatchObject({
      operatorId: operator.user.id,
      operatorEmail: operator.user.email,
      action: 'payment.refund',
      targetType: 'payment',
      detail: { creditNote: body.data.credit_note.serial, invoice: invoice.serial, total: -3335 },
    })

    const detail = (await (await app.request(`/api/v1/admin/payments/${paymentId}`, { headers: headers() })).json()) as {
      data: { status: string; invoice: { serial: string }; credit_note: { serial: string }; subscription: { ends_at: string } }
    }
    expect(detail.data.status).toBe('refunded')
    expect(detail.data.invoice.serial).toBe(invoice.serial)
    expect(detail.data.credit_note.serial).toBe(body.data.credit_note.serial)
    expect(Date.parse(detail.data.subscription.ends_at)).toBeLessThanOrEqual(Date.now())

    for (const path of [`/api/v1/admin/invoices/${invoice.id}/pdf`, `/api/v1/admin/credit-notes/${body.data.credit_note.id}/pdf`]) {
      const pdf = await app.request(path, { headers: headers() })
      expect(pdf.status).toBe(200)
      expect(pdf.headers.get('content-type')).toBe('application/pdf')
    }
    expect((await app.request('/api/v1/admin/payments/00000000-0000-4000-8000-000000000000', { headers: headers() })).status).toBe(404)
  })

  it('refuses to refund a payment that was never paid', async () => {
    const teacher = await areaUser(ctx, { role: 'teacher' })
    const pending = await startCheckout({
      ...ctx,
      gateway: sandboxFor(ctx),
      input: { userId: teacher.user.id, packageId: 1, method: 'mada', lang: 'en' },
    })
    const res = await app.request(`/api/v1/admin/payments/${pending.paymentId}/refund`, { method: 'POST', headers: headers() })
    expect(res.status).toBe(409)
    expect(((await res.json()) as { message: string }).message).toBe('Only a paid payment with a tax invoice can be refunded.')
    const [row] = await ctx.db.select().from(payments).where(eq(payments.id, pending.paymentId))
    expect(row?.status).toBe('initiated')
  })
})

describe('/api/v1/admin packages', () => {
  it('creates, changes, deactivates and reactivates a package, each written to the audit log', async () => {
    const form = { slug: 'api-term', name_ar: 'فصلي', name_en: 'Term', price: 9900, months: 4, is_best_seller: false }
    const created = await app.request('/api/v1/admin/packages', { method: 'POST', headers: headers(), body: JSON.stringify(form) })
    expect(created.status).toBe(201)
    const pkg = ((await created.json()) as { data: { id: number; price: number; is_active: boolean } }).data
    expect(pkg).toMatchObject({ price: 9900, is_active: true })

    const taken = await app.request('/api/v1/admin/packages', { method: 'POST', headers: headers(), body: JSON.stringify(form) })
    expect(taken.status).toBe(409)
    const invalid = await app.request('/api/v1/admin/packages', {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ ...form, price: 5 }),
    })
    expect(invalid.status).toBe(422)
    expect(((await invalid.json()) as { errors: Record<string, string[]> }).errors.price).toEqual([
      'Enter the price in halalas, a whole number from 100 (SAR 1.00).',
    ])

    const changed = await app.request(`/api/v1/admin/packages/${pkg.id}`, {
      method: 'PUT',
      headers: headers(),
      body: JSON.stringify({ ...form, price: 10_900 }),
    })
    expect(((await changed.json()) as { data: { price: number } }).data.price).toBe(10_900)
    const off = await app.request(`/api/v1/admin/packages/${pkg.id}/deactivate`, { method: 'POST', headers: headers() })
    expect(((await off.json()) as { data: { is_active: boolean } }).data.is_active).toBe(false)
    const sold = (await (await app.request('/api/v1/packages')).json()) as { data: Array<{ id: number }> }
    expect(sold.data.map((p) => p.id)).not.toContain(pkg.id)
    const on = await app.request(`/api/v1/admin/packages/${pkg.id}/reactivate`, { method: 'POST', headers: headers() })
    expect(((await on.json()) as { data: { is_active: boolean } }).data.is_active).toBe(true)

    const all = (await (await app.request('/api/v1/admin/packages', { headers: headers() })).json()) as { data: Array<{ id: number }> }
    expect(all.data.map((p) => p.id)).toContain(pkg.id)
    const actions = await ctx.db
      .select()
      .from(operatorAudit)
      .where(eq(operatorAudit.targetId, String(pkg.id)))
    expect(actions.map((a) => a.action).sort()).toEqual(['package.create', 'package.deactivate', 'package.edit', 'package.reactivate'])
    expect(actions.find((a) => a.action === 'package.edit')?.detail).toMatchObject({ price: 10_900, priceBefore: 9900 })
    expect((await app.request('/api/v1/admin/packages/9999/deactivate', { method: 'POST', headers: headers() })).status).toBe(404)
  })
})

describe('/api/v1/admin/dashboard', () => {
  it('answers the figures of 30 days and 12 months', async () => {
    const res = await app.request('/api/v1/admin/dashboard', { headers: headers() })
    expect(res.status).toBe(200)
    const { data } = (await res.json()) as { data: { sign_ups: unknown[]; revenue: unknown[]; teachers: number } }
    expect(data.sign_ups).toHaveLength(30)
    expect(data.revenue).toHaveLength(12)
    expect(data.teachers).toBeGreaterThanOrEqual(1)
  })
})
