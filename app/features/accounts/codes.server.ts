import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm'
import { DomainError } from '#app/lib/errors.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { oneTimeCodes, users, type CodePurpose } from '#app/platform/db/schema.ts'
import { constantTimeEqual, keyedHash, sixDigitCode } from '#app/platform/crypto.server.ts'
import type { Logger } from '#app/platform/logger.server.ts'
import { hitRateLimit } from '#app/platform/rate-limit.server.ts'

export const CODE_TTL_SECONDS = 10 * 60
export const CODE_MAX_ATTEMPTS = 5
export const CODE_RESEND_SECONDS = 60
export const CODE_SENDS_PER_HOUR = 5

type IssueCodeOptions = {
  db: Db
  secret: string
  userId: string
  purpose: CodePurpose
  targetEmail: string
  payload?: Record<string, string>
  now?: Date
}

/**
 * A new code for a purpose: refused within 60 s of the last one (429 with Retry-After) and
 * after five in an hour. Earlier codes of the same purpose stop working.
 */
export async function issueCode({
  db,
  secret,
  userId,
  purpose,
  targetEmail,
  payload,
  now = new Date(),
}: IssueCodeOptions): Promise<string> {
  const code = sixDigitCode()
  await db.transaction(async (tx) => {
    // One issuer at a time per user: two requests arriving together must not both pass the
    // 60-second rule (each would send a code, and on PostgreSQL both would stay valid).
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update')
    const [last] = await tx
      .select({ createdAt: oneTimeCodes.createdAt })
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, purpose)))
      .orderBy(desc(oneTimeCodes.createdAt))
      .limit(1)
    if (last) {
      const waited = (now.getTime() - last.createdAt.getTime()) / 1000
      if (waited < CODE_RESEND_SECONDS)
        throw new DomainError(429, 'accounts.errors.resendWait', undefined, Math.ceil(CODE_RESEND_SECONDS - waited))
    }
    const limit = await hitRateLimit({
      db: tx,
      key: `code-send:${userId}:${purpose}`,
      limit: CODE_SENDS_PER_HOUR,
      windowSeconds: 3600,
      now,
    })
    if (!limit.allowed) throw new DomainError(429, 'accounts.errors.tooManyCodes', undefined, limit.retryAfterSeconds)

    await tx
      .update(oneTimeCodes)
      .set({ consumedAt: now })
      .where(and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, purpose), isNull(oneTimeCodes.consumedAt)))
    await tx.insert(oneTimeCodes).values({
      userId,
      purpose,
      codeHash: keyedHash(secret, `${purpose}:${userId}:${code}`),
      targetEmail,
      payload: payload ?? null,
      expiresAt: new Date(now.getTime() + CODE_TTL_SECONDS * 1000),
      createdAt: now,
    })
  })
  return code
}

type ConsumeCodeOptions = { db: Db; logger: Logger; secret: string; userId: string; purpose: CodePurpose; code: string; now?: Date }

export type CodeFailure = 'wrong' | 'exhausted' | 'expired' | 'no_account'

/** A failed code check as a security event (ASVS 16.3.1): the account's id at most, never the code or the address. */
export function logCodeFailure(logger: Logger, userId: string | null, purpose: CodePurpose, reason: CodeFailure) {
  const event = { event: 'auth.code.failed', userId, purpose, reason }
  if (reason === 'exhausted') logger.warn(event, 'code refused')
  else logger.info(event, 'code refused')
}

/**
 * Checks a code and uses it up. A wrong code counts an attempt; the fifth wrong one ends the
 * code. Returns the code's target email and payload. Every refusal is logged as an event.
 */
export async function consumeCode({ db, logger, secret, userId, purpose, code, now = new Date() }: ConsumeCodeOptions) {
  const expired = () => {
    logCodeFailure(logger, userId, purpose, 'expired')
    return new DomainError(422, 'accounts.errors.codeExpired', { code: ['accounts.errors.codeExpired'] })
  }
  const [row] = await db
    .select()
    .from(oneTimeCodes)
    .where(
      and(
        eq(oneTimeCodes.userId, userId),
        eq(oneTimeCodes.purpose, purpose),
        isNull(oneTimeCodes.consumedAt),
        gt(oneTimeCodes.expiresAt, now),
      ),
    )
    .orderBy(desc(oneTimeCodes.createdAt))
    .limit(1)
  if (!row) throw expired()
  const matches = constantTimeEqual(row.codeHash, keyedHash(secret, `${purpose}:${userId}:${code}`))
  if (!matches) {
    // Counted in the database, not from the row read above: wrong codes sent together must
    // each count, or a burst of guesses would get past the limit of five.
    const [counted] = await db
      .update(oneTimeCodes)
      .set({
        attempts: sql`${oneTimeCodes.attempts} + 1`,
        consumedAt: sql`case when ${oneTimeCodes.attempts} + 1 >= ${CODE_MAX_ATTEMPTS} then ${now.toISOString()}::timestamptz else null end`,
      })
      .where(and(eq(oneTimeCodes.id, row.id), isNull(oneTimeCodes.consumedAt)))
      .returning({ attempts: oneTimeCodes.attempts })
    const attempts = counted?.attempts ?? CODE_MAX_ATTEMPTS
    const exhausted = attempts >= CODE_MAX_ATTEMPTS
    logCodeFailure(logger, userId, purpose, exhausted ? 'exhausted' : 'wrong')
    const key = exhausted ? 'accounts.errors.codeExhausted' : 'accounts.errors.codeWrong'
    throw new DomainError(422, key, { code: [key] })
  }
  // Only one request can use the code: the update succeeds once.
  const used = await db
    .update(oneTimeCodes)
    .set({ consumedAt: now })
    .where(and(eq(oneTimeCodes.id, row.id), isNull(oneTimeCodes.consumedAt)))
    .returning({ id: oneTimeCodes.id })
  if (used.length === 0) throw expired()
  return { targetEmail: row.targetEmail, payload: row.payload ?? {} }
}

export type ResendWaitSecondsOptions = { db: Db; userId: string; purpose: CodePurpose; now?: Date }

/** Seconds before another code of this purpose may be sent (0 when it may be sent now). */
export async function resendWaitSeconds({ db, userId, purpose, now = new Date() }: ResendWaitSecondsOptions): Promise<number> {
  const [last] = await db
    .select({ createdAt: oneTimeCodes.createdAt })
    .from(oneTimeCodes)
    .where(and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, purpose)))
    .orderBy(desc(oneTimeCodes.createdAt))
    .limit(1)
  if (!last) return 0
  return Math.max(0, Math.ceil(CODE_RESEND_SECONDS - (now.getTime() - last.createdAt.getTime()) / 1000))
}
