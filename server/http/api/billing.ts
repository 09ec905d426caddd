import {
  creditNotePdfResponse,
  creditNoteToJson,
  creditNoteWire,
  findCreditNote,
  listUserCreditNotes,
  findUserInvoice,
  gatewayFor,
  GatewayError,
  invoicePdfResponse,
  invoiceToJson,
  invoiceWire,
  listPackages,
  listSubscriptions,
  listUserInvoices,
  packageToJson,
  packageWire,
  settlePayment,
  startCheckout,
  subscriptionToJson,
  subscriptionWire,
} from '#app/features/billing/index.server.ts'
import { HTTPException } from 'hono/http-exception'
import { subscribeSchema } from '#app/features/billing/schemas.ts'
import { wireId } from '#app/lib/wire.server.ts'
import { z } from '#app/lib/zod.ts'
import { limitExports } from '#app/platform/export-limit.server.ts'
import { apiLang, createRoutes, notFound } from './contract.ts'

// Packages, subscriptions, tax invoices and the gateways' webhooks.

const checkoutWire = z.object({ payment_url: z.string().nullable().describe('Where the payer goes next'), payment_id: wireId })
const PDF = ['application/pdf']

export function billingRoutes() {
  const routes = createRoutes()
  const { route, fileRoute } = routes

  route(
    {
      method: 'get',
      path: '/packages',
      tag: 'Packages and contact',
      summary: 'The subscription packages',
      auth: 'none',
      data: z.array(packageWire),
    },
    async (c, { reply }) => {
      const { db, env } = c.get('ctx')
      const list = await listPackages({ db, lang: apiLang(c), vatRateBasisPoints: env.VAT_RATE_BP })
      return reply(list.map(packageToJson))
    },
  )

  route(
    {
      method: 'post',
      path: '/subscriptions',
      tag: 'Billing',
      summary: 'Subscribe: start a payment',
      auth: 'bearer',
      body: { kind: 'json', schema: subscribeSchema, name: 'SubscribeRequest' },
      status: 201,
      data: checkoutWire,
      errors: [404, 409, 422, 503],
    },
    async (c, { body, session, reply }) => {
      const ctx = c.get('ctx')
      const lang = apiLang(c)
      const result = await startCheckout({
        ...ctx,
        gateway: gatewayFor(ctx, lang),
        input: {
          userId: session.user.id,
          packageId: body.package_id,
          method: body.method,
          lang,
        },
      })
      const paymentUrl = result.redirectUrl?.startsWith('/') ? `${ctx.env.APP_URL}${result.redirectUrl}` : result.redirectUrl
      return reply({ payment_url: paymentUrl ?? null, payment_id: result.paymentId })
    },
  )

  route(
    {
      method: 'get',
      path: '/subscriptions',
      tag: 'Billing',
      summary: 'The user’s subscriptions',
      auth: 'bearer',
      query: [
        { name: 'status', description: 'Only current or only expired ones', schema: { type: 'string', enum: ['current', 'expired'] } },
      ],
      data: z.array(subscriptionWire),
    },
    async (c, { session, reply }) => {
      const status = c.req.query('status')
      const list = (await listSubscriptions({ db: c.get('ctx').db, userId: session.user.id, lang: apiLang(c) })).map(subscriptionToJson)
      return reply(status === 'current' || status === 'expired' ? list.filter((s) => s.status === status) : list)
    },
  )

  route(
    { method: 'get', path: '/invoices', tag: 'Billing', summary: 'The user’s tax invoices', auth: 'bearer', data: z.array(invoiceWire) },
    async (c, { session, reply }) => {
      const lang = apiLang(c)
      return reply((await listUserInvoices({ db: c.get('ctx').db, userId: session.user.id })).map((inv) => invoiceToJson(inv, lang)))
    },
  )

  route(
    { method: 'get', path: '/invoices/{id}', tag: 'Billing', summary: 'One tax invoice', auth: 'bearer', data: invoiceWire, errors: [404] },
    async (c, { session, reply }) => {
      const invoice = await findUserInvoice({ db: c.get('ctx').db, userId: session.user.id, invoiceId: c.req.param('id') ?? '' })
      if (!invoice) return notFound('billing.errors.notFound')
      return reply(invoiceToJson(invoice, apiLang(c)))
    },
  )

  fileRoute(
    {
      method: 'get',
      path: '/invoices/{id}/pdf',
      tag: 'Billing',
      summary: 'A tax invoice as PDF',
      auth: 'bearer',
      file: PDF,
      errors: [404, 429],
    },
    async (c, { session }) => {
      const invoice = await findUserInvoice({ db: c.get('ctx').db, userId: session.user.id, invoiceId: c.req.param('id') ?? '' })
      if (!invoice) return notFound('billing.errors.notFound')
      await limitExports({ ...c.get('ctx'), userId: session.user.id })
      return invoicePdfResponse(invoice)
    },
  )

  route(
    {
      method: 'get',
      path: '/credit-notes',
      tag: 'Billing',
      summary: 'The user’s credit notes',
      description:
        'One for each refunded payment: the invoice it reverses, the amounts negated (docs/billing.md, "Refunds and credit notes").',
      auth: 'bearer',
      data: z.array(creditNoteWire),
    },
    async (c, { session, reply }) => {
      const lang = apiLang(c)
      return reply(
        (await listUserCreditNotes({ db: c.get('ctx').db, userId: session.user.id })).map((note) => creditNoteToJson(note, lang)),
      )
    },
  )

  fileRoute(
    {
      method: 'get',
      path: '/credit-notes/{id}/pdf',
      tag: 'Billing',
      summary: 'A credit note as PDF',
      auth: 'bearer',
      file: PDF,
      errors: [404, 429],
    },
    async (c, { session }) => {
      const creditNote = await findCreditNote({ db: c.get('ctx').db, creditNoteId: c.req.param('id') ?? '', userId: session.user.id })
      if (!creditNote) return notFound('billing.errors.notFound')
      await limitExports({ ...c.get('ctx'), userId: session.user.id })
      return creditNotePdfResponse(creditNote)
    },
  )

  // A gateway's webhook: verified by its secret, then the same settlement as the payer's return.
  route(
    {
      method: 'post',
      path: '/payments/webhook/{gateway}',
      tag: 'Billing',
      summary: 'A payment gateway’s webhook',
      description: 'For the gateway only: verified by its signature, not a bearer token.',
      auth: 'webhook',
      body: { kind: 'raw-json', schema: { type: 'object', description: 'The gateway’s own event' } },
      data: z.object({ status: z.string() }),
      errors: [401, 404, 503],
    },
    async (c, { reply }) => {
      const ctx = c.get('ctx')
      const gateway = gatewayFor(ctx)
      // The gateway's answers are for the gateway, not a teacher: plain English, no translation.
      const refuse = (status: 401 | 404 | 503, message: string): never => {
        throw new HTTPException(status, { res: c.json({ message }, status) })
      }
      if (c.req.param('gateway') !== gateway.name) refuse(404, 'unknown gateway')
      const body = await c.req.text()
      let event
      try {
        event = gateway.verifyWebhook(body, c.req.raw.headers)
      } catch (error) {
        if (!(error instanceof GatewayError)) throw error
        ctx.logger.warn({ gateway: gateway.name }, 'webhook refused')
        return refuse(401, 'invalid webhook')
      }
      try {
        const result = await settlePayment({ db: ctx.db, gateway, env: ctx.env, logger: ctx.logger, gatewayPaymentId: event.paymentId })
        return reply({ status: result?.status ?? 'unknown' })
      } catch (error) {
        // The gateway could not be asked now: 503 tells it to send the event again later.
        if (error instanceof GatewayError) refuse(503, 'gateway unavailable, retry later')
        throw error
      }
    },
  )

  return routes
}
