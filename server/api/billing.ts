import { Hono } from 'hono'
import {
  findUserInvoice,
  gatewayFor,
  GatewayError,
  invoicePdfResponse,
  invoiceToJson,
  listSubscriptions,
  listUserInvoices,
  settlePayment,
  startCheckout,
  subscriptionToJson,
} from '#app/features/billing/index.server.ts'
import { subscribeSchema } from '#app/features/billing/schemas.ts'
import { apiLang, apiTranslator, jsonBody, ok, validationFailed } from './respond.ts'
import { requireApiUser } from './auth.ts'
import { limitExports } from '#app/server/export-limit.server.ts'
import type { ApiEnv } from './types.ts'

/** Subscriptions, invoices and the gateways' webhooks (api.md). */
export function createBillingApi() {
  const api = new Hono<ApiEnv>()

  api.post('/subscriptions', async (c) => {
    const { user } = await requireApiUser(c)
    const t = apiTranslator(c, ['billing'])
    const parsed = subscribeSchema.safeParse(await jsonBody(c))
    if (!parsed.success) return validationFailed(c, parsed.error, t)
    const ctx = c.get('ctx')
    const lang = apiLang(c)
    const result = await startCheckout(ctx, gatewayFor(ctx, lang), { userId: user.id, packageId: parsed.data.package_id, method: parsed.data.method, lang })
    const paymentUrl = result.redirectUrl?.startsWith('/') ? `${ctx.env.APP_URL}${result.redirectUrl}` : result.redirectUrl
    return ok(c, { payment_url: paymentUrl, payment_id: result.paymentId }, '', 201)
  })

  api.get('/subscriptions', async (c) => {
    const { user } = await requireApiUser(c)
    const status = c.req.query('status')
    const list = (await listSubscriptions(c.get('ctx').db, user.id, apiLang(c))).map(subscriptionToJson)
    return ok(c, status === 'current' || status === 'expired' ? list.filter((s) => s.status === status) : list)
  })

  api.get('/invoices', async (c) => {
    const { user } = await requireApiUser(c)
    const lang = apiLang(c)
    return ok(c, (await listUserInvoices(c.get('ctx').db, user.id)).map((inv) => invoiceToJson(inv, lang)))
  })

  api.get('/invoices/:id', async (c) => {
    const { user } = await requireApiUser(c)
    const invoice = await findUserInvoice(c.get('ctx').db, user.id, c.req.param('id'))
    if (!invoice) return c.json({ message: apiTranslator(c, ['billing'])('billing.errors.notFound') }, 404)
    return ok(c, invoiceToJson(invoice, apiLang(c)))
  })

  api.get('/invoices/:id/pdf', async (c) => {
    const { user } = await requireApiUser(c)
    const invoice = await findUserInvoice(c.get('ctx').db, user.id, c.req.param('id'))
    if (!invoice) return c.json({ message: apiTranslator(c, ['billing'])('billing.errors.notFound') }, 404)
    await limitExports(c.get('ctx'), user.id)
    return invoicePdfResponse(invoice)
  })

  // A gateway's webhook: verified by its secret, then the same settlement as the payer's return.
  api.post('/payments/webhook/:gateway', async (c) => {
    const ctx = c.get('ctx')
    const gateway = gatewayFor(ctx)
    if (c.req.param('gateway') !== gateway.name) return c.json({ message: 'unknown gateway' }, 404)
    const body = await c.req.text()
    let event
    try {
      event = gateway.verifyWebhook(body, c.req.raw.headers)
    } catch (error) {
      if (error instanceof GatewayError) {
        ctx.logger.warn({ gateway: gateway.name }, 'webhook refused')
        return c.json({ message: 'invalid webhook' }, 401)
      }
      throw error
    }
    try {
      const result = await settlePayment({ db: ctx.db, gateway, env: ctx.env, logger: ctx.logger, gatewayPaymentId: event.paymentId })
      return ok(c, { status: result?.status ?? 'unknown' })
    } catch (error) {
      // The gateway could not be asked now: 503 tells it to send the event again later.
      if (error instanceof GatewayError) return c.json({ message: 'gateway unavailable, retry later' }, 503)
      throw error
    }
  })

  return api
}
