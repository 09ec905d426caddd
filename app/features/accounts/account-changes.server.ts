import { eq } from 'drizzle-orm'
import type { Lang } from '#app/i18n/config.ts'
import { DomainError } from '#app/lib/errors.ts'
import { examImages, schoolDetails, users } from '#app/platform/db/schema.ts'
import { discardFiles } from '#app/platform/files.server.ts'
import { storeAvatar } from './avatar.server.ts'
import { consumeCode, issueCode } from './codes.server.ts'
import type { AccountContext } from './context.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { displayName } from './user-json.ts'
import { sendCodeEmail } from './emails.server.ts'
import { notify } from './notifications.server.ts'
import { hashPassword, verifyPassword } from './passwords.server.ts'
import { assertUsernameFree, findUserByEmail, limitCodeChecks, refuseCommonPassword } from './register-user.server.ts'
import { revokeAllSessions } from './sessions.server.ts'

type User = typeof users.$inferSelect

async function requirePassword(user: User, password: string, field: string) {
  if (!(await verifyPassword(user.passwordHash, password)))
    throw new DomainError(422, 'accounts.errors.passwordWrong', { [field]: ['accounts.errors.passwordWrong'] })
}

export type UpdateProfileOptions = AccountContext & {
  user: User
  input: { username?: string; phone?: string; full_name_ar?: string | null; full_name_en?: string | null; avatar?: Uint8Array | null }
}

/**
 * Changes the username, phone, full names or picture; the old picture is removed once the new
 * one is stored. A full name given here counts as the answer to the after-activation question.
 */
export async function updateProfile({ user, input, ...ctx }: UpdateProfileOptions) {
  if (input.username && input.username.toLowerCase() !== user.username.toLowerCase())
    await assertUsernameFree({ db: ctx.db, username: input.username, exceptUserId: user.id })
  const avatarFile = input.avatar && input.avatar.length > 0 ? await storeAvatar({ files: ctx.files, data: input.avatar }) : undefined
  let updated: User | undefined
  try {
    ;[updated] = await ctx.db
      .update(users)
      .set({
        ...(input.username ? { username: input.username } : {}),
        ...(input.phone ? { phone: input.phone } : {}),
        ...(input.full_name_ar !== undefined ? { fullNameAr: input.full_name_ar } : {}),
        ...(input.full_name_en !== undefined ? { fullNameEn: input.full_name_en } : {}),
        ...((input.full_name_ar || input.full_name_en) && !user.fullNameAskedAt ? { fullNameAskedAt: new Date() } : {}),
        ...(avatarFile ? { avatarFile } : {}),
        updatedAt: new Date(),
      })
      .where(eq(users.id, user.id))
      .returning()
  } catch (error) {
    // The new picture was stored for a row that did not change: take it back.
    if (avatarFile) await discardFiles({ files: ctx.files, keys: [avatarFile] })
    throw error
  }
  if (avatarFile && user.avatarFile) await discardFiles({ files: ctx.files, keys: [user.avatarFile] })
  return updated ?? user
}

export type AnswerFullNameOptions = { db: Db; user: User; answer: { full_name_ar: string | null; full_name_en?: string | null } | 'skip' }

/**
 * The answer to "what is your full name?", asked once after activation: the names (the English
 * one optional), or `skip`. Either way she is not asked again; the profile still changes them.
 */
export async function answerFullName({ db, user, answer }: AnswerFullNameOptions) {
  const names = answer === 'skip' ? {} : { fullNameAr: answer.full_name_ar, fullNameEn: answer.full_name_en ?? null }
  const [updated] = await db
    .update(users)
    .set({ ...names, fullNameAskedAt: user.fullNameAskedAt ?? new Date(), updatedAt: new Date() })
    .where(eq(users.id, user.id))
    .returning()
  return updated ?? user
}

/** Whether the full-name question is still to be asked (never answered nor skipped). */
export function isFullNameToAsk(user: Pick<User, 'fullNameAskedAt'>): boolean {
  return user.fullNameAskedAt === null
}

export type RequestPasswordChangeOptions = AccountContext & {
  user: User
  input: { current_password: string; password: string; lang: Lang }
}

/** Step 1 of a password change: checks the current password and emails a code; the new hash waits with the code. */
export async function requestPasswordChange({ user, input, ...ctx }: RequestPasswordChangeOptions) {
  await requirePassword(user, input.current_password, 'current_password')
  refuseCommonPassword(input.password)
  const passwordHash = await hashPassword(input.password)
  const code = await issueCode({
    db: ctx.db,
    secret: ctx.env.SESSION_SECRET,
    userId: user.id,
    purpose: 'change_password',
    targetEmail: user.email,
    payload: { passwordHash },
  })
  await sendCodeEmail({
    mailer: ctx.mailer,
    logger: ctx.logger,
    lang: input.lang,
    purpose: 'change_password',
    to: user.email,
    name: displayName(user, input.lang),
    code,
  })
}

export type ConfirmPasswordChangeOptions = AccountContext & { user: User; input: { code: string } }

/** Step 2: the code applies the new password and ends every session (the caller signs this device in again). */
export async function confirmPasswordChange({ user, input, ...ctx }: ConfirmPasswordChangeOptions) {
  await limitCodeChecks(ctx)
  const { payload } = await consumeCode({
    db: ctx.db,
    logger: ctx.logger,
    secret: ctx.env.SESSION_SECRET,
    userId: user.id,
    purpose: 'change_password',
    code: input.code,
  })
  if (!payload.passwordHash) throw new DomainError(422, 'accounts.errors.codeExpired', { code: ['accounts.errors.codeExpired'] })
  await ctx.db.update(users).set({ passwordHash: payload.passwordHash, updatedAt: new Date() }).where(eq(users.id, user.id))
  ctx.logger.info({ event: 'auth.password.changed', userId: user.id }, 'password changed')
  await revokeAllSessions({ ...ctx, userId: user.id, reason: 'password_changed' })
  await notify({ db: ctx.db, userId: user.id, kind: 'password_changed' })
}

export type RequestEmailChangeOptions = AccountContext & { user: User; input: { email: string; password: string; lang: Lang } }

/** Step 1 of an email change: the password confirms it is the owner; the code goes to the new address. */
export async function requestEmailChange({ user, input, ...ctx }: RequestEmailChangeOptions) {
  await requirePassword(user, input.password, 'password')
  if (input.email === user.email) throw new DomainError(422, 'accounts.errors.emailSame', { email: ['accounts.errors.emailSame'] })
  if (await findUserByEmail({ db: ctx.db, email: input.email }))
    throw new DomainError(422, 'accounts.errors.emailTaken', { email: ['accounts.errors.emailTaken'] })
  const code = await issueCode({
    db: ctx.db,
    secret: ctx.env.SESSION_SECRET,
    userId: user.id,
    purpose: 'change_email',
    targetEmail: input.email,
  })
  await sendCodeEmail({
    mailer: ctx.mailer,
    logger: ctx.logger,
    lang: input.lang,
    purpose: 'change_email',
    to: input.email,
    name: displayName(user, input.lang),
    code,
  })
}

export type ConfirmEmailChangeOptions = AccountContext & { user: User; input: { code: string } }

/** Step 2: the code received at the new address makes it the account's email. */
export async function confirmEmailChange({ user, input, ...ctx }: ConfirmEmailChangeOptions) {
  await limitCodeChecks(ctx)
  const { targetEmail } = await consumeCode({
    db: ctx.db,
    logger: ctx.logger,
    secret: ctx.env.SESSION_SECRET,
    userId: user.id,
    purpose: 'change_email',
    code: input.code,
  })
  if (await findUserByEmail({ db: ctx.db, email: targetEmail }))
    throw new DomainError(422, 'accounts.errors.emailTaken', { email: ['accounts.errors.emailTaken'] })
  const [updated] = await ctx.db
    .update(users)
    .set({ email: targetEmail, emailVerifiedAt: new Date(), updatedAt: new Date() })
    .where(eq(users.id, user.id))
    .returning()
  ctx.logger.info({ event: 'auth.email.changed', userId: user.id }, 'email changed')
  await notify({ db: ctx.db, userId: user.id, kind: 'email_changed', params: { email: targetEmail } })
  return updated ?? user
}

export type DeleteAccountOptions = AccountContext & { user: User; input: { password: string } }

/** Deletes the account and everything it owns (rows cascade; stored files are removed here). */
export async function deleteAccount({ user, input, ...ctx }: DeleteAccountOptions) {
  await requirePassword(user, input.password, 'password')
  // The rows go with the account (foreign keys cascade); the files they point to go after it.
  const images = await ctx.db.select({ key: examImages.fileKey }).from(examImages).where(eq(examImages.userId, user.id))
  const [school] = await ctx.db.select({ logo: schoolDetails.logoFile }).from(schoolDetails).where(eq(schoolDetails.userId, user.id))
  await ctx.db.delete(users).where(eq(users.id, user.id))
  ctx.logger.info({ event: 'auth.account.deleted', userId: user.id }, 'account deleted')
  await discardFiles({
    files: ctx.files,
    keys: [...(user.avatarFile ? [user.avatarFile] : []), ...(school?.logo ? [school.logo] : []), ...images.map((image) => image.key)],
  })
}
