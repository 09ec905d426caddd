import { DomainError } from '#app/lib/errors.ts'
import { hitRateLimit } from '#app/platform/rate-limit.server.ts'
import type { AccountContext } from './context.ts'
import { findUserByEmail } from './register-user.server.ts'
import { dummyVerify, verifyPassword } from './passwords.server.ts'
import { startLoginChallenge } from './two-factor.server.ts'

export const LOGINS_PER_15_MIN_PER_ACCOUNT = 10
export const LOGINS_PER_15_MIN_PER_IP = 50

export type VerifyCredentialsOptions = AccountContext & { input: { email: string; password: string } }

/**
 * Checks an email and password (the first factor only: pages and the API sign in through
 * `signIn`, which asks for the second factor when it is on). Unknown emails cost the same hashing time as known ones;
 * attempts are limited per account and per address. An account not yet activated is refused
 * with its own message (after the password is checked, so it reveals nothing to a guesser).
 */
export async function verifyCredentials({ input, ...ctx }: VerifyCredentialsOptions) {
  const byIp = await hitRateLimit({ db: ctx.db, key: `login:ip:${ctx.clientIp}`, limit: LOGINS_PER_15_MIN_PER_IP, windowSeconds: 900 })
  // Each outcome is logged as an event with the account's id at most: never the email typed.
  if (!byIp.allowed) {
    ctx.logger.warn({ event: 'auth.login.limited', by: 'address' }, 'login refused')
    throw new DomainError(429, 'common.errors.tooManyRequests', undefined, byIp.retryAfterSeconds)
  }
  const byAccount = await hitRateLimit({
    db: ctx.db,
    key: `login:account:${input.email}`,
    limit: LOGINS_PER_15_MIN_PER_ACCOUNT,
    windowSeconds: 900,
  })
  if (!byAccount.allowed) {
    ctx.logger.warn({ event: 'auth.login.limited', by: 'account' }, 'login refused')
    throw new DomainError(429, 'common.errors.tooManyRequests', undefined, byAccount.retryAfterSeconds)
  }
  const user = await findUserByEmail({ db: ctx.db, email: input.email })
  const ok = user ? await verifyPassword(user.passwordHash, input.password) : await dummyVerify(input.password)
  if (!user || !ok) {
    ctx.logger.info({ event: 'auth.login.failed', userId: user?.id ?? null }, 'login failed')
    throw new DomainError(401, 'accounts.errors.invalidCredentials', { email: ['accounts.errors.invalidCredentials'] })
  }
  if (!user.emailVerifiedAt) {
    ctx.logger.info({ event: 'auth.login.inactive', userId: user.id }, 'login refused')
    throw new DomainError(403, 'accounts.errors.notActivated')
  }
  // Deactivated by an operator (docs/operators.md): told so, after the password, like the above.
  if (user.deactivatedAt) {
    ctx.logger.info({ event: 'auth.login.deactivated', userId: user.id }, 'login refused')
    throw new DomainError(403, 'accounts.errors.deactivated')
  }
  return user
}

export type SignInResult =
  | { user: NonNullable<Awaited<ReturnType<typeof findUserByEmail>>>; challenge: null }
  /** The second factor is on: the challenge token, for the code from the app; nobody is signed in yet. */
  | { user: null; challenge: string }

export type SignInOptions = AccountContext & { input: { email: string; password: string } }

/** Signs in with an email and password; with the second factor on, opens a login challenge instead. */
export async function signIn({ input, ...ctx }: SignInOptions): Promise<SignInResult> {
  const user = await verifyCredentials({ ...ctx, input })
  if (user.totpEnabledAt) return { user: null, challenge: await startLoginChallenge({ ...ctx, userId: user.id }) }
  ctx.logger.info({ event: 'auth.login.succeeded', userId: user.id }, 'login')
  return { user, challenge: null }
}
