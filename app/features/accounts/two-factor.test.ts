import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { unseal } from '#app/platform/crypto.server.ts'
import { loginChallenges, notifications, recoveryCodes, users } from '#app/platform/db/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { accountContext, createUser, domainErrorOf, silenceOutboxHints } from '#tests/factories.ts'
import { signIn } from './sign-in.server.ts'
import { base32Decode, hotp, totpStep } from './totp.server.ts'
import {
  cancelTotpEnrolment,
  completeLoginChallenge,
  confirmTotpEnrolment,
  disableTotp,
  LOGIN_CHALLENGE_MAX_ATTEMPTS,
  LOGIN_CHALLENGE_TTL_MS,
  pendingTotpEnrolment,
  RECOVERY_CODE_COUNT,
  removeSecondFactor,
  SECOND_FACTOR_CHECKS_PER_HOUR,
  startLoginChallenge,
  startTotpEnrolment,
  unusedRecoveryCodes,
} from './two-factor.server.ts'

const testDb = setupTestDatabase()
silenceOutboxHints()

type Ctx = ReturnType<typeof accountContext>

async function reload(ctx: Ctx, id: string) {
  const [row] = await ctx.db.select().from(users).where(eq(users.id, id))
  if (!row) throw new Error('user is gone')
  return row
}

/** What the authenticator app shows for the key on the profile page, `steps` steps from `at`. */
const appCode = (key: string, at: Date, steps = 0) => hotp(base32Decode(key)!, totpStep(at) + steps)
const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')

/** A teacher with the second factor on: the key as shown, the recovery codes, the password. */
async function withSecondFactor(ctx: Ctx, at = new Date()) {
  const { user, password } = await createUser(ctx)
  const { key } = await startTotpEnrolment({ ...ctx, user })
  const codes = await confirmTotpEnrolment({ ...ctx, user: await reload(ctx, user.id), input: { code: appCode(key, at), now: at } })
  return { user: await reload(ctx, user.id), password, key, codes }
}

describe('turning the second factor on', () => {
  it('needs a code from the app for the key shown; the key is sealed, the recovery codes kept as HMACs', async () => {
    const ctx = accountContext(testDb())
    const { user, password } = await createUser(ctx)
    const at = new Date()
    const enrolment = await startTotpEnrolment({ ...ctx, user })
    expect(enrolment.key).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/)
    expect(enrolment.uri).toBe(
      `otpauth://totp/Hallil:${encodeURIComponent(user.email)}?secret=${enrolment.key.replace(/ /g, '')}&issuer=Hallil&algorithm=SHA1&digits=6&period=30`,
    )

    // Not on yet: the profile shows the same key again; the database holds it sealed.
    const pending = await reload(ctx, user.id)
    expect(pending.totpEnabledAt).toBeNull()
    expect(pendingTotpEnrolment(ctx, pending)).toEqual(enrolment)
    expect(pending.totpSecret).not.toContain(enrolment.key.replace(/ /g, ''))
    expect(Buffer.from(unseal(ctx.env.SESSION_SECRET, 'totp-key', pending.totpSecret!)!)).toEqual(Buffer.from(base32Decode(enrolment.key)!))
    expect(unseal('another-secret-of-at-least-32-characters', 'totp-key', pending.totpSecret!)).toBeNull()
    // Until it is confirmed, the password alone still signs in.
    expect(await signIn({ ...ctx, input: { email: user.email, password } })).toMatchObject({ user: { id: user.id }, challenge: null })

    const wrong = await domainErrorOf(
      confirmTotpEnrolment({ ...ctx, user: pending, input: { code: otherThan(appCode(enrolment.key, at)), now: at } }),
    )
    expect(wrong).toMatchObject({ status: 422, fields: { code: ['accounts.errors.twoFactorCodeWrong'] } })
    expect((await reload(ctx, user.id)).totpEnabledAt).toBeNull()

    const codes = await confirmTotpEnrolment({ ...ctx, user: pending, input: { code: appCode(enrolment.key, at), now: at } })
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT)
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT)
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/)
    const on = await reload(ctx, user.id)
    expect(on.totpEnabledAt?.toISOString()).toBe(at.toISOString())
    expect(pendingTotpEnrolment(ctx, on)).toBeNull()
    const stored = await ctx.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))
    expect(stored).toHaveLength(RECOVERY_CODE_COUNT)
    for (const code of codes) expect(JSON.stringify(stored)).not.toContain(code.replace('-', ''))
    expect((await ctx.db.select().from(notifications).where(eq(notifications.userId, user.id))).map((n) => n.kind)).toContain(
      'two_factor_enabled',
    )

    await expect(startTotpEnrolment({ ...ctx, user: on })).rejects.toMatchObject({
      status: 409,
      messageKey: 'accounts.errors.twoFactorAlreadyOn',
    })
  })

  it('can be left before the code: nothing stays behind, and confirming then asks to start again', async () => {
    const ctx = accountContext(testDb())
    const { user } = await createUser(ctx)
    const { key } = await startTotpEnrolment({ ...ctx, user })
    await cancelTotpEnrolment({ ...ctx, user: await reload(ctx, user.id) })
    const left = await reload(ctx, user.id)
    expect([left.totpSecret, left.totpEnabledAt]).toEqual([null, null])
    await expect(confirmTotpEnrolment({ ...ctx, user: left, input: { code: appCode(key, new Date()) } })).rejects.toMatchObject({
      status: 409,
      messageKey: 'accounts.errors.twoFactorNotStarted',
    })
  })
})

describe('signing in with the second factor on', () => {
  it('opens a challenge instead of a session; a code from the app ends it once, and a code is never taken twice', async () => {
    const ctx = accountContext(testDb())
    const at = new Date()
    const { user, password, key } = await withSecondFactor(ctx, at)
    const first = await signIn({ ...ctx, input: { email: user.email, password } })
    expect(first.user).toBeNull()
    expect(first.challenge).toMatch(/^[\w-]{43}$/)
    const [row] = await ctx.db.select().from(loginChallenges).where(eq(loginChallenges.userId, user.id))
    expect(row?.tokenHash).not.toBe(first.challenge)

    // The code that turned the factor on was used already (the same time step).
    const replayed = await domainErrorOf(
      completeLoginChallenge({ ...ctx, input: { token: first.challenge!, code: appCode(key, at), now: at } }),
    )
    expect(replayed.messageKey).toBe('accounts.errors.twoFactorCodeWrong')
    const next = appCode(key, at, 1)
    expect((await completeLoginChallenge({ ...ctx, input: { token: first.challenge!, code: next, now: at } })).id).toBe(user.id)
    // The challenge is over, and the same code does not open a new one.
    await expect(completeLoginChallenge({ ...ctx, input: { token: first.challenge!, code: next, now: at } })).rejects.toMatchObject({
      messageKey: 'accounts.errors.twoFactorExpired',
    })
    const second = await signIn({ ...ctx, input: { email: user.email, password } })
    await expect(completeLoginChallenge({ ...ctx, input: { token: second.challenge!, code: next, now: at } })).rejects.toMatchObject({
      messageKey: 'accounts.errors.twoFactorCodeWrong',
    })
    // A code two steps away is refused; a wrong password opens nothing.
    await expect(
      completeLoginChallenge({ ...ctx, input: { token: second.challenge!, code: appCode(key, at, 3), now: at } }),
    ).rejects.toMatchObject({
      status: 422,
    })
    await expect(signIn({ ...ctx, input: { email: user.email, password: `${password}!` } })).rejects.toMatchObject({ status: 401 })
  })

  it('takes each recovery code once, typed with or without its dash, in any case', async () => {
    const ctx = accountContext(testDb())
    const { user, password, codes } = await withSecondFactor(ctx)
    const [a, b] = codes as [string, string]
    const { challenge } = await signIn({ ...ctx, input: { email: user.email, password } })
    expect((await completeLoginChallenge({ ...ctx, input: { token: challenge!, code: a.toUpperCase() } })).id).toBe(user.id)
    const again = await signIn({ ...ctx, input: { email: user.email, password } })
    await expect(completeLoginChallenge({ ...ctx, input: { token: again.challenge!, code: a } })).rejects.toMatchObject({
      messageKey: 'accounts.errors.twoFactorCodeWrong',
    })
    expect((await completeLoginChallenge({ ...ctx, input: { token: again.challenge!, code: b.replace('-', '') } })).id).toBe(user.id)
    expect(await unusedRecoveryCodes({ db: ctx.db, userId: user.id })).toBe(RECOVERY_CODE_COUNT - 2)
    // Another teacher's recovery code is not this one's.
    const other = await withSecondFactor(accountContext(testDb()))
    const third = await signIn({ ...ctx, input: { email: user.email, password } })
    await expect(completeLoginChallenge({ ...ctx, input: { token: third.challenge!, code: other.codes[0]! } })).rejects.toMatchObject({
      status: 422,
    })
  })

  it(`ends a challenge after ${LOGIN_CHALLENGE_MAX_ATTEMPTS} wrong codes, and after ten minutes`, async () => {
    const ctx = accountContext(testDb())
    const at = new Date()
    const { user, password, key } = await withSecondFactor(ctx, at)
    const { challenge } = await signIn({ ...ctx, input: { email: user.email, password } })
    const right = appCode(key, at, 1)
    const keys: string[] = []
    for (let i = 0; i < LOGIN_CHALLENGE_MAX_ATTEMPTS; i++)
      keys.push(
        (await domainErrorOf(completeLoginChallenge({ ...ctx, input: { token: challenge!, code: otherThan(right), now: at } }))).messageKey,
      )
    expect(keys).toEqual([
      ...Array(LOGIN_CHALLENGE_MAX_ATTEMPTS - 1).fill('accounts.errors.twoFactorCodeWrong'),
      'accounts.errors.twoFactorExhausted',
    ])
    await expect(completeLoginChallenge({ ...ctx, input: { token: challenge!, code: right, now: at } })).rejects.toMatchObject({
      messageKey: 'accounts.errors.twoFactorExpired',
    })

    const t0 = new Date()
    const late = await startLoginChallenge({ ...ctx, userId: user.id, now: t0 })
    const after = new Date(t0.getTime() + LOGIN_CHALLENGE_TTL_MS)
    await expect(completeLoginChallenge({ ...ctx, input: { token: late, code: appCode(key, after), now: after } })).rejects.toMatchObject({
      messageKey: 'accounts.errors.twoFactorExpired',
    })
  })

  it(`allows ${SECOND_FACTOR_CHECKS_PER_HOUR} checks an hour per account, whatever the challenges or addresses`, async () => {
    const base = accountContext(testDb())
    const at = new Date()
    const { user, password, key } = await withSecondFactor(base, at)
    // withSecondFactor's confirmation was the first check of the hour.
    let checks = 1
    let n = 0
    while (checks < SECOND_FACTOR_CHECKS_PER_HOUR) {
      const ctx = { ...base, clientIp: `203.0.113.${++n}` }
      const { challenge } = await signIn({ ...ctx, input: { email: user.email, password } })
      for (let i = 0; i < LOGIN_CHALLENGE_MAX_ATTEMPTS - 1 && checks < SECOND_FACTOR_CHECKS_PER_HOUR; i++, checks++)
        await expect(
          completeLoginChallenge({ ...ctx, input: { token: challenge!, code: otherThan(appCode(key, at, 1)), now: at } }),
        ).rejects.toMatchObject({ status: 422 })
    }
    const ctx = { ...base, clientIp: '203.0.113.250' }
    const { challenge } = await signIn({ ...ctx, input: { email: user.email, password } })
    const limited = await domainErrorOf(
      completeLoginChallenge({ ...ctx, input: { token: challenge!, code: appCode(key, at, 1), now: at } }),
    )
    expect(limited.status).toBe(429)
    expect(limited.retryAfterSeconds).toBeGreaterThan(0)
  })
})

describe('turning the second factor off', () => {
  it('needs the password and a code; sign-in is then the password alone, and the recovery codes are gone', async () => {
    const ctx = accountContext(testDb())
    const at = new Date()
    const { user, password, key, codes } = await withSecondFactor(ctx, at)
    await expect(
      disableTotp({ ...ctx, user, input: { password: `${password}!`, code: appCode(key, at, 1), now: at } }),
    ).rejects.toMatchObject({
      fields: { password: ['accounts.errors.passwordWrong'] },
    })
    await expect(disableTotp({ ...ctx, user, input: { password, code: otherThan(appCode(key, at, 1)), now: at } })).rejects.toMatchObject({
      fields: { code: ['accounts.errors.twoFactorCodeWrong'] },
    })
    expect((await reload(ctx, user.id)).totpEnabledAt).not.toBeNull()
    await disableTotp({ ...ctx, user: await reload(ctx, user.id), input: { password, code: codes[3]!, now: at } })
    const off = await reload(ctx, user.id)
    expect([off.totpSecret, off.totpEnabledAt, off.totpLastStep]).toEqual([null, null, null])
    expect(await ctx.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))).toEqual([])
    expect((await signIn({ ...ctx, input: { email: user.email, password } })).user?.id).toBe(user.id)
    const kinds = (
      await ctx.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, user.id), eq(notifications.kind, 'two_factor_disabled')))
    ).length
    expect(kinds).toBe(1)
    await expect(disableTotp({ ...ctx, user: off, input: { password, code: appCode(key, at, 1) } })).rejects.toMatchObject({ status: 409 })
  })
})

describe('removeSecondFactor (the operator’s command)', () => {
  it('turns the factor off for one email, ends its challenges, and says when there was nothing to do', async () => {
    const ctx = accountContext(testDb())
    const { user, password } = await withSecondFactor(ctx)
    const neighbour = await withSecondFactor(ctx)
    const { challenge } = await signIn({ ...ctx, input: { email: user.email, password } })
    expect(await removeSecondFactor({ ...ctx, input: { email: ` ${user.email.toUpperCase()} ` } })).toBe(true)
    const off = await reload(ctx, user.id)
    expect([off.totpSecret, off.totpEnabledAt]).toEqual([null, null])
    expect(await unusedRecoveryCodes({ db: ctx.db, userId: user.id })).toBe(0)
    await expect(completeLoginChallenge({ ...ctx, input: { token: challenge!, code: '123456' } })).rejects.toMatchObject({
      messageKey: 'accounts.errors.twoFactorExpired',
    })
    expect((await signIn({ ...ctx, input: { email: user.email, password } })).user?.id).toBe(user.id)
    expect((await reload(ctx, neighbour.user.id)).totpEnabledAt).not.toBeNull()
    expect(await removeSecondFactor({ ...ctx, input: { email: user.email } })).toBe(false)
    expect(await removeSecondFactor({ ...ctx, input: { email: 'nobody@school.sa' } })).toBe(false)
  })
})
