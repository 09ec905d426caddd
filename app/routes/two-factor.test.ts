import { describe, expect, it } from 'vitest'
import { base32Decode, getCurrentSession, hotp, sessionCookieName, totpStep } from '#app/features/accounts/index.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { accountContext, createUser, silenceOutboxHints } from '#tests/factories.ts'
import { action as fullNameAction } from './full-name.tsx'
import { action as loginAction } from './login.tsx'
import { action as profileAction, loader as profileLoader } from './profile.tsx'
import { action as twoFactorAction, loader as twoFactorLoader } from './two-factor.tsx'
import { routeAnswer } from '#tests/route-answer.ts'

// The second factor through the pages: turned on and off from the profile, asked for at login.

const testDb = setupTestDatabase()
silenceOutboxHints()

type Ctx = ReturnType<typeof accountContext>
const args = (ctx: Ctx, request: Request) => ({ request, params: { lang: 'en' }, context: ctx }) as never
const appCode = (key: string, steps = 0) => hotp(base32Decode(key)!, totpStep(new Date()) + steps)

function post(path: string, fields: Record<string, string>, cookie = '') {
  const body = new FormData()
  for (const [k, v] of Object.entries(fields)) body.append(k, v)
  return new Request(`http://localhost/en/${path}`, { method: 'POST', body, headers: { cookie, origin: 'http://localhost' } })
}

const cookiePair = (cookies: string[], name: string) => cookies.find((c) => c.startsWith(`${name}=`))?.split(';')[0] ?? ''

async function logIn(ctx: Ctx, email: string, password: string) {
  return routeAnswer(() => loginAction(args(ctx, post('login?redirectTo=%2Fen%2Fexams', { email, password }))))
}

type ProfileData = { twoFactor: { state: 'off' } | { state: 'pending'; key: string; qr: string } | { state: 'on'; recoveryLeft: number } }

describe('two-step verification on the pages', () => {
  it('is turned on from the profile with the QR code and a code, then asked for at login, and turned off again', async () => {
    const ctx = accountContext(testDb())
    const { user, password } = await createUser(ctx)
    const signedIn = await logIn(ctx, user.email, password)
    const cookie = cookiePair(signedIn.cookies, sessionCookieName(ctx.env))
    expect(cookie).not.toBe('')
    const profile = async () =>
      (await routeAnswer(() => profileLoader(args(ctx, new Request('http://localhost/en/profile', { headers: { cookie } })))))
        .body as ProfileData

    expect((await profile()).twoFactor).toEqual({ state: 'off' })
    const started = await routeAnswer(() => profileAction(args(ctx, post('profile', { intent: 'totp-start' }, cookie))))
    expect(started).toMatchObject({ status: 302, location: '/en/profile#two-factor' })
    const pending = (await profile()).twoFactor
    if (pending.state !== 'pending') throw new Error('not pending')
    expect(pending.qr).toMatch(/^data:image\/svg\+xml;base64,/)
    expect(Buffer.from(pending.qr.split(',')[1]!, 'base64').toString()).toMatch(/^<svg /)

    const wrong = await routeAnswer(() => profileAction(args(ctx, post('profile', { intent: 'totp-confirm', code: '12345' }, cookie))))
    expect(wrong).toMatchObject({ status: 422, body: { ok: false, errors: { code: ['accounts.errors.codeFormat'] } } })
    const confirmed = await routeAnswer(() =>
      profileAction(args(ctx, post('profile', { intent: 'totp-confirm', code: appCode(pending.key) }, cookie))),
    )
    expect(confirmed.status).toBe(200)
    const { recoveryCodes } = confirmed.body as { ok: true; recoveryCodes: string[] }
    expect(recoveryCodes).toHaveLength(10)
    expect((await profile()).twoFactor).toMatchObject({ state: 'on', recoveryLeft: 10 })

    // Logging in now stops at the second step: no session yet, a challenge cookie instead.
    const first = await logIn(ctx, user.email, password)
    expect(first.status).toBe(302)
    expect(first.location).toBe('/en/two-factor?redirectTo=%2Fen%2Fexams')
    expect(cookiePair(first.cookies, sessionCookieName(ctx.env))).toBe('')
    const challenge = cookiePair(first.cookies, 'hallil_2fa')
    expect(first.cookies.find((c) => c.startsWith('hallil_2fa='))).toMatch(/HttpOnly; SameSite=Lax/)
    expect(
      await routeAnswer(() =>
        twoFactorLoader(args(ctx, new Request('http://localhost/en/two-factor', { headers: { cookie: challenge } }))),
      ),
    ).toMatchObject({ status: 200 })

    const refused = await routeAnswer(() =>
      twoFactorAction(args(ctx, post('two-factor?redirectTo=%2Fen%2Fexams', { code: '000000' }, challenge))),
    )
    expect(refused.status).toBe(422)
    const done = await routeAnswer(() =>
      twoFactorAction(args(ctx, post('two-factor?redirectTo=%2Fen%2Fexams', { code: appCode(pending.key, 1) }, challenge))),
    )
    // Never asked her full name: the question comes first, once, then where she was going.
    expect(done).toMatchObject({ status: 302, location: '/en/full-name?redirectTo=%2Fen%2Fexams' })
    expect(done.cookies.find((c) => c.startsWith('hallil_2fa='))).toContain('Max-Age=0')
    const session = cookiePair(done.cookies, sessionCookieName(ctx.env))
    expect((await getCurrentSession(new Request('http://localhost/en', { headers: { cookie: session } }), ctx))?.user.id).toBe(user.id)
    expect(
      await routeAnswer(() => fullNameAction(args(ctx, post('full-name?redirectTo=%2Fen%2Fexams', { intent: 'skip' }, session)))),
    ).toMatchObject({ status: 302, location: '/en/exams' })

    // A recovery code also ends a login; then turning it off needs the password and a code.
    const second = await logIn(ctx, user.email, password)
    const viaRecovery = await routeAnswer(() =>
      twoFactorAction(args(ctx, post('two-factor', { code: recoveryCodes[0]! }, cookiePair(second.cookies, 'hallil_2fa')))),
    )
    expect(viaRecovery).toMatchObject({ status: 302, location: '/en' })
    const badPassword = await routeAnswer(() =>
      profileAction(args(ctx, post('profile', { intent: 'totp-disable', password: 'Not-It-123', code: recoveryCodes[1]! }, cookie))),
    )
    expect(badPassword).toMatchObject({ status: 422, body: { errors: { password: ['accounts.errors.passwordWrong'] } } })
    const off = await routeAnswer(() =>
      profileAction(args(ctx, post('profile', { intent: 'totp-disable', password, code: recoveryCodes[1]! }, cookie))),
    )
    expect(off).toMatchObject({ status: 302, location: '/en/profile' })
    expect((await profile()).twoFactor).toEqual({ state: 'off' })
    expect(cookiePair((await logIn(ctx, user.email, password)).cookies, sessionCookieName(ctx.env))).not.toBe('')
  })

  it('sends a visitor without an open challenge back to log in', async () => {
    const ctx = accountContext(testDb())
    for (const cookie of ['', 'hallil_2fa=made-up-token-0123456789']) {
      const page = await routeAnswer(() =>
        twoFactorLoader(args(ctx, new Request('http://localhost/en/two-factor', { headers: { cookie } }))),
      )
      expect(page).toMatchObject({ status: 302, location: '/en/login' })
      expect(page.cookies.some((c) => c.startsWith('hallil_flash=') && c.includes('twoFactorExpired'))).toBe(true)
    }
    const posted = await routeAnswer(() =>
      twoFactorAction(args(ctx, post('two-factor', { code: '123456' }, 'hallil_2fa=made-up-token-0123456789'))),
    )
    expect(posted).toMatchObject({ status: 422, body: { errors: { code: ['accounts.errors.twoFactorExpired'] } } })
  })
})
