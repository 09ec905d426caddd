import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { DomainError } from '#app/lib/errors.ts'
import { oneTimeCodes } from '#app/platform/db/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { accountContext, createUser, domainErrorOf, lastCodeSentTo, silenceOutboxHints } from '#tests/factories.ts'
import { CODE_MAX_ATTEMPTS, CODE_RESEND_SECONDS, CODE_SENDS_PER_HOUR, CODE_TTL_SECONDS, consumeCode, issueCode } from './codes.server.ts'

const testDb = setupTestDatabase()
silenceOutboxHints()

const t0 = new Date('2030-03-01T08:00:00Z')
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000)
/** "status key" of each refused call. */
const refusals = (results: PromiseSettledResult<unknown>[]) =>
  results.flatMap((r) => (r.status === 'rejected' ? [`${(r.reason as DomainError).status} ${(r.reason as DomainError).messageKey}`] : []))
const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')

/** A user of its own and the options every code call of the test shares. */
async function setup() {
  const ctx = accountContext(testDb())
  const { user } = await createUser(ctx, { activated: false })
  const base = { db: ctx.db, logger: ctx.logger, secret: ctx.env.SESSION_SECRET, userId: user.id }
  return { ctx, user, base }
}

describe('one-time codes', () => {
  it('are six digits, stored only as a keyed hash, valid for ten minutes', async () => {
    const { user, base, ctx } = await setup()
    const code = await issueCode({ ...base, purpose: 'reset', targetEmail: user.email, now: t0 })
    expect(code).toMatch(/^\d{6}$/)
    const [row] = await ctx.db
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.userId, user.id), eq(oneTimeCodes.purpose, 'reset')))
    expect(row).toMatchObject({ targetEmail: user.email, attempts: 0, consumedAt: null })
    expect(row?.expiresAt).toEqual(at(CODE_TTL_SECONDS))
    expect(CODE_TTL_SECONDS).toBe(600)
    const columnsShowingTheCode = Object.entries(row ?? {}).filter(
      ([column, value]) => column !== 'id' && JSON.stringify(value ?? null).includes(code),
    )
    expect(columnsShowingTheCode).toEqual([])
    expect(row?.codeHash).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  it('work once and give back their target and payload', async () => {
    const { base } = await setup()
    const code = await issueCode({ ...base, purpose: 'change_email', targetEmail: 'new@school.sa', payload: { note: 'x' }, now: t0 })
    await expect(consumeCode({ ...base, purpose: 'change_email', code, now: at(5) })).resolves.toEqual({
      targetEmail: 'new@school.sa',
      payload: { note: 'x' },
    })
    await expect(consumeCode({ ...base, purpose: 'change_email', code, now: at(6) })).rejects.toMatchObject({
      status: 422,
      messageKey: 'accounts.errors.codeExpired',
      fields: { code: ['accounts.errors.codeExpired'] },
    })
  })

  it('expire after ten minutes', async () => {
    const { user, base } = await setup()
    const code = await issueCode({ ...base, purpose: 'reset', targetEmail: user.email, now: t0 })
    await expect(consumeCode({ ...base, purpose: 'reset', code, now: at(CODE_TTL_SECONDS) })).rejects.toMatchObject({
      messageKey: 'accounts.errors.codeExpired',
    })
    await expect(consumeCode({ ...base, purpose: 'reset', code, now: at(CODE_TTL_SECONDS + 3600) })).rejects.toMatchObject({
      messageKey: 'accounts.errors.codeExpired',
    })
    // A second before the end it is still good.
    await expect(consumeCode({ ...base, purpose: 'reset', code, now: at(CODE_TTL_SECONDS - 1) })).resolves.toMatchObject({
      targetEmail: user.email,
    })
  })

  it(`end after ${CODE_MAX_ATTEMPTS} wrong tries, even for the right code afterwards`, async () => {
    const { user, base, ctx } = await setup()
    const code = await issueCode({ ...base, purpose: 'reset', targetEmail: user.email, now: t0 })
    const keys = []
    for (let i = 0; i < CODE_MAX_ATTEMPTS; i++)
      keys.push((await domainErrorOf(consumeCode({ ...base, purpose: 'reset', code: otherThan(code), now: at(10 + i) }))).messageKey)
    expect(keys).toEqual([...Array(CODE_MAX_ATTEMPTS - 1).fill('accounts.errors.codeWrong'), 'accounts.errors.codeExhausted'])
    const [row] = await ctx.db
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.userId, user.id), eq(oneTimeCodes.purpose, 'reset')))
    expect(row?.attempts).toBe(CODE_MAX_ATTEMPTS)
    const after = await domainErrorOf(consumeCode({ ...base, purpose: 'reset', code, now: at(20) }))
    expect(after.status).toBe(422)
    expect(['accounts.errors.codeExhausted', 'accounts.errors.codeExpired']).toContain(after.messageKey)
  })

  it('count wrong tries but still accept the right code before the fifth', async () => {
    const { user, base } = await setup()
    const code = await issueCode({ ...base, purpose: 'reset', targetEmail: user.email, now: t0 })
    for (let i = 0; i < CODE_MAX_ATTEMPTS - 1; i++)
      await expect(consumeCode({ ...base, purpose: 'reset', code: otherThan(code), now: at(10) })).rejects.toMatchObject({
        messageKey: 'accounts.errors.codeWrong',
      })
    await expect(consumeCode({ ...base, purpose: 'reset', code, now: at(11) })).resolves.toMatchObject({ targetEmail: user.email })
  })

  it(`cannot be sent again within ${CODE_RESEND_SECONDS} seconds, and say how long to wait`, async () => {
    const { user, base } = await setup()
    await issueCode({ ...base, purpose: 'reset', targetEmail: user.email, now: t0 })
    const early = await domainErrorOf(issueCode({ ...base, purpose: 'reset', targetEmail: user.email, now: at(20) }))
    expect(early).toMatchObject({ status: 429, messageKey: 'accounts.errors.resendWait', retryAfterSeconds: 40 })
    const almost = await domainErrorOf(issueCode({ ...base, purpose: 'reset', targetEmail: user.email, now: at(59.5) }))
    expect(almost.retryAfterSeconds).toBe(1)
    await expect(issueCode({ ...base, purpose: 'reset', targetEmail: user.email, now: at(CODE_RESEND_SECONDS) })).resolves.toMatch(
      /^\d{6}$/,
    )
  })

  it(`are sent at most ${CODE_SENDS_PER_HOUR} times an hour`, async () => {
    const { user, base } = await setup()
    for (let i = 0; i < CODE_SENDS_PER_HOUR; i++) await issueCode({ ...base, purpose: 'reset', targetEmail: user.email, now: at(i * 61) })
    const sixth = await domainErrorOf(issueCode({ ...base, purpose: 'reset', targetEmail: user.email, now: at(CODE_SENDS_PER_HOUR * 61) }))
    expect(sixth).toMatchObject({ status: 429, messageKey: 'accounts.errors.tooManyCodes' })
    expect(sixth.retryAfterSeconds).toBe(3600 - CODE_SENDS_PER_HOUR * 61)
    // Another purpose has its own count, and the next hour starts afresh.
    await expect(
      issueCode({ ...base, purpose: 'change_email', targetEmail: 'x@school.sa', now: at(CODE_SENDS_PER_HOUR * 61) }),
    ).resolves.toMatch(/^\d{6}$/)
    await expect(issueCode({ ...base, purpose: 'reset', targetEmail: user.email, now: at(3600) })).resolves.toMatch(/^\d{6}$/)
  })

  it('stop working when a newer one is sent', async () => {
    const { user, base } = await setup()
    const first = await issueCode({ ...base, purpose: 'reset', targetEmail: user.email, now: t0 })
    const second = await issueCode({ ...base, purpose: 'reset', targetEmail: user.email, now: at(61) })
    await expect(consumeCode({ ...base, purpose: 'reset', code: first, now: at(62) })).rejects.toMatchObject({ status: 422 })
    await expect(consumeCode({ ...base, purpose: 'reset', code: second, now: at(63) })).resolves.toMatchObject({ targetEmail: user.email })
  })

  it('are bound to their purpose and their user', async () => {
    const { ctx, user, base } = await setup()
    const other = await createUser(ctx, { activated: false })
    const resetCode = await issueCode({ ...base, purpose: 'reset', targetEmail: user.email })

    // A reset code does not activate the account (the activation code of the registration is still waiting).
    await expect(consumeCode({ ...base, purpose: 'activation', code: resetCode })).rejects.toMatchObject({
      status: 422,
      messageKey: 'accounts.errors.codeWrong',
    })
    await expect(consumeCode({ ...base, purpose: 'change_password', code: resetCode })).rejects.toMatchObject({
      messageKey: 'accounts.errors.codeExpired',
    })
    // Another user's code is no good either.
    const otherCode = await issueCode({ ...base, userId: other.user.id, purpose: 'reset', targetEmail: other.user.email })
    await expect(consumeCode({ ...base, purpose: 'reset', code: otherCode })).rejects.toMatchObject({
      messageKey: 'accounts.errors.codeWrong',
    })
    // The right code, purpose and user still work.
    await expect(consumeCode({ ...base, purpose: 'reset', code: resetCode })).resolves.toMatchObject({ targetEmail: user.email })
    const activationCode = await lastCodeSentTo(ctx, user.email)
    await expect(consumeCode({ ...base, purpose: 'activation', code: activationCode })).resolves.toMatchObject({ targetEmail: user.email })
  })

  it('are hashed with the server secret: another secret cannot use them', async () => {
    const { user, base } = await setup()
    const code = await issueCode({ ...base, purpose: 'reset', targetEmail: user.email, now: t0 })
    await expect(consumeCode({ ...base, secret: 'x'.repeat(64), purpose: 'reset', code, now: at(1) })).rejects.toMatchObject({
      messageKey: 'accounts.errors.codeWrong',
    })
  })

  it('can be used by only one of two requests arriving together', async () => {
    const { user, base } = await setup()
    const code = await issueCode({ ...base, purpose: 'reset', targetEmail: user.email, now: t0 })
    const results = await Promise.allSettled([1, 2, 3].map(() => consumeCode({ ...base, purpose: 'reset', code, now: at(5) })))
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    expect(refusals(results)).toEqual(['422 accounts.errors.codeExpired', '422 accounts.errors.codeExpired'])
  })

  it(`end after ${CODE_MAX_ATTEMPTS} wrong tries even when the tries arrive together`, async () => {
    const { user, base, ctx } = await setup()
    const code = await issueCode({ ...base, purpose: 'reset', targetEmail: user.email, now: t0 })
    const guesses = Array.from({ length: 3 * CODE_MAX_ATTEMPTS }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'))
    const results = await Promise.allSettled(guesses.map((guess) => consumeCode({ ...base, purpose: 'reset', code: guess, now: at(5) })))
    expect(results.every((r) => r.status === 'rejected')).toBe(true)
    const [row] = await ctx.db
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.userId, user.id), eq(oneTimeCodes.purpose, 'reset')))
    expect(row?.attempts).toBeGreaterThanOrEqual(CODE_MAX_ATTEMPTS)
    await expect(consumeCode({ ...base, purpose: 'reset', code, now: at(6) })).rejects.toMatchObject({ status: 422 })
  })

  it('are sent once when two requests for a code arrive together', async () => {
    const { ctx, user, base } = await setup()
    const results = await Promise.allSettled(
      [1, 2, 3].map(() => issueCode({ ...base, purpose: 'reset', targetEmail: user.email, now: t0 })),
    )
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    expect(refusals(results)).toEqual(['429 accounts.errors.resendWait', '429 accounts.errors.resendWait'])
    const live = (
      await ctx.db
        .select()
        .from(oneTimeCodes)
        .where(and(eq(oneTimeCodes.userId, user.id), eq(oneTimeCodes.purpose, 'reset')))
    ).filter((r) => !r.consumedAt)
    expect(live).toHaveLength(1)
  })
})
