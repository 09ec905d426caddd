import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { sandboxFor, settlePayment, startCheckout } from '#app/features/billing/index.server.ts'
import type { RequestContext } from '#app/platform/context.server.ts'
import { creditNotes, operatorAudit, packages } from '#app/platform/db/schema.ts'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { testContext, testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { silenceOutboxHints } from '#tests/factories.ts'
import { areaUser, type AreaUser } from '#tests/operators.ts'
import { loader as creditNotePdfLoader } from './admin-credit-note-pdf.tsx'
import { loader as dashboardLoader } from './admin-dashboard.tsx'
import { action as packageAction } from './admin-package-edit.tsx'
import { action as packagesAction } from './admin-packages.tsx'
import { loader as paymentLoader } from './admin-payment.tsx'
import { action as refundAction, loader as refundLoader } from './admin-payment-refund.tsx'
import { loader as paymentsLoader } from './admin-payments.tsx'
import { flashOf, routeAnswer } from '#tests/route-answer.ts'

// The operator area's money pages, called as React Router calls them (the gate over every page
// is gate.test.ts's): the refund's two steps, a package's form and buttons, the dashboard.

const testDb = setupTestDatabase(async (db) => {
  await seedPackages({ db: db.db })
})
silenceOutboxHints()
let ctx: RequestContext
let operator: AreaUser
beforeAll(async () => {
  const services = testServices(testDb())
  ctx = testContext(testDb(), { env: services.env, mailer: services.mailer, files: services.files })
  operator = await areaUser(ctx)
})

const args = (request: Request, params: Record<string, string> = {}) =>
  ({ request, params: { lang: 'en', ...params }, context: ctx }) as never
const get = (path: string, cookie = operator.cookie) => new Request(`http://localhost/en/${path}`, { headers: { cookie } })
function post(path: string, fields: Record<string, string>, cookie = operator.cookie) {
  const body = new FormData()
  for (const [k, v] of Object.entries(fields)) body.append(k, v)
  return new Request(`http://localhost/en/${path}`, { method: 'POST', body, headers: { cookie, origin: 'http://localhost' } })
}

async function paidTeacher() {
  const teacher = await areaUser(ctx, { role: 'teacher' })
  const gateway = sandboxFor(ctx)
  const checkout = await startCheckout({ ...ctx, gateway, input: { userId: teacher.user.id, packageId: 1, method: 'mada', lang: 'en' } })
  await gateway.submitCard(checkout.gatewayPaymentId, { number: '4111111111111111', name: 'N', expiry: '12/30', cvc: '123' })
  await gateway.confirm3ds(checkout.gatewayPaymentId)
  await settlePayment({ db: ctx.db, gateway, env: ctx.env, logger: ctx.logger, gatewayPaymentId: checkout.gatewayPaymentId })
  return { teacher, paymentId: checkout.paymentId }
}

describe('the refund pages', () => {
  it('find the payment, ask for confirmation, refund once, and then send the confirmation step back to the payment', async () => {
    const { teacher, paymentId } = await paidTeacher()
    const listed = await routeAnswer(() => paymentsLoader(args(get(`admin/payments?q=${encodeURIComponent(teacher.user.email)}`))))
    expect((listed.body as { payments: Array<{ id: string; status: string }> }).payments).toEqual([
      expect.objectContaining({ id: paymentId, status: 'paid' }),
    ])
    const confirm = await routeAnswer(() => refundLoader(args(get(`admin/payments/${paymentId}/refund`), { paymentId })))
    expect(confirm.body).toMatchObject({ paymentId, total: 3335, gateway: 'sandbox', teacherEmail: teacher.user.email })

    // Without the confirmation field nothing happens.
    const unconfirmed = await routeAnswer(() => refundAction(args(post(`admin/payments/${paymentId}/refund`, {}), { paymentId })))
    expect(unconfirmed.status).toBe(422)
    expect(await ctx.db.select().from(creditNotes).where(eq(creditNotes.paymentId, paymentId))).toHaveLength(0)

    const done = await routeAnswer(() => refundAction(args(post(`admin/payments/${paymentId}/refund`, { confirm: 'yes' }), { paymentId })))
    expect(done.status).toBe(302)
    expect(done.location).toBe(`/en/admin/payments/${paymentId}`)
    expect(flashOf(done.cookies)).toContain('money.refund.done')
    const [note] = await ctx.db.select().from(creditNotes).where(eq(creditNotes.paymentId, paymentId))
    expect(note?.total).toBe(-3335)

    const detail = await routeAnswer(() => paymentLoader(args(get(`admin/payments/${paymentId}`), { paymentId })))
    expect(detail.body).toMatchObject({ payment: { status: 'refunded' }, creditNote: { serial: note?.serial, total: -3335 } })
    // Refunded: the confirmation step sends back to the payment, and a second post is refused in the page.
    const again = await routeAnswer(() => refundLoader(args(get(`admin/payments/${paymentId}/refund`), { paymentId })))
    expect(again.location).toBe(`/en/admin/payments/${paymentId}`)
    const twice = await routeAnswer(() => refundAction(args(post(`admin/payments/${paymentId}/refund`, { confirm: 'yes' }), { paymentId })))
    expect(twice.status).toBe(409)
    expect(twice.body).toMatchObject({ errors: { _form: ['billing.refund.errors.alreadyRefunded'] } })
    expect(await ctx.db.select().from(creditNotes).where(eq(creditNotes.paymentId, paymentId))).toHaveLength(1)

    const pdf = await routeAnswer(() => creditNotePdfLoader(args(get(`admin/credit-notes/${note?.id}/pdf`), { creditNoteId: note!.id })))
    expect(pdf.status).toBe(200)
    // A teacher, even the one refunded, does not reach the operator's copy.
    expect(
      (
        await routeAnswer(() =>
          creditNotePdfLoader(args(get(`admin/credit-notes/${note?.id}/pdf`, teacher.cookie), { creditNoteId: note!.id })),
        )
      ).status,
    ).toBe(404)
  })
})

describe('the packages pages', () => {
  it('create a package from the form, refuse a bad one field by field, and deactivate it from the list', async () => {
    const bad = await routeAnswer(() =>
      packageAction(args(post('admin/packages/new', { slug: 'Bad Slug', name_ar: '', name_en: 'X', price: '9', months: '0' }))),
    )
    expect(bad.status).toBe(422)
    expect(Object.keys((bad.body as { errors: Record<string, string[]> }).errors).sort()).toEqual(['months', 'name_ar', 'price', 'slug'])

    const created = await routeAnswer(() =>
      packageAction(
        args(
          post('admin/packages/new', {
            slug: 'page-made',
            name_ar: 'باقة',
            name_en: 'Page made',
            price: '4900',
            months: '2',
            sort_order: '5',
          }),
        ),
      ),
    )
    expect(created.status).toBe(302)
    const [row] = await ctx.db.select().from(packages).where(eq(packages.slug, 'page-made'))
    expect(row).toMatchObject({ priceHalalas: 4900, months: 2, sortOrder: 5, isActive: true, isBestSeller: false })

    const edited = await routeAnswer(() =>
      packageAction(
        args(
          post(`admin/packages/${row!.id}`, {
            slug: 'page-made',
            name_ar: 'باقة',
            name_en: 'Page made',
            price: '5900',
            months: '2',
            is_best_seller: 'on',
          }),
          {
            packageId: String(row!.id),
          },
        ),
      ),
    )
    expect(edited.status).toBe(302)
    const off = await routeAnswer(() => packagesAction(args(post('admin/packages', { intent: 'deactivate', packageId: String(row!.id) }))))
    expect(flashOf(off.cookies)).toContain('money.packages.deactivated')
    const [after] = await ctx.db.select().from(packages).where(eq(packages.id, row!.id))
    expect(after).toMatchObject({ priceHalalas: 5900, isBestSeller: true, isActive: false })
    const actions = await ctx.db
      .select({ action: operatorAudit.action })
      .from(operatorAudit)
      .where(eq(operatorAudit.targetId, String(row!.id)))
    expect(actions.map((a) => a.action).sort()).toEqual(['package.create', 'package.deactivate', 'package.edit'])
    const unknown = await routeAnswer(() => packagesAction(args(post('admin/packages', { intent: 'deactivate', packageId: '99999' }))))
    expect(flashOf(unknown.cookies)).toContain('billing.errors.packageNotFound')
  })
})

describe('the dashboard page', () => {
  it('answers the figures for the charts', async () => {
    const page = await routeAnswer(() => dashboardLoader(args(get('admin'))))
    const body = page.body as { dashboard: { signUps: unknown[]; revenue: unknown[]; teachers: number } }
    expect(body.dashboard.signUps).toHaveLength(30)
    expect(body.dashboard.revenue).toHaveLength(12)
    expect(body.dashboard.teachers).toBeGreaterThanOrEqual(1)
  })
})
