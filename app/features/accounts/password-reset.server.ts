import { and, eq, gt } from 'drizzle-orm'
import type { Lang } from '#app/i18n/config.ts'
import { DomainError } from '#app/lib/errors.ts'
import { keyedHash, randomToken } from '#app/platform/crypto.server.ts'
import { resetFlows, users } from '#app/platform/db/schema.ts'
import { hitRateLimit } from '#app/platform/rate-limit.server.ts'
import { CODE_MAX_ATTEMPTS, consumeCode, issueCode, logCodeFailure } from './codes.server.ts'
import type { AccountContext } from './context.ts'
import { displayName } from './user-json.ts'
import { sendCodeEmail } from './emails.server.ts'
import { notify } from './notifications.server.ts'
import { hashPassword } from './passwords.server.ts'
import { findUserByEmail, limitCodeChecks, refuseCommonPassword } from './register-user.server.ts'
import { revokeAllSessions } from './sessions.server.ts'

export const RESET_FLOW_TTL_MS = 60 * 60 * 1000

const flowExpired = () => new DomainError(422, 'accounts.errors.flowExpired', { temporary_token: ['accounts.errors.flowExpired'] })

export type RequestPasswordResetOptions = AccountContext & { input: { email: string; lang: Lang } }

/**
 * Starts a reset: a temporary token (one hour) comes back whether or not the email has an
 * account, and only a real, activated account gets a code by email.
 */
export async function requestPasswordReset({ input, ...ctx }: RequestPasswordResetOptions) {
  const limit = await hitRateLimit({ db: ctx.db, key: `reset-request:${input.email}`, limit: 1, windowSeconds: 60 })
  if (!limit.allowed) throw new DomainError(429, 'accounts.errors.resendWait', undefined, limit.retryAfterSeconds)
  const user = await findUserByEmail({ db: ctx.db, email: input.email })
  const eligible = user?.emailVerifiedAt ? user : null
  const token = randomToken(32)
  await ctx.db.insert(resetFlows).values({
    tokenHash: keyedHash(ctx.env.SESSION_SECRET, `reset:${token}`),
    userId: eligible?.id ?? null,
    stage: 'code_sent',
    expiresAt: new Date(Date.now() + RESET_FLOW_TTL_MS),
  })
  if (eligible) {
    try {
      const code = await issueCode({
        db: ctx.db,
        secret: ctx.env.SESSION_SECRET,
        userId: eligible.id,
        purpose: 'reset',
        targetEmail: eligible.email,
      })
      await sendCodeEmail({
        mailer: ctx.mailer,
        logger: ctx.logger,
        lang: input.lang,
        purpose: 'reset',
        to: eligible.email,
        name: displayName(eligible, input.lang),
        code,
      })
    } catch (error) {
      // A code sent a moment ago is still valid; the answer must not differ from an unknown email's.
      if (!(error instanceof DomainError && error.status === 429)) throw error
    }
  }
  return { temporaryToken: token }
}

async function findFlow(ctx: AccountContext, token: string, stage: 'code_sent' | 'verified') {
  const [flow] = await ctx.db
    .select()
    .from(resetFlows)
    .where(
      and(
        eq(resetFlows.tokenHash, keyedHash(ctx.env.SESSION_SECRET, `reset:${token}`)),
        eq(resetFlows.stage, stage),
        gt(resetFlows.expiresAt, new Date()),
      ),
    )
    .limit(1)
  return flow ?? null
}

export type VerifyResetCodeOptions = AccountContext & { input: { temporary_token: string; code: string } }

/** Checks the emailed code; a right code turns the token into a new one that may set the password. */
export async function verifyResetCode({ input, ...ctx }: VerifyResetCodeOptions) {
  await limitCodeChecks(ctx)
  const flow = await findFlow(ctx, input.temporary_token, 'code_sent')
  if (!flow) throw flowExpired()
  if (!flow.userId) {
    // No account behind this flow: every code is wrong, and the flow ends after five tries too.
    const tries = await hitRateLimit({ db: ctx.db, key: `reset-flow:${flow.id}`, limit: CODE_MAX_ATTEMPTS - 1, windowSeconds: 3600 })
    const key = tries.allowed ? 'accounts.errors.codeWrong' : 'accounts.errors.codeExhausted'
    logCodeFailure(ctx.logger, null, 'reset', 'no_account')
    throw new DomainError(422, key, { code: [key] })
  }
  await consumeCode({
    db: ctx.db,
    logger: ctx.logger,
    secret: ctx.env.SESSION_SECRET,
    userId: flow.userId,
    purpose: 'reset',
    code: input.code,
  })
  const next = randomToken(32)
  await ctx.db
    .update(resetFlows)
    .set({ stage: 'verified', tokenHash: keyedHash(ctx.env.SESSION_SECRET, `reset:${next}`) })
    .where(eq(resetFlows.id, flow.id))
  return { temporaryToken: next }
}

export type ResetPasswordOptions = AccountContext & { input: { temporary_token: string; password: string } }

/** Sets the new password and ends every session of the account. */
export async function resetPassword({ input, ...ctx }: ResetPasswordOptions) {
  const flow = await findFlow(ctx, input.temporary_token, 'verified')
  if (!flow?.userId) throw flowExpired()
  refuseCommonPassword(input.password)
  const passwordHash = await hashPassword(input.password)
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash, updatedAt: new Date() })
      .where(eq(users.id, flow.userId as string))
    await tx.delete(resetFlows).where(eq(resetFlows.id, flow.id))
  })
  ctx.logger.info({ event: 'auth.password.reset', userId: flow.userId }, 'password reset')
  await revokeAllSessions({ ...ctx, userId: flow.userId, reason: 'password_reset' })
  await notify({ db: ctx.db, userId: flow.userId, kind: 'password_changed' })
}

export type ResetFlowUserIdOptions = Pick<AccountContext, 'db' | 'env'> & { token: string; stage: 'code_sent' | 'verified' }

/** The account behind a reset flow's token at a given stage (for the code page's countdown). */
export async function resetFlowUserId({ token, stage, ...ctx }: ResetFlowUserIdOptions): Promise<string | null | undefined> {
  const [flow] = await ctx.db
    .select({ userId: resetFlows.userId })
    .from(resetFlows)
    .where(
      and(
        eq(resetFlows.tokenHash, keyedHash(ctx.env.SESSION_SECRET, `reset:${token}`)),
        eq(resetFlows.stage, stage),
        gt(resetFlows.expiresAt, new Date()),
      ),
    )
    .limit(1)
  return flow ? flow.userId : undefined
}
