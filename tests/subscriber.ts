import { createSession } from '#app/features/accounts/index.server.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { packages, payments, subscriptions, users } from '#app/platform/db/schema.ts'

let n = 0

/**
 * A teacher with a current subscription, made straight in the database (the payment journeys
 * are tested in billing): for tests of the tools behind the subscription guard.
 */
export async function subscribedTeacher(db: Db, options: { subscribed?: boolean } = {}) {
  const id = `${Date.now().toString(36)}${++n}`
  const [user] = await db
    .insert(users)
    .values({
      username: `subscriber ${id}`,
      email: `subscriber.${id}@school.sa`,
      phone: '+966551234567',
      passwordHash: 'not-used',
      emailVerifiedAt: new Date(),
    })
    .returning()
  if (!user) throw new Error('user insert returned no row')
  if (options.subscribed !== false) {
    let [pkg] = await db.select().from(packages).limit(1)
    if (!pkg)
      [pkg] = await db
        .insert(packages)
        .values({
          slug: `test-${id}`,
          nameAr: 'شهري',
          nameEn: 'Monthly',
          descriptionAr: '-',
          descriptionEn: '-',
          priceHalalas: 4900,
          months: 1,
        })
        .returning()
    if (!pkg) throw new Error('package insert returned no row')
    const [payment] = await db
      .insert(payments)
      .values({
        userId: user.id,
        packageId: pkg.id,
        gateway: 'sandbox',
        method: 'mada',
        price: 4900,
        vatRateBp: 1500,
        vat: 735,
        total: 5635,
        status: 'paid',
        settledAt: new Date(),
      })
      .returning()
    const now = Date.now()
    await db.insert(subscriptions).values({
      userId: user.id,
      packageId: pkg.id,
      paymentId: payment!.id,
      startsAt: new Date(now - 86_400_000),
      endsAt: new Date(now + 30 * 86_400_000),
    })
  }
  return user
}

/** An API token of a user, with the headers a client sends. */
export async function apiHeaders(db: Db, secret: string, userId: string, lang: 'ar' | 'en' = 'en') {
  const { token } = await createSession({ db, secret, userId, kind: 'api' })
  return { authorization: `Bearer ${token}`, 'accept-language': lang }
}
