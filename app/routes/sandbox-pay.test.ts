import { describe, expect, it } from 'vitest'
import { findUserPayment, sandboxFor, startCheckout } from '#app/features/billing/index.server.ts'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { testContext } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { teacher } from '#tests/exams.ts'
import { action, loader } from './sandbox-pay.tsx'
import { routeAnswer } from '#tests/route-answer.ts'

// The sandbox gateway's page acts only on a payment of the signed-in teacher: another
// teacher's payment id is "not found" and stays as it was.

const testDb = setupTestDatabase(async (db) => {
  await seedPackages({ db: db.db })
})

async function checkout(ctx: ReturnType<typeof testContext>) {
  const owner = await teacher(ctx)
  const started = await startCheckout({
    ...ctx,
    gateway: sandboxFor(ctx, 'en'),
    input: { userId: owner.user.id, packageId: 1, method: 'mada', lang: 'en' },
  })
  return { owner, started }
}

const pageUrl = (id: string) => `http://localhost/en/sandbox-pay?id=${encodeURIComponent(id)}`
const args = (ctx: ReturnType<typeof testContext>, request: Request) => ({ request, params: { lang: 'en' }, context: ctx }) as never
const view = (cookie: string, id: string) => new Request(pageUrl(id), cookie ? { headers: { cookie } } : {})
function post(cookie: string, id: string, fields: Record<string, string>) {
  const body = new FormData()
  for (const [k, v] of Object.entries(fields)) body.append(k, v)
  return new Request(pageUrl(id), { method: 'POST', body, headers: { cookie, origin: 'http://localhost' } })
}
const card = { intent: 'card', number: '4111 1111 1111 1111', name: 'NOURA ALQAHTANI', expiry: '12/30', cvc: '123' }

/** The status of what a loader or action threw (a 404, a redirect) or returned. */
const statusOf = async (run: () => Promise<unknown>) => (await routeAnswer(run)).status

describe('the sandbox pay page', () => {
  it('answers 404 for another teacher’s payment, to look at, to pay or to confirm, and changes nothing', async () => {
    const ctx = testContext(testDb())
    const { owner, started } = await checkout(ctx)
    const stranger = await teacher(ctx)
    const sandbox = sandboxFor(ctx, 'en')

    expect(await statusOf(() => loader(args(ctx, view(stranger.cookie, started.gatewayPaymentId))))).toBe(404)
    expect(await statusOf(() => action(args(ctx, post(stranger.cookie, started.gatewayPaymentId, card))))).toBe(404)
    expect((await sandbox.find(started.gatewayPaymentId))?.status).toBe('initiated')

    // The owner gets to the 3-D Secure step; the stranger still cannot confirm it.
    expect(await loader(args(ctx, view(owner.cookie, started.gatewayPaymentId)))).toMatchObject({
      id: started.gatewayPaymentId,
      step: 'card',
    })
    expect(await statusOf(() => action(args(ctx, post(owner.cookie, started.gatewayPaymentId, card))))).toBe(302)
    expect(await statusOf(() => action(args(ctx, post(stranger.cookie, started.gatewayPaymentId, { intent: 'confirm' }))))).toBe(404)
    expect((await sandbox.find(started.gatewayPaymentId))?.status).toBe('awaiting_3ds')
    expect((await findUserPayment({ db: ctx.db, userId: owner.user.id, paymentId: started.paymentId }))?.status).toBe('initiated')

    const confirmed = await action(args(ctx, post(owner.cookie, started.gatewayPaymentId, { intent: 'confirm' }))).catch(
      (thrown: unknown) => thrown,
    )
    expect((confirmed as Response).status).toBe(302)
    expect((confirmed as Response).headers.get('location')).toContain('/en/payments/callback?id=')
    expect((await sandbox.find(started.gatewayPaymentId))?.status).toBe('paid')
    // Once paid, the page has nothing more to do with it, even for its owner.
    expect(await statusOf(() => loader(args(ctx, view(owner.cookie, started.gatewayPaymentId))))).toBe(404)
    expect(await statusOf(() => action(args(ctx, post(owner.cookie, started.gatewayPaymentId, { intent: 'confirm' }))))).toBe(404)
  })

  it('sends a guest to log in and back, and answers 404 for an unknown id', async () => {
    const ctx = testContext(testDb())
    const { owner, started } = await checkout(ctx)
    const guest = await loader(args(ctx, view('', started.gatewayPaymentId))).catch((thrown: unknown) => thrown)
    expect((guest as Response).headers.get('location')).toBe(
      `/en/login?redirectTo=${encodeURIComponent(`/en/sandbox-pay?id=${started.gatewayPaymentId}`)}`,
    )
    expect(await statusOf(() => loader(args(ctx, view(owner.cookie, 'sbx_00000000-0000-4000-8000-000000000000'))))).toBe(404)
    expect(await statusOf(() => loader(args(ctx, view(owner.cookie, ''))))).toBe(404)
  })
})
