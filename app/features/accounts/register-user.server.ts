import { and, desc, eq, gt, sql } from 'drizzle-orm'
import type { Lang } from '#app/i18n/config.ts'
import { DomainError } from '#app/lib/errors.ts'
import type { CodePurpose } from '#app/platform/db/schema.ts'
import { oneTimeCodes, users } from '#app/platform/db/schema.ts'
import { discardFiles } from '#app/platform/files.server.ts'
import { hitRateLimit } from '#app/platform/rate-limit.server.ts'
import { storeAvatar } from './avatar.server.ts'
import { consumeCode, issueCode, logCodeFailure } from './codes.server.ts'
import type { AccountContext } from './context.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { displayName } from './user-json.ts'
import { sendCodeEmail } from './emails.server.ts'
import { notify } from './notifications.server.ts'
import { hashPassword, isCommonPassword } from './passwords.server.ts'
import type { RegisterInput } from './schemas.ts'

export const REGISTRATIONS_PER_HOUR_PER_IP = 10
export const CODE_CHECKS_PER_15_MIN_PER_IP = 30

export function refuseCommonPassword(password: string, field = 'password') {
  if (isCommonPassword(password))
    throw new DomainError(422, 'accounts.errors.passwordCommon', { [field]: ['accounts.errors.passwordCommon'] })
}

export type FindUserByEmailOptions = { db: Db; email: string }

export async function findUserByEmail({ db, email }: FindUserByEmailOptions) {
  const [user] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1)
  return user ?? null
}

export type AssertUsernameFreeOptions = { db: Db; username: string; exceptUserId?: string }

export async function assertUsernameFree({ db, username, exceptUserId }: AssertUsernameFreeOptions) {
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
    .limit(1)
  if (taken && taken.id !== exceptUserId)
    throw new DomainError(422, 'accounts.errors.usernameTaken', { username: ['accounts.errors.usernameTaken'] })
}

/** Limits code checks from one address, whatever the account, to slow down guessing. */
export async function limitCodeChecks(ctx: AccountContext) {
  const limit = await hitRateLimit({
    db: ctx.db,
    key: `code-check:ip:${ctx.clientIp}`,
    limit: CODE_CHECKS_PER_15_MIN_PER_IP,
    windowSeconds: 900,
  })
  if (!limit.allowed) throw new DomainError(429, 'common.errors.tooManyRequests', undefined, limit.retryAfterSeconds)
}

export type RegisterUserOptions = AccountContext & { input: RegisterInput & { lang: Lang; avatar?: Uint8Array | null } }

/**
 * Creates an account that is not yet activated and emails its activation code. A failed
 * mail does not undo the account: the code can be sent again.
 */
export async function registerUser({ input, ...ctx }: RegisterUserOptions) {
  const limit = await hitRateLimit({
    db: ctx.db,
    key: `register:ip:${ctx.clientIp}`,
    limit: REGISTRATIONS_PER_HOUR_PER_IP,
    windowSeconds: 3600,
  })
  if (!limit.allowed) throw new DomainError(429, 'common.errors.tooManyRequests', undefined, limit.retryAfterSeconds)
  refuseCommonPassword(input.password)
  if (await findUserByEmail({ db: ctx.db, email: input.email }))
    throw new DomainError(422, 'accounts.errors.emailTaken', { email: ['accounts.errors.emailTaken'] })
  await assertUsernameFree({ db: ctx.db, username: input.username })
  const avatarFile = input.avatar && input.avatar.length > 0 ? await storeAvatar({ files: ctx.files, data: input.avatar }) : null
  const passwordHash = await hashPassword(input.password)
  let user
  try {
    ;[user] = await ctx.db
      .insert(users)
      .values({ username: input.username, email: input.email, phone: input.phone, passwordHash, avatarFile, lang: input.lang })
      .returning()
  } catch (error) {
    // Two registrations raced for the same email or username: the unique index decides.
    if (avatarFile) await discardFiles({ files: ctx.files, keys: [avatarFile] })
    const message = error instanceof Error ? `${error.message} ${String((error as { cause?: unknown }).cause ?? '')}` : ''
    if (/users_email_unique/.test(message))
      throw new DomainError(422, 'accounts.errors.emailTaken', { email: ['accounts.errors.emailTaken'] })
    if (/users_username_lower_unique/.test(message))
      throw new DomainError(422, 'accounts.errors.usernameTaken', { username: ['accounts.errors.usernameTaken'] })
    throw error
  }
  if (!user) throw new Error('user insert returned no row')
  const code = await issueCode({
    db: ctx.db,
    secret: ctx.env.SESSION_SECRET,
    userId: user.id,
    purpose: 'activation',
    targetEmail: user.email,
  })
  await sendCodeEmail({
    mailer: ctx.mailer,
    logger: ctx.logger,
    lang: input.lang,
    purpose: 'activation',
    to: user.email,
    name: displayName(user, input.lang),
    code,
  })
  return user
}

export type ActivateAccountOptions = AccountContext & { input: { email: string; code: string } }

/** Activates an account with its emailed code; the same answer for an unknown email as for a wrong code. */
export async function activateAccount({ input, ...ctx }: ActivateAccountOptions) {
  await limitCodeChecks(ctx)
  const user = await findUserByEmail({ db: ctx.db, email: input.email })
  if (!user) {
    logCodeFailure(ctx.logger, null, 'activation', 'no_account')
    throw new DomainError(422, 'accounts.errors.codeWrong', { code: ['accounts.errors.codeWrong'] })
  }
  if (user.emailVerifiedAt) throw new DomainError(409, 'accounts.errors.alreadyActive')
  await consumeCode({
    db: ctx.db,
    logger: ctx.logger,
    secret: ctx.env.SESSION_SECRET,
    userId: user.id,
    purpose: 'activation',
    code: input.code,
  })
  const [activated] = await ctx.db
    .update(users)
    .set({ emailVerifiedAt: new Date(), updatedAt: new Date() })
    .where(eq(users.id, user.id))
    .returning()
  await notify({ db: ctx.db, userId: user.id, kind: 'welcome', params: { name: user.username } })
  return activated ?? user
}

export type ResendCodeOptions = AccountContext & {
  input: { email: string; purpose: CodePurpose; lang: Lang }
  currentUser?: { id: string } | null
}

/**
 * Sends a new code. For activation and reset the email may be anyone's, so an unknown or
 * ineligible email gets the same silent success (after the same 60-second rule).
 */
export async function resendCode({ input, currentUser, ...ctx }: ResendCodeOptions) {
  const user = await findUserByEmail({ db: ctx.db, email: input.email })
  const eligible =
    user &&
    ((input.purpose === 'activation' && !user.emailVerifiedAt) ||
      (input.purpose === 'reset' && user.emailVerifiedAt) ||
      ((input.purpose === 'change_email' || input.purpose === 'change_password') && currentUser?.id === user.id))
  if (!user || !eligible) {
    const limit = await hitRateLimit({ db: ctx.db, key: `resend-unknown:${input.purpose}:${input.email}`, limit: 1, windowSeconds: 60 })
    if (!limit.allowed) throw new DomainError(429, 'accounts.errors.resendWait', undefined, limit.retryAfterSeconds)
    return
  }
  // A change of email sends its code to the new address kept with the previous code.
  let target = user.email
  let payload: Record<string, string> | undefined
  if (input.purpose === 'change_email' || input.purpose === 'change_password') {
    const previous = await latestPendingCode(ctx, user.id, input.purpose)
    if (!previous) throw new DomainError(422, 'accounts.errors.codeExpired', { code: ['accounts.errors.codeExpired'] })
    target = previous.targetEmail
    payload = previous.payload ?? undefined
  }
  const code = await issueCode({
    db: ctx.db,
    secret: ctx.env.SESSION_SECRET,
    userId: user.id,
    purpose: input.purpose,
    targetEmail: target,
    payload,
  })
  await sendCodeEmail({
    mailer: ctx.mailer,
    logger: ctx.logger,
    lang: input.lang,
    purpose: input.purpose,
    to: target,
    name: displayName(user, input.lang),
    code,
  })
}

/** The last code of a change (within the hour), whose target and payload a resend keeps. */
async function latestPendingCode(ctx: AccountContext, userId: string, purpose: CodePurpose) {
  const [row] = await ctx.db
    .select()
    .from(oneTimeCodes)
    .where(
      and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, purpose), gt(oneTimeCodes.expiresAt, new Date(Date.now() - 3600_000))),
    )
    .orderBy(desc(oneTimeCodes.createdAt))
    .limit(1)
  return row ?? null
}

export type FindUserByIdOptions = { db: Db; id: string }

export async function findUserById({ db, id }: FindUserByIdOptions) {
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1)
  return user ?? null
}
