import { count, eq } from 'drizzle-orm'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { examImages, notifications, oneTimeCodes, resetFlows, reviews, sessions, users } from '#app/platform/db/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import {
  accountContext,
  clearOutbox,
  codeIn,
  createUser,
  domainErrorOf,
  lastCodeSentTo,
  lastMailTo,
  readOutbox,
  recipientsOf,
  silenceOutboxHints,
} from '#tests/factories.ts'
import { fieldErrorsOf } from '#app/lib/forms.ts'
import {
  answerFullName,
  confirmEmailChange,
  confirmPasswordChange,
  deleteAccount,
  isFullNameToAsk,
  requestEmailChange,
  requestPasswordChange,
  updateProfile,
} from './account-changes.server.ts'
import { fullNameSchema, profileSchema } from './schemas.ts'
import { displayName } from './user-json.ts'
import { notify } from './notifications.server.ts'
import { requestPasswordReset } from './password-reset.server.ts'
import { verifyPassword } from './passwords.server.ts'
import { findUserByEmail } from './register-user.server.ts'
import { createReview } from './reviews.server.ts'
import { createSession, findSession } from './sessions.server.ts'

const testDb = setupTestDatabase()
silenceOutboxHints()

const NEW_PASSWORD = 'Palm-Grove-2030'
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')
const png = (colour: string) =>
  sharp({ create: { width: 64, height: 64, channels: 3, background: colour } })
    .png()
    .toBuffer()

async function reload(ctx: { db: ReturnType<typeof testDb>['db'] }, id: string) {
  const [row] = await ctx.db.select().from(users).where(eq(users.id, id))
  if (!row) throw new Error('user is gone')
  return row
}

describe('the full name', () => {
  it('is to be asked after activation, once: answered or skipped, she is not asked again', async () => {
    const ctx = accountContext(testDb())
    const { user } = await createUser(ctx)
    expect(user).toMatchObject({ fullNameAr: null, fullNameEn: null, fullNameAskedAt: null })
    expect(isFullNameToAsk(user)).toBe(true)

    const skipped = await answerFullName({ db: ctx.db, user, answer: 'skip' })
    expect(isFullNameToAsk(skipped)).toBe(false)
    expect(skipped).toMatchObject({ fullNameAr: null, fullNameEn: null })
    const askedAt = skipped.fullNameAskedAt

    const { user: other } = await createUser(ctx)
    const named = await answerFullName({
      db: ctx.db,
      user: other,
      answer: fullNameSchema.parse({ full_name_ar: '  نورة  بنت سعد العتيبي ', full_name_en: 'Noura Saad Alotaibi' }),
    })
    expect(named).toMatchObject({ fullNameAr: 'نورة بنت سعد العتيبي', fullNameEn: 'Noura Saad Alotaibi', username: other.username })
    expect(isFullNameToAsk(await reload(ctx, other.id))).toBe(false)
    // Answering later keeps the first time she was asked.
    expect((await answerFullName({ db: ctx.db, user: skipped, answer: { full_name_ar: 'ريم الحربي' } })).fullNameAskedAt).toEqual(askedAt)
  })

  it('is changed and cleared in the profile, the username staying for signing in', async () => {
    const ctx = accountContext(testDb())
    const { user } = await createUser(ctx, { username: 'noura_t' })
    const named = await updateProfile({
      ...ctx,
      user,
      input: profileSchema.parse({ full_name_ar: 'نورة العتيبي', full_name_en: 'Noura Alotaibi' }),
    })
    expect(named).toMatchObject({ username: 'noura_t', fullNameAr: 'نورة العتيبي', fullNameEn: 'Noura Alotaibi' })
    // A name given in the profile answers the question too.
    expect(isFullNameToAsk(named)).toBe(false)
    // Fields left out stay; an empty one clears.
    expect(await updateProfile({ ...ctx, user: named, input: profileSchema.parse({ phone: '0559876543' }) })).toMatchObject({
      fullNameAr: 'نورة العتيبي',
      fullNameEn: 'Noura Alotaibi',
    })
    expect(await updateProfile({ ...ctx, user: named, input: profileSchema.parse({ full_name_en: '' }) })).toMatchObject({
      fullNameAr: 'نورة العتيبي',
      fullNameEn: null,
    })
  })

  it('refuses a name in the other script, and one longer than 100 characters', () => {
    expect(fieldErrorsOf(fullNameSchema.safeParse({ full_name_ar: 'Noura', full_name_en: 'نورة' }).error!)).toEqual({
      full_name_ar: ['accounts.errors.fullNameArabic'],
      full_name_en: ['accounts.errors.fullNameLatin'],
    })
    expect(fieldErrorsOf(fullNameSchema.safeParse({ full_name_ar: 'ن'.repeat(101) }).error!)).toEqual({
      full_name_ar: ['accounts.errors.fullNameLong'],
    })
    expect(fieldErrorsOf(fullNameSchema.safeParse({ full_name_ar: '' }).error!)).toEqual({
      full_name_ar: ['accounts.errors.fullNameRequired'],
    })
    expect(fullNameSchema.parse({ full_name_ar: 'عبدُالله آلِ سعود', full_name_en: "D'Souza-Smith Jr." })).toEqual({
      full_name_ar: 'عبدُالله آلِ سعود',
      full_name_en: "D'Souza-Smith Jr.",
    })
  })

  it('greets her by the name in the page’s language, then the other, then the username', () => {
    const noura = { username: 'noura_t', fullNameAr: 'نورة العتيبي', fullNameEn: null }
    expect(displayName(noura, 'ar')).toBe('نورة العتيبي')
    expect(displayName(noura, 'en')).toBe('نورة العتيبي')
    expect(displayName({ ...noura, fullNameEn: 'Noura Alotaibi' }, 'en')).toBe('Noura Alotaibi')
    expect(displayName({ ...noura, fullNameAr: null }, 'ar')).toBe('noura_t')
  })
})

describe('updateProfile', () => {
  it('changes the username unless another account has it, in any case', async () => {
    const ctx = accountContext(testDb())
    const { user } = await createUser(ctx, { username: 'Reem.Alharbi' })
    await createUser(ctx, { username: 'Amal' })

    await expect(updateProfile({ ...ctx, user, input: { username: 'AMAL' } })).rejects.toMatchObject({
      status: 422,
      messageKey: 'accounts.errors.usernameTaken',
      fields: { username: ['accounts.errors.usernameTaken'] },
    })
    expect((await reload(ctx, user.id)).username).toBe('Reem.Alharbi')

    // Her own name in another case, and a free name, are fine.
    await expect(updateProfile({ ...ctx, user, input: { username: 'reem.alharbi' } })).resolves.toMatchObject({ username: 'reem.alharbi' })
    await expect(updateProfile({ ...ctx, user, input: { username: 'Reem H', phone: '+966559876543' } })).resolves.toMatchObject({
      username: 'Reem H',
      phone: '+966559876543',
      email: user.email,
    })
  })

  it('replaces the picture and removes the old file', async () => {
    const ctx = accountContext(testDb())
    const { user } = await createUser(ctx, { avatar: await png('#0f5d52') })
    expect(user.avatarFile).toMatch(/^avatars\/[0-9a-f-]{36}\.webp$/)
    expect(await ctx.files.get(user.avatarFile!)).not.toBeNull()

    const updated = await updateProfile({ ...ctx, user, input: { avatar: await png('#c0392b') } })
    expect(updated.avatarFile).not.toBe(user.avatarFile)
    expect(await ctx.files.get(updated.avatarFile!)).not.toBeNull()
    expect(await ctx.files.get(user.avatarFile!)).toBeNull()
  })
})

describe('changing the password', () => {
  it('needs the current password', async () => {
    const ctx = accountContext(testDb())
    const { user } = await createUser(ctx)
    clearOutbox(ctx)
    const error = await domainErrorOf(
      requestPasswordChange({ ...ctx, user, input: { current_password: 'Wrong-Pass-1', password: NEW_PASSWORD, lang: 'en' } }),
    )
    expect(error).toMatchObject({
      status: 422,
      messageKey: 'accounts.errors.passwordWrong',
      fields: { current_password: ['accounts.errors.passwordWrong'] },
    })
    expect(await readOutbox(ctx)).toEqual([])
  })

  it('refuses a common new password', async () => {
    const ctx = accountContext(testDb())
    const { user, password } = await createUser(ctx)
    await expect(
      requestPasswordChange({ ...ctx, user, input: { current_password: password, password: 'Password1', lang: 'en' } }),
    ).rejects.toMatchObject({
      status: 422,
      messageKey: 'accounts.errors.passwordCommon',
    })
  })

  it('applies the new password only with the emailed code, then signs every device out', async () => {
    const ctx = accountContext(testDb())
    const { user, password } = await createUser(ctx)
    const secret = ctx.env.SESSION_SECRET
    const web = await createSession({ db: ctx.db, secret, userId: user.id, kind: 'web' })
    const api = await createSession({ db: ctx.db, secret, userId: user.id, kind: 'api' })

    await requestPasswordChange({ ...ctx, user, input: { current_password: password, password: NEW_PASSWORD, lang: 'en' } })
    const mail = await lastMailTo(ctx, user.email)
    expect(mail.subject).toBe('Confirm your Hallil password change')
    const code = codeIn(mail)
    // The new password waits with the code as a hash, never in clear.
    const pending = await ctx.db.select().from(oneTimeCodes).where(eq(oneTimeCodes.userId, user.id))
    expect(JSON.stringify(pending)).not.toContain(NEW_PASSWORD)
    expect(await verifyPassword((await reload(ctx, user.id)).passwordHash, password)).toBe(true)

    await expect(confirmPasswordChange({ ...ctx, user, input: { code: wrongCode(code) } })).rejects.toMatchObject({
      status: 422,
      messageKey: 'accounts.errors.codeWrong',
    })
    expect(await verifyPassword((await reload(ctx, user.id)).passwordHash, password)).toBe(true)

    await confirmPasswordChange({ ...ctx, user, input: { code } })
    const hash = (await reload(ctx, user.id)).passwordHash
    expect(await verifyPassword(hash, NEW_PASSWORD)).toBe(true)
    expect(await verifyPassword(hash, password)).toBe(false)
    expect(await findSession({ db: ctx.db, secret, token: web.token, kind: 'web' })).toBeNull()
    expect(await findSession({ db: ctx.db, secret, token: api.token, kind: 'api' })).toBeNull()
    expect(await ctx.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([])
    const kinds = (await ctx.db.select().from(notifications).where(eq(notifications.userId, user.id))).map((n) => n.kind)
    expect(kinds).toContain('password_changed')
    await expect(confirmPasswordChange({ ...ctx, user, input: { code } })).rejects.toMatchObject({
      messageKey: 'accounts.errors.codeExpired',
    })
  })

  it('is not confirmed by a code sent for another purpose', async () => {
    const ctx = accountContext(testDb())
    const { user, password } = await createUser(ctx)
    await requestPasswordReset({ ...ctx, input: { email: user.email, lang: 'en' } })
    const resetCode = await lastCodeSentTo(ctx, user.email)
    await expect(confirmPasswordChange({ ...ctx, user, input: { code: resetCode } })).rejects.toMatchObject({
      status: 422,
      messageKey: 'accounts.errors.codeExpired',
    })
    expect(await verifyPassword((await reload(ctx, user.id)).passwordHash, password)).toBe(true)
  })
})

describe('changing the email', () => {
  it('needs the password and a free address that differs from the current one', async () => {
    const ctx = accountContext(testDb())
    const { user, password } = await createUser(ctx)
    const { user: other } = await createUser(ctx)
    clearOutbox(ctx)
    await expect(
      requestEmailChange({ ...ctx, user, input: { email: 'new@school.sa', password: 'Wrong-Pass-1', lang: 'en' } }),
    ).rejects.toMatchObject({
      status: 422,
      messageKey: 'accounts.errors.passwordWrong',
      fields: { password: ['accounts.errors.passwordWrong'] },
    })
    await expect(requestEmailChange({ ...ctx, user, input: { email: other.email, password, lang: 'en' } })).rejects.toMatchObject({
      status: 422,
      messageKey: 'accounts.errors.emailTaken',
      fields: { email: ['accounts.errors.emailTaken'] },
    })
    await expect(requestEmailChange({ ...ctx, user, input: { email: user.email, password, lang: 'en' } })).rejects.toMatchObject({
      status: 422,
      messageKey: 'accounts.errors.emailSame',
    })
    expect(await readOutbox(ctx)).toEqual([])
  })

  it('sends the code to the new address and switches once it is typed', async () => {
    const ctx = accountContext(testDb())
    const { user, password } = await createUser(ctx)
    const newEmail = `moved.${user.id.slice(0, 8)}@school.sa`
    clearOutbox(ctx)

    await requestEmailChange({ ...ctx, user, input: { email: newEmail, password, lang: 'ar' } })
    const mails = await readOutbox(ctx)
    expect(mails).toHaveLength(1)
    expect(recipientsOf(mails[0]!)).toEqual([newEmail])
    expect(mails[0]!.subject).toBe('تأكيد بريدك الإلكتروني الجديد في حلّل')
    expect((await reload(ctx, user.id)).email).toBe(user.email)

    const updated = await confirmEmailChange({ ...ctx, user, input: { code: codeIn(mails[0]!) } })
    expect(updated).toMatchObject({ id: user.id, email: newEmail })
    expect(await findUserByEmail({ db: ctx.db, email: user.email })).toBeNull()
    expect(await findUserByEmail({ db: ctx.db, email: newEmail })).toMatchObject({ id: user.id })
    const changed = (await ctx.db.select().from(notifications).where(eq(notifications.userId, user.id))).find(
      (n) => n.kind === 'email_changed',
    )
    expect(changed?.params).toEqual({ email: newEmail })
  })

  it('refuses the switch when the new address was taken in the meantime', async () => {
    const ctx = accountContext(testDb())
    const { user, password } = await createUser(ctx)
    const newEmail = `contested.${user.id.slice(0, 8)}@school.sa`
    await requestEmailChange({ ...ctx, user, input: { email: newEmail, password, lang: 'en' } })
    const code = await lastCodeSentTo(ctx, newEmail)
    await createUser(ctx, { email: newEmail })
    await expect(confirmEmailChange({ ...ctx, user, input: { code } })).rejects.toMatchObject({
      status: 422,
      messageKey: 'accounts.errors.emailTaken',
    })
    expect((await reload(ctx, user.id)).email).toBe(user.email)
  })
})

describe('deleteAccount', () => {
  it('needs the password', async () => {
    const ctx = accountContext(testDb())
    const { user } = await createUser(ctx)
    await expect(deleteAccount({ ...ctx, user, input: { password: 'Wrong-Pass-1' } })).rejects.toMatchObject({
      status: 422,
      messageKey: 'accounts.errors.passwordWrong',
      fields: { password: ['accounts.errors.passwordWrong'] },
    })
    expect(await findUserByEmail({ db: ctx.db, email: user.email })).not.toBeNull()
  })

  it("removes the user, everything the account owns and its picture, and nobody else's", async () => {
    const ctx = accountContext(testDb())
    const { user, password } = await createUser(ctx, { avatar: await png('#123456') })
    const { user: neighbour } = await createUser(ctx)
    const secret = ctx.env.SESSION_SECRET
    for (const owner of [user, neighbour]) {
      await createSession({ db: ctx.db, secret, userId: owner.id, kind: 'web' })
      await createSession({ db: ctx.db, secret, userId: owner.id, kind: 'api' })
      await notify({ db: ctx.db, userId: owner.id, kind: 'password_changed' })
      await createReview({ db: ctx.db, userId: owner.id, input: { rating: 5, comment: 'مفيد جداً' } })
      await requestPasswordReset({ ...ctx, input: { email: owner.email, lang: 'ar' } })
    }
    const rowsOf = async (userId: string) => ({
      sessions: (await ctx.db.select({ n: count() }).from(sessions).where(eq(sessions.userId, userId)))[0]?.n,
      codes: (await ctx.db.select({ n: count() }).from(oneTimeCodes).where(eq(oneTimeCodes.userId, userId)))[0]?.n,
      notifications: (await ctx.db.select({ n: count() }).from(notifications).where(eq(notifications.userId, userId)))[0]?.n,
      reviews: (await ctx.db.select({ n: count() }).from(reviews).where(eq(reviews.userId, userId)))[0]?.n,
      resetFlows: (await ctx.db.select({ n: count() }).from(resetFlows).where(eq(resetFlows.userId, userId)))[0]?.n,
    })
    const neighbourBefore = await rowsOf(neighbour.id)
    expect(await rowsOf(user.id)).toEqual({ sessions: 2, codes: 2, notifications: 2, reviews: 1, resetFlows: 1 })
    // A test image of each teacher, in the file store.
    const imageOf = async (userId: string) => {
      const key = `exam-images/${userId}.webp`
      await ctx.files.put(key, Buffer.from([1, 2, 3]))
      await ctx.db.insert(examImages).values({ userId, fileKey: key, contentType: 'image/png', width: 1, height: 1, bytes: 3 })
      return key
    }
    const [mine, theirs] = [await imageOf(user.id), await imageOf(neighbour.id)]

    await deleteAccount({ ...ctx, user, input: { password } })
    expect(await ctx.db.select().from(users).where(eq(users.id, user.id))).toEqual([])
    expect(await rowsOf(user.id)).toEqual({ sessions: 0, codes: 0, notifications: 0, reviews: 0, resetFlows: 0 })
    expect(await ctx.files.get(user.avatarFile!)).toBeNull()
    expect(await ctx.files.get(mine)).toBeNull()
    expect(await ctx.files.get(theirs)).not.toBeNull()
    expect(await rowsOf(neighbour.id)).toEqual(neighbourBefore)
  })
})
