import { describe, expect, it } from 'vitest'
import { setupTestDatabase } from '#tests/db.ts'
import { accountContext, createUser, domainErrorOf, silenceOutboxHints } from '#tests/factories.ts'
import { loginSchema } from './schemas.ts'
import { LOGINS_PER_15_MIN_PER_ACCOUNT, LOGINS_PER_15_MIN_PER_IP, verifyCredentials } from './sign-in.server.ts'

const testDb = setupTestDatabase()
silenceOutboxHints()

describe('verifyCredentials', () => {
  it('returns the user for the right password, whatever the case of the email', async () => {
    const ctx = accountContext(testDb())
    const { user, password } = await createUser(ctx)
    await expect(verifyCredentials({ ...ctx, input: { email: user.email, password } })).resolves.toMatchObject({ id: user.id })
    const typed = loginSchema.parse({ email: ` ${user.email.toUpperCase()} `, password })
    await expect(verifyCredentials({ ...ctx, input: typed })).resolves.toMatchObject({ id: user.id })
  })

  it('refuses a wrong password and an unknown email with the same answer', async () => {
    const ctx = accountContext(testDb())
    const { user, password } = await createUser(ctx)
    const wrong = await domainErrorOf(verifyCredentials({ ...ctx, input: { email: user.email, password: `${password}!` } }))
    const unknown = await domainErrorOf(verifyCredentials({ ...ctx, input: { email: 'nobody@school.sa', password } }))
    expect(wrong).toMatchObject({
      status: 401,
      messageKey: 'accounts.errors.invalidCredentials',
      fields: { email: ['accounts.errors.invalidCredentials'] },
    })
    expect([unknown.status, unknown.messageKey, unknown.fields]).toEqual([wrong.status, wrong.messageKey, wrong.fields])
  })

  it('tells an unactivated account so, but only after the right password', async () => {
    const ctx = accountContext(testDb())
    const { user, password } = await createUser(ctx, { activated: false })
    await expect(verifyCredentials({ ...ctx, input: { email: user.email, password } })).rejects.toMatchObject({
      status: 403,
      messageKey: 'accounts.errors.notActivated',
    })
    await expect(verifyCredentials({ ...ctx, input: { email: user.email, password: 'Not-The-Password-1' } })).rejects.toMatchObject({
      status: 401,
      messageKey: 'accounts.errors.invalidCredentials',
    })
  })

  it(`allows ${LOGINS_PER_15_MIN_PER_ACCOUNT} attempts on one account in 15 minutes, even with the right password after`, async () => {
    const ctx = accountContext(testDb())
    const { user, password } = await createUser(ctx)
    for (let i = 0; i < LOGINS_PER_15_MIN_PER_ACCOUNT; i++)
      await expect(
        verifyCredentials({ ...ctx, clientIp: `192.0.2.${i + 1}`, input: { email: user.email, password: `Guess-${i}-Aa` } }),
      ).rejects.toMatchObject({ status: 401 })
    const limited = await domainErrorOf(verifyCredentials({ ...ctx, clientIp: '192.0.2.99', input: { email: user.email, password } }))
    expect(limited).toMatchObject({ status: 429, messageKey: 'common.errors.tooManyRequests' })
    expect(limited.retryAfterSeconds).toBeGreaterThan(800)
    expect(limited.retryAfterSeconds).toBeLessThanOrEqual(900)
    // Another account from the same address is not affected.
    const { user: other, password: otherPassword } = await createUser(ctx)
    await expect(verifyCredentials({ ...ctx, input: { email: other.email, password: otherPassword } })).resolves.toMatchObject({
      id: other.id,
    })
  })

  it(`allows ${LOGINS_PER_15_MIN_PER_IP} attempts from one address in 15 minutes, whatever the accounts`, async () => {
    const ctx = accountContext(testDb())
    const { user, password } = await createUser(ctx)
    for (let i = 0; i < LOGINS_PER_15_MIN_PER_IP; i++)
      await expect(verifyCredentials({ ...ctx, input: { email: `nobody${i}@school.sa`, password: 'Guess-Aa-1' } })).rejects.toMatchObject({
        status: 401,
      })
    await expect(verifyCredentials({ ...ctx, input: { email: user.email, password } })).rejects.toMatchObject({
      status: 429,
      messageKey: 'common.errors.tooManyRequests',
    })
    await expect(verifyCredentials({ ...ctx, clientIp: '192.0.2.250', input: { email: user.email, password } })).resolves.toMatchObject({
      id: user.id,
    })
  })
})
