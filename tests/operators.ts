import { eq } from 'drizzle-orm'
import { createSession, sessionCookieName } from '#app/features/accounts/index.server.ts'
import type { RequestContext } from '#app/platform/context.server.ts'
import { users, type UserRole } from '#app/platform/db/schema.ts'
import { createUser } from './factories.ts'

// Accounts for the operator area's tests: a teacher or an operator (with or without two-step
// verification, set straight in the database: turning it on is tested in accounts), signed in
// on the web (a cookie) and on the API (a bearer token).

export type AreaUser = Awaited<ReturnType<typeof areaUser>>

export async function areaUser(ctx: RequestContext, options: { role?: UserRole; twoFactor?: boolean } = {}) {
  const { role = 'operator', twoFactor = role === 'operator' } = options
  const { user, password } = await createUser(ctx)
  const [updated] = await ctx.db
    .update(users)
    .set({ role, totpEnabledAt: twoFactor ? new Date() : null })
    .where(eq(users.id, user.id))
    .returning()
  if (!updated) throw new Error('user update returned no row')
  const web = await createSession({ db: ctx.db, secret: ctx.env.SESSION_SECRET, userId: user.id, kind: 'web' })
  const api = await createSession({ db: ctx.db, secret: ctx.env.SESSION_SECRET, userId: user.id, kind: 'api' })
  return {
    user: updated,
    password,
    cookie: `${sessionCookieName(ctx.env)}=${web.token}`,
    bearer: { authorization: `Bearer ${api.token}` },
  }
}
