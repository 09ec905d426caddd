import { describe, expect, it } from 'vitest'
import { createSession, hashPassword, sessionCookieName } from '#app/features/accounts/index.server.ts'
import { users } from '#app/platform/db/schema.ts'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { testContext } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { requireSubscriberPage } from './access.server.ts'
import { startCheckout } from './checkout.server.ts'
import { sandboxFor } from './gateway.server.ts'
import { SANDBOX_CARD_SUCCEEDS } from './gateways/sandbox.server.ts'
import { settlePayment } from './settle-payment.server.ts'

const testDb = setupTestDatabase(async (db) => {
  await seedPackages({ db: db.db })
})

async function thrown(promise: Promise<unknown>): Promise<Response> {
  try {
    await promise
  } catch (error) {
    if (error instanceof Response) return error
    throw error
  }
  throw new Error('expected a redirect')
}

async function signedInRequest(ctx: ReturnType<typeof testContext>) {
  const [user] = await ctx.db
    .insert(users)
    .values({
      username: `u${Date.now()}`,
      email: `u${Date.now()}@x.sa`,
      phone: '+966551234567',
      passwordHash: await hashPassword('x'),
      emailVerifiedAt: new Date(),
    })
    .returning()
  const { token } = await createSession({ db: ctx.db, secret: ctx.env.SESSION_SECRET, userId: user!.id, kind: 'web' })
  return {
    user: user!,
    request: new Request('http://localhost/ar/analysis', { headers: { cookie: `${sessionCookieName(ctx.env)}=${token}` } }),
  }
}

describe('the tools guard', () => {
  it('sends a guest to log in, saying why, and back afterwards', async () => {
    const ctx = testContext(testDb())
    const res = await thrown(requireSubscriberPage(new Request('http://localhost/ar/analysis'), ctx, 'ar'))
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/ar/login?redirectTo=%2Far%2Fanalysis')
    expect(decodeURIComponent(res.headers.get('set-cookie') ?? '')).toContain('accounts.messages.loginRequired')
  })

  it('sends a teacher without a subscription to the packages with the message', async () => {
    const ctx = testContext(testDb())
    const { request } = await signedInRequest(ctx)
    const res = await thrown(requireSubscriberPage(request, ctx, 'ar'))
    expect(res.headers.get('location')).toBe('/ar/packages')
    expect(decodeURIComponent(res.headers.get('set-cookie') ?? '')).toContain('billing.errors.notSubscribed')
  })

  it('lets a subscriber in', async () => {
    const ctx = testContext(testDb())
    const { user, request } = await signedInRequest(ctx)
    const gateway = sandboxFor(ctx)
    const checkout = await startCheckout({ ...ctx, gateway, input: { userId: user.id, packageId: 1, method: 'mada', lang: 'ar' } })
    await gateway.submitCard(checkout.gatewayPaymentId, { number: SANDBOX_CARD_SUCCEEDS, name: 'A', expiry: '12/30', cvc: '123' })
    await gateway.confirm3ds(checkout.gatewayPaymentId)
    await settlePayment({ db: ctx.db, gateway, env: ctx.env, logger: ctx.logger, gatewayPaymentId: checkout.gatewayPaymentId })
    const access = await requireSubscriberPage(request, ctx, 'ar')
    expect(access.subscription.endsAt.getTime()).toBeGreaterThan(Date.now())
  })
})
