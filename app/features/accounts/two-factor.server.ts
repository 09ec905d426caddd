import { randomInt } from 'node:crypto'
import { and, count, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm'
import { DomainError } from '#app/lib/errors.ts'
import { keyedHash, randomToken, seal, unseal } from '#app/platform/crypto.server.ts'
import { loginChallenges, recoveryCodes, users } from '#app/platform/db/schema.ts'
import { hitRateLimit } from '#app/platform/rate-limit.server.ts'
import type { AccountContext } from './context.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { notify } from './notifications.server.ts'
import { verifyPassword } from './passwords.server.ts'
import { limitCodeChecks } from './register-user.server.ts'
import { base32Encode, matchTotp, newTotpKey, otpauthUri } from './totp.server.ts'

// The optional second factor (ASVS 6.3.3): a key shared with an authenticator app (TOTP,
// RFC 6238) and ten one-use recovery codes. Turned on from the profile; from then on a
// right password opens a login challenge that a code from the app (or a recovery code) ends.

export const RECOVERY_CODE_COUNT = 10
export const LOGIN_CHALLENGE_TTL_MS = 10 * 60 * 1000
export const LOGIN_CHALLENGE_MAX_ATTEMPTS = 5
/** Wrong or right, second-factor checks per account per hour, whatever the address or the challenge. */
export const SECOND_FACTOR_CHECKS_PER_HOUR = 20
const ISSUER = 'Hallil'
const SEAL_PURPOSE = 'totp-key'

type User = typeof users.$inferSelect
export type SecondFactor = 'totp' | 'recovery'

export type TotpEnrolment = {
  /** The key as an app takes it typed in: base32, in groups of four. */
  key: string
  /** The otpauth:// address the QR code carries. */
  uri: string
}

const enrolmentOf = (email: string, key: Uint8Array): TotpEnrolment => ({
  key: base32Encode(key).replace(/(.{4})(?=.)/g, '$1 '),
  uri: otpauthUri({ issuer: ISSUER, account: email, key }),
})

const keyOf = (ctx: Pick<AccountContext, 'env'>, user: Pick<User, 'totpSecret'>) =>
  user.totpSecret ? unseal(ctx.env.SESSION_SECRET, SEAL_PURPOSE, user.totpSecret) : null

const wrongCode = (key = 'accounts.errors.twoFactorCodeWrong') => new DomainError(422, key, { code: [key] })

/** Ten letters and digits from base32's alphabet (50 bits), shown as two groups of five. */
function newRecoveryCode(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567'
  let code = ''
  for (let i = 0; i < 10; i++) code += alphabet[randomInt(0, 32)]
  return `${code.slice(0, 5)}-${code.slice(5)}`
}

/** What is stored for a recovery code: an HMAC, bound to its account. */
const recoveryHash = (ctx: Pick<AccountContext, 'env'>, userId: string, code: string) =>
  keyedHash(ctx.env.SESSION_SECRET, `recovery:${userId}:${code.replace(/[\s-]/g, '').toLowerCase()}`)

/** Checks from one address (every code form shares it) and for one account, both bounded. */
async function limitSecondFactorChecks(ctx: AccountContext, userId: string) {
  await limitCodeChecks(ctx)
  const limit = await hitRateLimit({
    db: ctx.db,
    key: `second-factor:${userId}`,
    limit: SECOND_FACTOR_CHECKS_PER_HOUR,
    windowSeconds: 3600,
  })
  if (!limit.allowed) {
    ctx.logger.warn({ event: 'auth.two_factor.limited', userId }, 'second factor refused')
    throw new DomainError(429, 'common.errors.tooManyRequests', undefined, limit.retryAfterSeconds)
  }
}

export type StartTotpEnrolmentOptions = AccountContext & { user: User }

/** Step 1 of turning the factor on: a new key, kept sealed until a code from the app confirms it. */
export async function startTotpEnrolment({ user, ...ctx }: StartTotpEnrolmentOptions): Promise<TotpEnrolment> {
  if (user.totpEnabledAt) throw new DomainError(409, 'accounts.errors.twoFactorAlreadyOn')
  const key = newTotpKey()
  const [started] = await ctx.db
    .update(users)
    .set({ totpSecret: seal(ctx.env.SESSION_SECRET, SEAL_PURPOSE, key), totpLastStep: null, updatedAt: new Date() })
    .where(and(eq(users.id, user.id), isNull(users.totpEnabledAt)))
    .returning({ id: users.id })
  if (!started) throw new DomainError(409, 'accounts.errors.twoFactorAlreadyOn')
  return enrolmentOf(user.email, key)
}

/** The enrolment waiting for its code (the profile shows it again after a reload), or null. */
export function pendingTotpEnrolment(ctx: Pick<AccountContext, 'env'>, user: User): TotpEnrolment | null {
  if (user.totpEnabledAt) return null
  const key = keyOf(ctx, user)
  return key ? enrolmentOf(user.email, key) : null
}

export type CancelTotpEnrolmentOptions = AccountContext & { user: User }

/** Leaves an enrolment that was not confirmed. */
export async function cancelTotpEnrolment({ user, ...ctx }: CancelTotpEnrolmentOptions): Promise<void> {
  await ctx.db
    .update(users)
    .set({ totpSecret: null, updatedAt: new Date() })
    .where(and(eq(users.id, user.id), isNull(users.totpEnabledAt)))
}

export type ConfirmTotpEnrolmentOptions = AccountContext & { user: User; input: { code: string; now?: Date } }

/**
 * Step 2: a code from the app proves it holds the key and turns the factor on. Returns the
 * recovery codes, in clear this once (only their HMACs are kept).
 */
export async function confirmTotpEnrolment({ user, input, ...ctx }: ConfirmTotpEnrolmentOptions): Promise<string[]> {
  const now = input.now ?? new Date()
  await limitSecondFactorChecks(ctx, user.id)
  const key = user.totpEnabledAt ? null : keyOf(ctx, user)
  if (!key) throw new DomainError(409, user.totpEnabledAt ? 'accounts.errors.twoFactorAlreadyOn' : 'accounts.errors.twoFactorNotStarted')
  const step = matchTotp(key, input.code, now)
  if (step === null) {
    ctx.logger.info({ event: 'auth.two_factor.failed', userId: user.id, reason: 'enrolment' }, 'second factor refused')
    throw wrongCode()
  }
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode)
  await ctx.db.transaction(async (tx) => {
    // The key confirmed must still be the one stored (another tab may have started again).
    const [on] = await tx
      .update(users)
      .set({ totpEnabledAt: now, totpLastStep: step, updatedAt: now })
      .where(and(eq(users.id, user.id), isNull(users.totpEnabledAt), eq(users.totpSecret, user.totpSecret ?? '')))
      .returning({ id: users.id })
    if (!on) throw new DomainError(409, 'accounts.errors.twoFactorNotStarted')
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id))
    await tx.insert(recoveryCodes).values(codes.map((code) => ({ userId: user.id, codeHash: recoveryHash(ctx, user.id, code) })))
  })
  ctx.logger.info({ event: 'auth.two_factor.enabled', userId: user.id }, 'second factor on')
  await notify({ db: ctx.db, userId: user.id, kind: 'two_factor_enabled' })
  return codes
}

/**
 * A code from the app (each time step once: a code seen by someone else cannot be replayed)
 * or an unused recovery code (used up here). Null when it is neither.
 */
async function spendSecondFactor(ctx: AccountContext, user: User, code: string, now: Date): Promise<SecondFactor | null> {
  const typed = code.replace(/[\s-]/g, '').toLowerCase()
  if (/^\d{6}$/.test(typed)) {
    const key = keyOf(ctx, user)
    const step = key ? matchTotp(key, typed, now) : null
    if (step === null) return null
    const [used] = await ctx.db
      .update(users)
      .set({ totpLastStep: step })
      .where(and(eq(users.id, user.id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
      .returning({ id: users.id })
    return used ? 'totp' : null
  }
  if (!/^[a-z2-7]{10}$/.test(typed)) return null
  const [used] = await ctx.db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(
      and(eq(recoveryCodes.userId, user.id), eq(recoveryCodes.codeHash, recoveryHash(ctx, user.id, typed)), isNull(recoveryCodes.usedAt)),
    )
    .returning({ id: recoveryCodes.id })
  if (!used) return null
  ctx.logger.info(
    { event: 'auth.two_factor.recovery_used', userId: user.id, count: await unusedRecoveryCodes({ db: ctx.db, userId: user.id }) },
    'recovery code used',
  )
  return 'recovery'
}

export type UnusedRecoveryCodesOptions = { db: Db; userId: string }

export async function unusedRecoveryCodes({ db, userId }: UnusedRecoveryCodesOptions): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)))
  return row?.n ?? 0
}

export type DisableTotpOptions = AccountContext & { user: User; input: { password: string; code: string; now?: Date } }

/** Turns the factor off: the password and a code from the app (or a recovery code) both needed. */
export async function disableTotp({ user, input, ...ctx }: DisableTotpOptions): Promise<void> {
  if (!user.totpEnabledAt) throw new DomainError(409, 'accounts.errors.twoFactorNotOn')
  if (!(await verifyPassword(user.passwordHash, input.password)))
    throw new DomainError(422, 'accounts.errors.passwordWrong', { password: ['accounts.errors.passwordWrong'] })
  await limitSecondFactorChecks(ctx, user.id)
  if (!(await spendSecondFactor(ctx, user, input.code, input.now ?? new Date()))) {
    ctx.logger.info({ event: 'auth.two_factor.failed', userId: user.id, reason: 'disable' }, 'second factor refused')
    throw wrongCode()
  }
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null, updatedAt: new Date() })
      .where(eq(users.id, user.id))
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id))
    await tx.delete(loginChallenges).where(eq(loginChallenges.userId, user.id))
  })
  ctx.logger.info({ event: 'auth.two_factor.disabled', userId: user.id }, 'second factor off')
  await notify({ db: ctx.db, userId: user.id, kind: 'two_factor_disabled' })
}

export type RemoveSecondFactorOptions = Pick<AccountContext, 'db' | 'logger'> & { input: { email: string } }

/**
 * The operator's way back in for a teacher who lost both the phone and the recovery codes
 * (`npm run admin -- users:two-factor-off <email>`), after checking who is asking. False when
 * the account has no second factor.
 */
export async function removeSecondFactor({ input, ...ctx }: RemoveSecondFactorOptions): Promise<boolean> {
  const removed = await ctx.db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null, updatedAt: new Date() })
      .where(and(eq(users.email, input.email.trim().toLowerCase()), or(isNotNull(users.totpEnabledAt), isNotNull(users.totpSecret))))
      .returning({ id: users.id })
    if (!user) return null
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id))
    await tx.delete(loginChallenges).where(eq(loginChallenges.userId, user.id))
    return user.id
  })
  if (!removed) return false
  ctx.logger.info({ event: 'auth.two_factor.disabled', userId: removed, reason: 'operator' }, 'second factor off')
  await notify({ db: ctx.db, userId: removed, kind: 'two_factor_disabled' })
  return true
}

export type StartLoginChallengeOptions = AccountContext & { userId: string; now?: Date }

/** After the right password of an account with the factor on: a challenge token (ten minutes) instead of a session. */
export async function startLoginChallenge({ userId, now = new Date(), ...ctx }: StartLoginChallengeOptions): Promise<string> {
  const token = randomToken(32)
  await ctx.db.delete(loginChallenges).where(and(eq(loginChallenges.userId, userId), lt(loginChallenges.expiresAt, now)))
  await ctx.db.insert(loginChallenges).values({
    tokenHash: keyedHash(ctx.env.SESSION_SECRET, `login-challenge:${token}`),
    userId,
    expiresAt: new Date(now.getTime() + LOGIN_CHALLENGE_TTL_MS),
    createdAt: now,
  })
  ctx.logger.info({ event: 'auth.login.second_factor', userId }, 'login waits for the second factor')
  return token
}

const challengeExpired = () => new DomainError(422, 'accounts.errors.twoFactorExpired', { code: ['accounts.errors.twoFactorExpired'] })

export type IsLoginChallengeOpenOptions = Pick<AccountContext, 'db' | 'env'> & { token: string; now?: Date }

/** Whether a challenge token is still open (the code page shows the form, or sends back to log in). */
export async function isLoginChallengeOpen({ token, now = new Date(), ...ctx }: IsLoginChallengeOpenOptions): Promise<boolean> {
  if (!token || token.length > 200) return false
  const [row] = await ctx.db
    .select({ id: loginChallenges.id })
    .from(loginChallenges)
    .where(
      and(eq(loginChallenges.tokenHash, keyedHash(ctx.env.SESSION_SECRET, `login-challenge:${token}`)), gt(loginChallenges.expiresAt, now)),
    )
    .limit(1)
  return Boolean(row)
}

export type CompleteLoginChallengeOptions = AccountContext & { input: { token: string; code: string; now?: Date } }

/**
 * Ends a sign-in with its second factor: returns the user, whom the caller signs in. Five
 * wrong codes end the challenge (the password must be typed again).
 */
export async function completeLoginChallenge({ input, ...ctx }: CompleteLoginChallengeOptions): Promise<User> {
  const now = input.now ?? new Date()
  if (!input.token || input.token.length > 200) throw challengeExpired()
  const [row] = await ctx.db
    .select({ challenge: loginChallenges, user: users })
    .from(loginChallenges)
    .innerJoin(users, eq(users.id, loginChallenges.userId))
    .where(
      and(
        eq(loginChallenges.tokenHash, keyedHash(ctx.env.SESSION_SECRET, `login-challenge:${input.token}`)),
        gt(loginChallenges.expiresAt, now),
      ),
    )
    .limit(1)
  if (!row) throw challengeExpired()
  const { challenge, user } = row
  await limitSecondFactorChecks(ctx, user.id)
  const factor = user.totpEnabledAt ? await spendSecondFactor(ctx, user, input.code, now) : null
  if (!factor) {
    const [counted] = await ctx.db
      .update(loginChallenges)
      .set({ attempts: sql`${loginChallenges.attempts} + 1` })
      .where(eq(loginChallenges.id, challenge.id))
      .returning({ attempts: loginChallenges.attempts })
    const exhausted = (counted?.attempts ?? LOGIN_CHALLENGE_MAX_ATTEMPTS) >= LOGIN_CHALLENGE_MAX_ATTEMPTS
    if (exhausted) await ctx.db.delete(loginChallenges).where(eq(loginChallenges.id, challenge.id))
    const event = { event: 'auth.two_factor.failed', userId: user.id, reason: exhausted ? 'exhausted' : 'wrong' }
    if (exhausted) ctx.logger.warn(event, 'second factor refused')
    else ctx.logger.info(event, 'second factor refused')
    throw wrongCode(exhausted ? 'accounts.errors.twoFactorExhausted' : 'accounts.errors.twoFactorCodeWrong')
  }
  // Only one request may end the challenge.
  const ended = await ctx.db.delete(loginChallenges).where(eq(loginChallenges.id, challenge.id)).returning({ id: loginChallenges.id })
  if (ended.length === 0) throw challengeExpired()
  ctx.logger.info({ event: 'auth.login.succeeded', userId: user.id, factor }, 'login')
  return user
}
