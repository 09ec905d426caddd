import {
  creditNotePdfResponse,
  creditNoteToJson,
  creditNoteWire,
  findCreditNote,
  findInvoiceById,
  findPackage,
  findPaymentDetail,
  gatewayFor,
  invoicePdfResponse,
  invoiceToJson,
  invoiceWire,
  listAllPackages,
  searchPayments,
  type OperatorPaymentDetail,
  type PackageRow,
  type PaymentSummary,
} from '#app/features/billing/index.server.ts'
import { packageFormSchema } from '#app/features/billing/schemas.ts'
import {
  createPackageByOperator,
  editPackageByOperator,
  limitOperatorWrites,
  operatorDashboard,
  refundPaymentByOperator,
  setPackageActiveByOperator,
} from '#app/features/operators/index.server.ts'
import type { Lang } from '#app/i18n/config.ts'
import { wireDateTime, wireDay, wireHalalas, wireId, wireShape, type Wire } from '#app/lib/wire.server.ts'
import { z } from '#app/lib/zod.ts'
import { apiLang, createRoutes, notFound, say } from './contract.ts'

// The operator area's money endpoints (docs/operators.md, "Money"): the same domain functions
// as its pages. The gate (404 to anyone else, 403 without two-step verification) is index.ts's
// middleware and each contract's `auth: 'operator'`.

const TAG = 'Operator area'
const PDF = ['application/pdf']
const paymentStatus = z.enum(['initiated', 'paid', 'failed', 'refunded'])

const adminPaymentSummaryWire = wireShape(
  'AdminPaymentSummary',
  z.object({
    id: wireId,
    created_at: wireDateTime,
    status: paymentStatus,
    gateway: z.string(),
    method: z.string(),
    total: wireHalalas('With VAT'),
    teacher_email: z.string().nullable().describe('Null once the account is deleted'),
    package_name: z.string(),
    invoice_serial: z.string().nullable(),
    credit_note_serial: z.string().nullable(),
    subscription_ends_at: wireDateTime.nullable(),
  }),
)

function summaryToJson(p: PaymentSummary, lang: Lang): Wire<typeof adminPaymentSummaryWire> {
  return {
    id: p.id,
    created_at: p.createdAt.toISOString(),
    status: p.status,
    gateway: p.gateway,
    method: p.method,
    total: p.total,
    teacher_email: p.teacherEmail,
    package_name: lang === 'ar' ? p.packageNameAr : p.packageNameEn,
    invoice_serial: p.invoiceSerial,
    credit_note_serial: p.creditNoteSerial,
    subscription_ends_at: p.subscriptionEndsAt?.toISOString() ?? null,
  }
}

const adminPaymentWire = wireShape(
  'AdminPayment',
  z.object({
    id: wireId,
    created_at: wireDateTime,
    settled_at: wireDateTime.nullable(),
    refunded_at: wireDateTime.nullable(),
    status: paymentStatus,
    gateway: z.string(),
    gateway_payment_id: z.string().nullable(),
    method: z.string(),
    price: wireHalalas('Before VAT'),
    vat: wireHalalas('The VAT'),
    total: wireHalalas('With VAT'),
    teacher_email: z.string().nullable(),
    package_name: z.string(),
    subscription: z.object({ starts_at: wireDateTime, ends_at: wireDateTime }).nullable(),
    invoice: invoiceWire.nullable(),
    credit_note: creditNoteWire.nullable(),
  }),
)

function paymentToJson(d: OperatorPaymentDetail, lang: Lang): Wire<typeof adminPaymentWire> {
  const p = d.payment
  return {
    id: p.id,
    created_at: p.createdAt.toISOString(),
    settled_at: p.settledAt?.toISOString() ?? null,
    refunded_at: p.refundedAt?.toISOString() ?? null,
    status: p.status,
    gateway: p.gateway,
    gateway_payment_id: p.gatewayPaymentId,
    method: p.method,
    price: p.price,
    vat: p.vat,
    total: p.total,
    teacher_email: d.teacher?.email ?? null,
    package_name: lang === 'ar' ? d.packageNameAr : d.packageNameEn,
    subscription: d.subscription
      ? { starts_at: d.subscription.startsAt.toISOString(), ends_at: d.subscription.endsAt.toISOString() }
      : null,
    invoice: d.invoice ? invoiceToJson(d.invoice, lang) : null,
    credit_note: d.creditNote ? creditNoteToJson(d.creditNote, lang) : null,
  }
}

const adminPackageWire = wireShape(
  'AdminPackage',
  z.object({
    id: z.int(),
    slug: z.string(),
    name_ar: z.string(),
    name_en: z.string(),
    description_ar: z.string(),
    description_en: z.string(),
    price: wireHalalas('Before VAT'),
    months: z.int().min(1),
    sort_order: z.int(),
    is_best_seller: z.boolean(),
    is_active: z.boolean().describe('Only active packages are shown and sold'),
  }),
)

function packageToAdminJson(p: PackageRow): Wire<typeof adminPackageWire> {
  return {
    id: p.id,
    slug: p.slug,
    name_ar: p.nameAr,
    name_en: p.nameEn,
    description_ar: p.descriptionAr,
    description_en: p.descriptionEn,
    price: p.priceHalalas,
    months: p.months,
    sort_order: p.sortOrder,
    is_best_seller: p.isBestSeller,
    is_active: p.isActive,
  }
}

const dayCounts = z.array(z.object({ day: wireDay, count: z.int().min(0) }))
const dashboardWire = wireShape(
  'AdminDashboard',
  z.object({
    teachers: z.int().min(0).describe('Accounts'),
    active_subscriptions: z.int().min(0).describe('Accounts with a subscription in force now'),
    sign_ups: dayCounts.describe('The last 30 Riyadh days, oldest first'),
    analyses: dayCounts,
    tests: dayCounts,
    revenue: z
      .array(
        z.object({
          month: z.string().describe('YYYY-MM, Riyadh'),
          excluding_vat: z.int().describe('Halalas: invoices issued in the month less credit notes issued in it (may be negative)'),
          including_vat: z.int().describe('Halalas, the same with VAT'),
        }),
      )
      .describe('The last 12 months, oldest first'),
  }),
)

/** `{id}` of a package: a whole number, else not found. */
const packageIdOf = (text: string | undefined) => (text && /^\d{1,9}$/.test(text) ? Number(text) : null)

export function adminMoneyRoutes() {
  const routes = createRoutes()
  const { route, fileRoute } = routes

  route(
    { method: 'get', path: '/admin/dashboard', tag: TAG, summary: 'The dashboard’s figures', auth: 'operator', data: dashboardWire },
    async (c, { reply }) => {
      const d = await operatorDashboard({ db: c.get('ctx').db })
      return reply({
        teachers: d.teachers,
        active_subscriptions: d.activeSubscriptions,
        sign_ups: d.signUps,
        analyses: d.analyses,
        tests: d.tests,
        revenue: d.revenue.map((m) => ({ month: m.month, excluding_vat: m.excludingVat, including_vat: m.includingVat })),
      })
    },
  )

  route(
    {
      method: 'get',
      path: '/admin/payments',
      tag: TAG,
      summary: 'Payments, newest first',
      description: 'With `q`: an invoice or credit note serial (exactly), else part of the teacher’s email. At most 50.',
      auth: 'operator',
      query: [{ name: 'q', description: 'Email or serial', schema: { type: 'string', maxLength: 200 } }],
      data: z.array(adminPaymentSummaryWire),
    },
    async (c, { reply }) => {
      const lang = apiLang(c)
      const found = await searchPayments({ db: c.get('ctx').db, query: (c.req.query('q') ?? '').slice(0, 200) })
      return reply(found.map((p) => summaryToJson(p, lang)))
    },
  )

  route(
    {
      method: 'get',
      path: '/admin/payments/{id}',
      tag: TAG,
      summary: 'One payment, its subscription, invoice and credit note',
      auth: 'operator',
      data: adminPaymentWire,
      errors: [404],
    },
    async (c, { reply }) => {
      const detail = await findPaymentDetail({ db: c.get('ctx').db, paymentId: c.req.param('id') ?? '' })
      if (!detail) return notFound('billing.errors.notFound')
      return reply(paymentToJson(detail, apiLang(c)))
    },
  )

  route(
    {
      method: 'post',
      path: '/admin/payments/{id}/refund',
      tag: TAG,
      summary: 'Refund a paid payment in full',
      description:
        'Through the payment’s gateway; then the credit note is issued and the subscription ends (docs/billing.md, "Refunds and credit notes"). 409 when already refunded, not refundable or refused by the gateway; 503 when the gateway cannot be reached (nothing was changed).',
      auth: 'operator',
      status: 201,
      data: z.object({ credit_note: creditNoteWire }),
      errors: [404, 409, 429, 503],
    },
    async (c, { session, reply }) => {
      const ctx = c.get('ctx')
      const lang = apiLang(c)
      await limitOperatorWrites({ db: ctx.db, operatorId: session.user.id })
      const { creditNote } = await refundPaymentByOperator({
        db: ctx.db,
        gateway: gatewayFor(ctx, lang),
        env: ctx.env,
        logger: ctx.logger,
        operator: { id: session.user.id, email: session.user.email },
        paymentId: c.req.param('id') ?? '',
      })
      return reply({ credit_note: creditNoteToJson(creditNote, lang) }, say(c, 'money.refund.done'))
    },
  )

  fileRoute(
    {
      method: 'get',
      path: '/admin/invoices/{id}/pdf',
      tag: TAG,
      summary: 'Any tax invoice as PDF',
      auth: 'operator',
      file: PDF,
      errors: [404],
    },
    async (c) => {
      const invoice = await findInvoiceById({ db: c.get('ctx').db, invoiceId: c.req.param('id') ?? '' })
      return invoice ? invoicePdfResponse(invoice) : notFound('billing.errors.notFound')
    },
  )

  fileRoute(
    {
      method: 'get',
      path: '/admin/credit-notes/{id}/pdf',
      tag: TAG,
      summary: 'Any credit note as PDF',
      auth: 'operator',
      file: PDF,
      errors: [404],
    },
    async (c) => {
      const note = await findCreditNote({ db: c.get('ctx').db, creditNoteId: c.req.param('id') ?? '' })
      return note ? creditNotePdfResponse(note) : notFound('billing.errors.notFound')
    },
  )

  route(
    {
      method: 'get',
      path: '/admin/packages',
      tag: TAG,
      summary: 'Every package, active or not',
      auth: 'operator',
      data: z.array(adminPackageWire),
    },
    async (c, { reply }) => reply((await listAllPackages({ db: c.get('ctx').db })).map(packageToAdminJson)),
  )

  route(
    {
      method: 'post',
      path: '/admin/packages',
      tag: TAG,
      summary: 'Create a package',
      auth: 'operator',
      body: { kind: 'json', schema: packageFormSchema, name: 'PackageRequest' },
      status: 201,
      data: adminPackageWire,
      errors: [409, 422, 429],
    },
    async (c, { body, session, reply }) => {
      const { db } = c.get('ctx')
      await limitOperatorWrites({ db, operatorId: session.user.id })
      const row = await createPackageByOperator({ db, operator: { id: session.user.id, email: session.user.email }, form: body })
      return reply(packageToAdminJson(row), say(c, 'money.packages.saved'))
    },
  )

  route(
    {
      method: 'put',
      path: '/admin/packages/{id}',
      tag: TAG,
      summary: 'Change a package',
      description: 'For the payments to come: invoices and credit notes already issued keep their own copy.',
      auth: 'operator',
      body: { kind: 'json', schema: packageFormSchema, name: 'PackageRequest' },
      data: adminPackageWire,
      errors: [404, 409, 422, 429],
    },
    async (c, { body, session, reply }) => {
      const { db } = c.get('ctx')
      const id = packageIdOf(c.req.param('id'))
      if (id === null || !(await findPackage({ db, packageId: id }))) return notFound('billing.errors.packageNotFound')
      await limitOperatorWrites({ db, operatorId: session.user.id })
      const row = await editPackageByOperator({
        db,
        operator: { id: session.user.id, email: session.user.email },
        packageId: id,
        form: body,
      })
      return reply(packageToAdminJson(row), say(c, 'money.packages.saved'))
    },
  )

  for (const [verb, isActive] of [
    ['deactivate', false],
    ['reactivate', true],
  ] as const)
    route(
      {
        method: 'post',
        path: `/admin/packages/{id}/${verb}`,
        tag: TAG,
        summary: isActive ? 'Sell a package again' : 'Stop selling a package (nothing is deleted)',
        auth: 'operator',
        data: adminPackageWire,
        errors: [404, 429],
      },
      async (c, { session, reply }) => {
        const { db } = c.get('ctx')
        const id = packageIdOf(c.req.param('id'))
        if (id === null) return notFound('billing.errors.packageNotFound')
        await limitOperatorWrites({ db, operatorId: session.user.id })
        const row = await setPackageActiveByOperator({
          db,
          operator: { id: session.user.id, email: session.user.email },
          packageId: id,
          isActive,
        })
        return reply(packageToAdminJson(row), say(c, isActive ? 'money.packages.reactivated' : 'money.packages.deactivated'))
      },
    )

  return routes
}
