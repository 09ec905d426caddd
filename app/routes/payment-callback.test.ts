import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { browserCheckoutFor, findUserPayment, gatewayFor, startCheckout } from '#app/features/billing/index.server.ts'
import { createBrowserPayment, cardSource } from '#app/features/billing/index.ts'
import { loadEnv } from '#app/platform/env.server.ts'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { testContext } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { teacher } from '#tests/exams.ts'
import { startMoyasarFake, type MoyasarFake } from '#tests/fakes/moyasar.ts'
import { loader } from './payment-callback.tsx'

// The payer's return from the gateway: settled when the gateway answers; shown as pending (not
// an error page) when it cannot be asked; never someone else's payment.

const testDb = setupTestDatabase(async (db) => {
  await seedPackages({ db: db.db })
})

let fake: MoyasarFake
beforeEach(async () => {
  fake = await startMoyasarFake({
    secretKey: 'sk_test_cb',
    publishableKey: 'pk_test_cb',
    webhookSecret: 'callback-webhook-secret-0123456789',
  })
})
afterEach(async () => {
  await fake.close()
})

function moyasarContext() {
  const base = testContext(testDb())
  const env = loadEnv({
    DATA_DIR: base.env.DATA_DIR,
    SESSION_SECRET: base.env.SESSION_SECRET,
    LOG_LEVEL: 'silent',
    PAYMENT_GATEWAY: 'moyasar',
    MOYASAR_API_URL: fake.url,
    MOYASAR_SECRET_KEY: 'sk_test_cb',
    MOYASAR_PUBLISHABLE_KEY: 'pk_test_cb',
    MOYASAR_WEBHOOK_SECRET: 'callback-webhook-secret-0123456789',
  })
  return testContext(testDb(), { env })
}

async function paidAtGateway(ctx: ReturnType<typeof moyasarContext>) {
  const owner = await teacher(ctx)
  const gateway = gatewayFor(ctx, 'en')
  const started = await startCheckout({ ...ctx, gateway, input: { userId: owner.user.id, packageId: 1, method: 'creditcard', lang: 'en' } })
  const built = cardSource({ name: 'Noura Alqahtani', number: '4111111111111111', month: '12', year: '30', cvc: '123' })
  if (!('source' in built)) throw new Error('card refused')
  const { checkout } = await browserCheckoutFor({
    ...ctx,
    gateway,
    input: { userId: owner.user.id, paymentId: started.paymentId, lang: 'en' },
  })
  if (!checkout) throw new Error('no browser checkout')
  // The payer's browser pays at the gateway and passes 3-D Secure.
  const step = await createBrowserPayment(checkout, built.source)
  await fetch(step.kind === 'navigate' ? step.url : '', { redirect: 'manual' })
  return { owner, started }
}

async function returnOf(ctx: ReturnType<typeof moyasarContext>, cookie: string, id: string) {
  const request = new Request(`http://localhost/en/payments/callback?id=${id}&status=paid`, { headers: { cookie } })
  const answer = await loader({ request, params: { lang: 'en' }, context: ctx } as never).catch((thrown: unknown) => thrown)
  expect(answer).toBeInstanceOf(Response)
  return (answer as Response).headers.get('location')
}

describe('the payer’s return from the gateway', () => {
  it('settles and shows the result; with the gateway down it shows the payment as pending, not an error', async () => {
    const ctx = moyasarContext()
    const { owner, started } = await paidAtGateway(ctx)
    fake.failNext(503)
    expect(await returnOf(ctx, owner.cookie, started.gatewayPaymentId)).toBe(`/en/payments/result/${started.paymentId}`)
    expect((await findUserPayment({ db: ctx.db, userId: owner.user.id, paymentId: started.paymentId }))?.status).toBe('initiated')
    expect(await returnOf(ctx, owner.cookie, started.gatewayPaymentId)).toBe(`/en/payments/result/${started.paymentId}`)
    expect((await findUserPayment({ db: ctx.db, userId: owner.user.id, paymentId: started.paymentId }))?.status).toBe('paid')
  })

  it('does not follow another teacher’s payment id', async () => {
    const ctx = moyasarContext()
    const { started } = await paidAtGateway(ctx)
    const stranger = await teacher(ctx)
    expect(await returnOf(ctx, stranger.cookie, started.gatewayPaymentId)).toBe('/en/packages')
  })
})
