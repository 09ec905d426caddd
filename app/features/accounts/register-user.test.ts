import { eq, sql } from 'drizzle-orm'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { notifications, oneTimeCodes, users } from '#app/platform/db/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import {
  accountContext,
  createUser,
  domainErrorOf,
  failingMailer,
  lastCodeSentTo,
  lastMailTo,
  readOutbox,
  registration,
  silenceOutboxHints,
  STRONG_PASSWORD,
} from '#tests/factories.ts'
import { issueCode } from './codes.server.ts'
import { verifyPassword } from './passwords.server.ts'
import { activateAccount, findUserByEmail, REGISTRATIONS_PER_HOUR_PER_IP, registerUser, resendCode } from './register-user.server.ts'

const testDb = setupTestDatabase()
silenceOutboxHints()

const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')

describe('registerUser', () => {
  it('stores the account unactivated, with a lower-case email, an E.164 phone and only an argon2 hash', async () => {
    const ctx = accountContext(testDb())
    const input = registration({ username: 'Noura_T', email: ' Noura.T@School.SA ', phone: '٠٥٥ ٩٨٧ ٦٥٤٣' })
    const user = await registerUser({ ...ctx, input: { ...input, lang: 'ar' } })

    const [row] = await ctx.db.select().from(users).where(eq(users.id, user.id))
    expect(row).toMatchObject({
      username: 'Noura_T',
      email: 'noura.t@school.sa',
      phone: '+966559876543',
      lang: 'ar',
      emailVerifiedAt: null,
      avatarFile: null,
    })
    expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect(JSON.stringify(row)).not.toContain(STRONG_PASSWORD)
    expect(await verifyPassword(row!.passwordHash, STRONG_PASSWORD)).toBe(true)
  })

  it('emails an Arabic, right-to-left activation code to an Arabic reader', async () => {
    const ctx = accountContext(testDb())
    const user = await registerUser({ ...ctx, input: { ...registration(), lang: 'ar' } })
    const mails = await readOutbox(ctx)
    expect(mails).toHaveLength(1)
    const mail = mails[0]!
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : '').toBe(user.email)
    expect(mail.subject).toBe('رمز تفعيل حسابك في حلّل')
    expect(mail.headers.get('content-language')).toBe('ar')
    expect(mail.text).toMatch(/^\d{6}$/m)
    expect(mail.text).toContain(`مرحباً ${user.username}`)
    expect(mail.html).toContain('<html lang="ar" dir="rtl">')
    expect(mail.html).toMatch(/<div[^>]*dir="rtl">/)
    expect(mail.html).toContain(/^(\d{6})$/m.exec(mail.text ?? '')![1])
  })

  it('emails an English, left-to-right activation code to an English reader', async () => {
    const ctx = accountContext(testDb())
    const user = await registerUser({ ...ctx, input: { ...registration(), lang: 'en' } })
    const mail = await lastMailTo(ctx, user.email)
    expect(mail.subject).toBe('Your Hallil activation code')
    expect(mail.headers.get('content-language')).toBe('en')
    expect(mail.text).toContain(`Hello ${user.username},`)
    expect(mail.html).toContain('<html lang="en" dir="ltr">')
    expect(mail.html).not.toContain('dir="rtl"')
  })

  it('refuses an email that is already registered, whatever its case', async () => {
    const ctx = accountContext(testDb())
    const { user } = await createUser(ctx, { email: 'huda@school.sa' })
    const error = await domainErrorOf(registerUser({ ...ctx, input: { ...registration({ email: 'HUDA@School.sa' }), lang: 'ar' } }))
    expect(error).toMatchObject({
      status: 422,
      messageKey: 'accounts.errors.emailTaken',
      fields: { email: ['accounts.errors.emailTaken'] },
    })
    expect(await ctx.db.select().from(users).where(eq(users.email, user.email))).toHaveLength(1)
  })

  it('refuses a username that is taken, whatever its case', async () => {
    const ctx = accountContext(testDb())
    await createUser(ctx, { username: 'Sara.Alqahtani' })
    const input = registration({ username: 'sara.ALQAHTANI' })
    const error = await domainErrorOf(registerUser({ ...ctx, input: { ...input, lang: 'ar' } }))
    expect(error).toMatchObject({
      status: 422,
      messageKey: 'accounts.errors.usernameTaken',
      fields: { username: ['accounts.errors.usernameTaken'] },
    })
    expect(await findUserByEmail({ db: ctx.db, email: input.email })).toBeNull()
  })

  it('lets only one of two registrations racing for the same email or username through', async () => {
    const ctx = accountContext(testDb())
    const email = `race.${Date.now()}@school.sa`
    const sameEmail = await Promise.allSettled(
      [registration({ email }), registration({ email })].map((input) => registerUser({ ...ctx, input: { ...input, lang: 'ar' } })),
    )
    expect(sameEmail.map((r) => r.status).toSorted()).toEqual(['fulfilled', 'rejected'])
    expect(sameEmail.find((r) => r.status === 'rejected')).toMatchObject({
      reason: { status: 422, messageKey: 'accounts.errors.emailTaken' },
    })

    const username = `Racer_${Date.now()}`
    const sameName = await Promise.allSettled(
      [registration({ username }), registration({ username: username.toLowerCase() })].map((input) =>
        registerUser({ ...ctx, input: { ...input, lang: 'ar' } }),
      ),
    )
    expect(sameName.map((r) => r.status).toSorted()).toEqual(['fulfilled', 'rejected'])
    expect(sameName.find((r) => r.status === 'rejected')).toMatchObject({
      reason: { status: 422, messageKey: 'accounts.errors.usernameTaken' },
    })
  })

  it('refuses a common password that passes the form rules', async () => {
    const ctx = accountContext(testDb())
    const input = registration({ password: 'Password1' })
    const error = await domainErrorOf(registerUser({ ...ctx, input: { ...input, lang: 'ar' } }))
    expect(error).toMatchObject({
      status: 422,
      messageKey: 'accounts.errors.passwordCommon',
      fields: { password: ['accounts.errors.passwordCommon'] },
    })
    expect(await findUserByEmail({ db: ctx.db, email: input.email })).toBeNull()
    expect(await readOutbox(ctx)).toEqual([])
  })

  it('refuses a picture that is not an image, and keeps no account', async () => {
    const ctx = accountContext(testDb())
    const input = registration()
    const avatar = new TextEncoder().encode('<?php echo "hi"; ?>')
    await expect(registerUser({ ...ctx, input: { ...input, lang: 'ar', avatar } })).rejects.toMatchObject({
      status: 422,
      messageKey: 'accounts.errors.avatarType',
    })
    expect(await findUserByEmail({ db: ctx.db, email: input.email })).toBeNull()
  })

  it(`accepts ${REGISTRATIONS_PER_HOUR_PER_IP} registrations an hour from one address, then answers 429`, async () => {
    const ctx = accountContext(testDb())
    for (let i = 0; i < REGISTRATIONS_PER_HOUR_PER_IP; i++) await registerUser({ ...ctx, input: { ...registration(), lang: 'en' } })
    const input = registration()
    const error = await domainErrorOf(registerUser({ ...ctx, input: { ...input, lang: 'en' } }))
    expect(error).toMatchObject({ status: 429, messageKey: 'common.errors.tooManyRequests' })
    expect(error.retryAfterSeconds).toBeGreaterThan(3500)
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(3600)
    expect(await findUserByEmail({ db: ctx.db, email: input.email })).toBeNull()
    // Another address is not affected.
    await expect(registerUser({ ...ctx, clientIp: '192.0.2.200', input: { ...input, lang: 'en' } })).resolves.toMatchObject({
      email: input.email,
    })
  })

  it('keeps the account when the mail server is down; the code can be sent again a minute later', async () => {
    const ctx = accountContext(testDb())
    const logLines: string[] = []
    const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) })
    const offline = { ...ctx, mailer: failingMailer(), logger }

    const user = await registerUser({ ...offline, input: { ...registration(), lang: 'ar' } })
    expect(await findUserByEmail({ db: ctx.db, email: user.email })).toMatchObject({ id: user.id, emailVerifiedAt: null })
    expect(await readOutbox(ctx)).toEqual([])
    // The failure is logged with its code only: no address.
    expect(logLines.join('')).toContain('ECONNREFUSED')
    expect(logLines.join('')).not.toContain(user.email)

    // Right away, the 60-second rule applies to the resend too.
    await expect(resendCode({ ...ctx, input: { email: user.email, purpose: 'activation', lang: 'ar' } })).rejects.toMatchObject({
      status: 429,
      messageKey: 'accounts.errors.resendWait',
    })
    await ctx.db
      .update(oneTimeCodes)
      .set({ createdAt: sql`now() - interval '2 minutes'` })
      .where(eq(oneTimeCodes.userId, user.id))
    await resendCode({ ...ctx, input: { email: user.email, purpose: 'activation', lang: 'ar' } })
    const code = await lastCodeSentTo(ctx, user.email)
    await expect(activateAccount({ ...ctx, input: { email: user.email, code } })).resolves.toMatchObject({
      id: user.id,
      emailVerifiedAt: expect.any(Date),
    })
  })
})

describe('activateAccount', () => {
  it('activates with the code from the email and welcomes the teacher', async () => {
    const ctx = accountContext(testDb())
    const { user } = await createUser(ctx, { activated: false })
    const code = await lastCodeSentTo(ctx, user.email)
    const activated = await activateAccount({ ...ctx, input: { email: user.email, code } })
    expect(activated.emailVerifiedAt).toBeInstanceOf(Date)
    const rows = await ctx.db.select().from(notifications).where(eq(notifications.userId, user.id))
    expect(rows).toEqual([expect.objectContaining({ kind: 'welcome', params: { name: user.username }, readAt: null })])
    // The same code again: the account is already active.
    await expect(activateAccount({ ...ctx, input: { email: user.email, code } })).rejects.toMatchObject({
      status: 409,
      messageKey: 'accounts.errors.alreadyActive',
    })
  })

  it('finds the account whatever the case of the email typed', async () => {
    const ctx = accountContext(testDb())
    const { user } = await createUser(ctx, { activated: false })
    const code = await lastCodeSentTo(ctx, user.email)
    await expect(activateAccount({ ...ctx, input: { email: user.email.toUpperCase(), code } })).resolves.toMatchObject({ id: user.id })
  })

  it('refuses a wrong code, and answers an unknown email the same way', async () => {
    const ctx = accountContext(testDb())
    const { user } = await createUser(ctx, { activated: false })
    const code = await lastCodeSentTo(ctx, user.email)

    const wrong = await domainErrorOf(activateAccount({ ...ctx, input: { email: user.email, code: wrongCode(code) } }))
    const unknown = await domainErrorOf(activateAccount({ ...ctx, input: { email: 'nobody@school.sa', code } }))
    expect(wrong).toMatchObject({ status: 422, messageKey: 'accounts.errors.codeWrong', fields: { code: ['accounts.errors.codeWrong'] } })
    expect({ status: unknown.status, messageKey: unknown.messageKey, fields: unknown.fields }).toEqual({
      status: wrong.status,
      messageKey: wrong.messageKey,
      fields: wrong.fields,
    })
    expect((await findUserByEmail({ db: ctx.db, email: user.email }))?.emailVerifiedAt).toBeNull()
  })

  it('does not accept a code sent for another purpose', async () => {
    const ctx = accountContext(testDb())
    const { user } = await createUser(ctx, { activated: false })
    const resetCode = await issueCode({
      db: ctx.db,
      secret: ctx.env.SESSION_SECRET,
      userId: user.id,
      purpose: 'reset',
      targetEmail: user.email,
    })
    await expect(activateAccount({ ...ctx, input: { email: user.email, code: resetCode } })).rejects.toMatchObject({
      status: 422,
      messageKey: 'accounts.errors.codeWrong',
    })
    expect((await findUserByEmail({ db: ctx.db, email: user.email }))?.emailVerifiedAt).toBeNull()
  })
})

describe('resendCode', () => {
  it('answers an unknown or already active email like a real one, without sending anything', async () => {
    const ctx = accountContext(testDb())
    const { user: active } = await createUser(ctx)
    const before = (await readOutbox(ctx)).length
    await expect(resendCode({ ...ctx, input: { email: 'nobody@school.sa', purpose: 'activation', lang: 'ar' } })).resolves.toBeUndefined()
    await expect(resendCode({ ...ctx, input: { email: active.email, purpose: 'activation', lang: 'ar' } })).resolves.toBeUndefined()
    expect(await readOutbox(ctx)).toHaveLength(before)
    // And, like a real account, not twice within a minute.
    await expect(resendCode({ ...ctx, input: { email: 'nobody@school.sa', purpose: 'activation', lang: 'ar' } })).rejects.toMatchObject({
      status: 429,
      messageKey: 'accounts.errors.resendWait',
    })
  })

  it('does not send a change-of-email code on behalf of someone else', async () => {
    const ctx = accountContext(testDb())
    const { user } = await createUser(ctx)
    const { user: other } = await createUser(ctx)
    const before = (await readOutbox(ctx)).length
    await expect(
      resendCode({ ...ctx, input: { email: user.email, purpose: 'change_email', lang: 'ar' }, currentUser: { id: other.id } }),
    ).resolves.toBeUndefined()
    await expect(
      resendCode({ ...ctx, input: { email: user.email, purpose: 'change_password', lang: 'ar' }, currentUser: null }),
    ).resolves.toBeUndefined()
    expect(await readOutbox(ctx)).toHaveLength(before)
  })
})
