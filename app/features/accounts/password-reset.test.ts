import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { notifications, resetFlows, sessions, users } from '#app/platform/db/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import {
  accountContext,
  createUser,
  domainErrorOf,
  lastCodeSentTo,
  lastMailTo,
  mailsTo,
  readOutbox,
  silenceOutboxHints,
} from '#tests/factories.ts'
import { CODE_MAX_ATTEMPTS } from './codes.server.ts'
import { requestPasswordReset, resetPassword, RESET_FLOW_TTL_MS, verifyResetCode } from './password-reset.server.ts'
import { verifyPassword } from './passwords.server.ts'
import { createSession } from './sessions.server.ts'

const testDb = setupTestDatabase()
silenceOutboxHints()

const NEW_PASSWORD = 'Desert-Rose-2031'
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')
const flowExpired = { status: 422, messageKey: 'accounts.errors.flowExpired', fields: { temporary_token: ['accounts.errors.flowExpired'] } }

/** An activated account that has asked for a reset: its temporary token and emailed code. */
async function accountInReset(lang: 'ar' | 'en' = 'en') {
  const ctx = accountContext(testDb())
  const { user, password } = await createUser(ctx)
  const { temporaryToken } = await requestPasswordReset({ ...ctx, input: { email: user.email, lang } })
  const code = await lastCodeSentTo(ctx, user.email)
  return { ctx, user, password, temporaryToken, code }
}

describe('requestPasswordReset', () => {
  it('answers an unknown email with a token too, and sends no mail', async () => {
    const ctx = accountContext(testDb())
    const { temporaryToken } = await requestPasswordReset({ ...ctx, input: { email: 'nobody@school.sa', lang: 'ar' } })
    expect(temporaryToken).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(await readOutbox(ctx)).toEqual([])
    const flows = await ctx.db.select().from(resetFlows)
    expect(flows.filter((f) => f.userId === null).length).toBeGreaterThanOrEqual(1)
    expect(JSON.stringify(flows)).not.toContain(temporaryToken)
  })

  it('sends no code to an account that is not activated', async () => {
    const ctx = accountContext(testDb())
    const { user } = await createUser(ctx, { activated: false })
    const before = await mailsTo(ctx, user.email)
    await expect(requestPasswordReset({ ...ctx, input: { email: user.email, lang: 'ar' } })).resolves.toMatchObject({
      temporaryToken: expect.any(String),
    })
    expect(await mailsTo(ctx, user.email)).toHaveLength(before.length)
  })

  it("emails a reset code in the reader's language to a real account", async () => {
    const { ctx, user } = await accountInReset('ar')
    const mail = await lastMailTo(ctx, user.email)
    expect(mail.subject).toBe('رمز إعادة تعيين كلمة المرور في حلّل')
    expect(mail.html).toContain('dir="rtl"')
  })

  it('is refused within a minute of the last request for the same email, known or not', async () => {
    const { ctx, user } = await accountInReset()
    await expect(requestPasswordReset({ ...ctx, input: { email: user.email, lang: 'en' } })).rejects.toMatchObject({
      status: 429,
      messageKey: 'accounts.errors.resendWait',
    })
    await requestPasswordReset({ ...ctx, input: { email: 'ghost.1@school.sa', lang: 'en' } })
    await expect(requestPasswordReset({ ...ctx, input: { email: 'ghost.1@school.sa', lang: 'en' } })).rejects.toMatchObject({
      status: 429,
      messageKey: 'accounts.errors.resendWait',
    })
  })
})

describe('the reset flow', () => {
  it('sets the new password with the emailed code, signs every device out and notifies the teacher', async () => {
    const { ctx, user, password, temporaryToken, code } = await accountInReset()
    for (const kind of ['web', 'api'] as const) await createSession({ db: ctx.db, secret: ctx.env.SESSION_SECRET, userId: user.id, kind })

    const verified = await verifyResetCode({ ...ctx, input: { temporary_token: temporaryToken, code } })
    expect(verified.temporaryToken).not.toBe(temporaryToken)
    // The first token has done its job.
    await expect(verifyResetCode({ ...ctx, input: { temporary_token: temporaryToken, code } })).rejects.toMatchObject(flowExpired)
    await expect(resetPassword({ ...ctx, input: { temporary_token: temporaryToken, password: NEW_PASSWORD } })).rejects.toMatchObject(
      flowExpired,
    )

    await resetPassword({ ...ctx, input: { temporary_token: verified.temporaryToken, password: NEW_PASSWORD } })
    const [row] = await ctx.db.select().from(users).where(eq(users.id, user.id))
    expect(await verifyPassword(row!.passwordHash, NEW_PASSWORD)).toBe(true)
    expect(await verifyPassword(row!.passwordHash, password)).toBe(false)
    expect(await ctx.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([])
    const kinds = (await ctx.db.select().from(notifications).where(eq(notifications.userId, user.id))).map((n) => n.kind)
    expect(kinds).toContain('password_changed')
    // The verified token works once.
    await expect(
      resetPassword({ ...ctx, input: { temporary_token: verified.temporaryToken, password: 'Another-Pass-99' } }),
    ).rejects.toMatchObject(flowExpired)
  })

  it('does not let the first token set a password without the code', async () => {
    const { ctx, user, password, temporaryToken } = await accountInReset()
    await expect(resetPassword({ ...ctx, input: { temporary_token: temporaryToken, password: NEW_PASSWORD } })).rejects.toMatchObject(
      flowExpired,
    )
    const [row] = await ctx.db.select().from(users).where(eq(users.id, user.id))
    expect(await verifyPassword(row!.passwordHash, password)).toBe(true)
  })

  it('refuses a common new password and keeps the flow open', async () => {
    const { ctx, temporaryToken, code } = await accountInReset()
    const verified = await verifyResetCode({ ...ctx, input: { temporary_token: temporaryToken, code } })
    await expect(
      resetPassword({ ...ctx, input: { temporary_token: verified.temporaryToken, password: 'Password1' } }),
    ).rejects.toMatchObject({
      status: 422,
      messageKey: 'accounts.errors.passwordCommon',
    })
    await expect(
      resetPassword({ ...ctx, input: { temporary_token: verified.temporaryToken, password: NEW_PASSWORD } }),
    ).resolves.toBeUndefined()
  })

  it('lasts one hour', async () => {
    expect(RESET_FLOW_TTL_MS).toBe(3_600_000)
    const { ctx, user, temporaryToken, code } = await accountInReset()
    const [flow] = await ctx.db.select().from(resetFlows).where(eq(resetFlows.userId, user.id))
    expect(flow!.expiresAt.getTime() - flow!.createdAt.getTime()).toBeGreaterThan(RESET_FLOW_TTL_MS - 5_000)
    expect(flow!.expiresAt.getTime() - flow!.createdAt.getTime()).toBeLessThanOrEqual(RESET_FLOW_TTL_MS + 5_000)

    await ctx.db
      .update(resetFlows)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(resetFlows.userId, user.id))
    await expect(verifyResetCode({ ...ctx, input: { temporary_token: temporaryToken, code } })).rejects.toMatchObject(flowExpired)
  })

  it('refuses a verified flow once its hour has passed', async () => {
    const { ctx, user, password, temporaryToken, code } = await accountInReset()
    const verified = await verifyResetCode({ ...ctx, input: { temporary_token: temporaryToken, code } })
    await ctx.db
      .update(resetFlows)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(resetFlows.userId, user.id))
    await expect(
      resetPassword({ ...ctx, input: { temporary_token: verified.temporaryToken, password: NEW_PASSWORD } }),
    ).rejects.toMatchObject(flowExpired)
    const [row] = await ctx.db.select().from(users).where(eq(users.id, user.id))
    expect(await verifyPassword(row!.passwordHash, password)).toBe(true)
  })

  it('refuses a made-up token', async () => {
    const ctx = accountContext(testDb())
    await expect(verifyResetCode({ ...ctx, input: { temporary_token: 'x'.repeat(43), code: '123456' } })).rejects.toMatchObject(flowExpired)
    await expect(resetPassword({ ...ctx, input: { temporary_token: 'x'.repeat(43), password: NEW_PASSWORD } })).rejects.toMatchObject(
      flowExpired,
    )
  })

  it(`ends after ${CODE_MAX_ATTEMPTS} wrong codes, for a real account and an unknown email alike`, async () => {
    const { ctx, temporaryToken, code } = await accountInReset()
    const { temporaryToken: ghostToken } = await requestPasswordReset({ ...ctx, input: { email: 'ghost.2@school.sa', lang: 'en' } })

    const realKeys: string[] = []
    const ghostKeys: string[] = []
    for (let i = 0; i < CODE_MAX_ATTEMPTS; i++) {
      realKeys.push(
        (await domainErrorOf(verifyResetCode({ ...ctx, input: { temporary_token: temporaryToken, code: wrongCode(code) } }))).messageKey,
      )
      ghostKeys.push(
        (await domainErrorOf(verifyResetCode({ ...ctx, input: { temporary_token: ghostToken, code: wrongCode(code) } }))).messageKey,
      )
    }
    const expected = [...Array(CODE_MAX_ATTEMPTS - 1).fill('accounts.errors.codeWrong'), 'accounts.errors.codeExhausted']
    expect(realKeys).toEqual(expected)
    expect(ghostKeys).toEqual(expected)

    // The right code no longer helps, and the unknown flow stays ended.
    const after = await domainErrorOf(verifyResetCode({ ...ctx, input: { temporary_token: temporaryToken, code } }))
    expect(after.status).toBe(422)
    expect(['accounts.errors.codeExhausted', 'accounts.errors.codeExpired']).toContain(after.messageKey)
    await expect(verifyResetCode({ ...ctx, input: { temporary_token: ghostToken, code } })).rejects.toMatchObject({
      status: 422,
      messageKey: 'accounts.errors.codeExhausted',
    })
  })
})
