import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { sessions } from '#app/platform/db/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { accountContext, createUser, silenceOutboxHints } from '#tests/factories.ts'
import { createSession } from './sessions.server.ts'
import {
  clearSessionCookie,
  endWebSession,
  flashCookie,
  getCurrentSession,
  readFlash,
  requireUser,
  sessionCookie,
  sessionCookieName,
  startWebSession,
} from './web-session.server.ts'

const testDb = setupTestDatabase()
silenceOutboxHints()

const requestWith = (cookie: string, url = 'http://localhost/ar/profile') => new Request(url, { headers: { cookie } })
/** "name=value; Path=/; …" → "name=value", as the browser sends it back. */
const sentBack = (setCookie: string) => setCookie.split(';')[0] ?? ''

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Lax and lasts 30 days; over HTTPS it is __Host- and Secure', () => {
    const ctx = accountContext(testDb())
    const plain = sessionCookie(ctx.env, 'token123')
    expect(plain).toBe(`hallil_session=token123; Path=/; Max-Age=${30 * 24 * 3600}; HttpOnly; SameSite=Lax`)

    const https = { ...ctx.env, APP_URL: 'https://hallil.sa' }
    expect(sessionCookieName(https)).toBe('__Host-hallil_session')
    expect(sessionCookie(https, 'token123')).toBe(
      `__Host-hallil_session=token123; Path=/; Max-Age=${30 * 24 * 3600}; HttpOnly; SameSite=Lax; Secure`,
    )
    expect(clearSessionCookie(https)).toBe('__Host-hallil_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure')
  })

  it('signs a device in and out', async () => {
    const ctx = accountContext(testDb())
    const { user } = await createUser(ctx)
    const login = new Request('http://localhost/ar/login', { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0' } })
    const cookie = sentBack(await startWebSession({ ...ctx, request: login, userId: user.id }))

    const current = await getCurrentSession(requestWith(cookie), ctx)
    expect(current?.user.id).toBe(user.id)

    const cleared = await endWebSession({ ...ctx, request: requestWith(cookie) })
    expect(cleared).toContain('Max-Age=0')
    expect(await getCurrentSession(requestWith(cookie), ctx)).toBeNull()
  })

  it('ends a device left unused for longer than SESSION_IDLE_DAYS: the next page asks to log in', async () => {
    const base = accountContext(testDb())
    const ctx = { ...base, env: { ...base.env, SESSION_IDLE_DAYS: 2 } }
    const { user } = await createUser(ctx)
    const day = 24 * 3600 * 1000
    const recent = sentBack(await startWebSession({ ...ctx, request: new Request('http://localhost/ar/login'), userId: user.id }))
    const left = sentBack(await startWebSession({ ...ctx, request: new Request('http://localhost/ar/login'), userId: user.id }))
    const idOf = async (cookie: string) => (await getCurrentSession(requestWith(cookie), ctx))!.sessionId
    const [recentId, leftId] = [await idOf(recent), await idOf(left)]
    await ctx.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 1.5 * day) })
      .where(eq(sessions.id, recentId))
    await ctx.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 2.5 * day) })
      .where(eq(sessions.id, leftId))

    expect((await requireUser(requestWith(recent), ctx, 'ar')).user.id).toBe(user.id)
    const refused = await requireUser(requestWith(left, 'http://localhost/ar/profile'), ctx, 'ar').catch((thrown: unknown) => thrown)
    expect(refused).toBeInstanceOf(Response)
    expect((refused as Response).headers.get('location')).toBe(`/ar/login?redirectTo=${encodeURIComponent('/ar/profile')}`)
    expect((await ctx.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id))).map((s) => s.id)).toEqual([
      recentId,
    ])
  })

  it('does not accept an API token, a forged value or another cookie name', async () => {
    const ctx = accountContext(testDb())
    const { user } = await createUser(ctx)
    const api = await createSession({ db: ctx.db, secret: ctx.env.SESSION_SECRET, userId: user.id, kind: 'api' })
    expect(await getCurrentSession(requestWith(`hallil_session=${api.token}`), ctx)).toBeNull()
    expect(await getCurrentSession(requestWith('hallil_session=forged'), ctx)).toBeNull()
    const web = await createSession({ db: ctx.db, secret: ctx.env.SESSION_SECRET, userId: user.id, kind: 'web' })
    expect(await getCurrentSession(requestWith(`other_session=${web.token}`), ctx)).toBeNull()
  })

  it('sends a guest to the login page and back, never to another site', async () => {
    const ctx = accountContext(testDb())
    const guestAt = async (url: string) => {
      try {
        await requireUser(new Request(url), ctx, 'ar')
      } catch (thrown) {
        if (thrown instanceof Response) return thrown.headers.get('location')
        throw thrown
      }
      throw new Error('a guest was let in')
    }
    expect(await guestAt('http://localhost/ar/profile?tab=sessions')).toBe(
      `/ar/login?redirectTo=${encodeURIComponent('/ar/profile?tab=sessions')}`,
    )
    expect(await guestAt('http://localhost//evil.example/x')).toBe(`/ar/login?redirectTo=${encodeURIComponent('/ar')}`)
  })
})

describe('flash messages', () => {
  it('carry a kind and a translation key, nothing else', () => {
    const cookie = sentBack(flashCookie('success', 'accounts.messages.saved'))
    expect(readFlash(requestWith(cookie))).toEqual({ kind: 'success', key: 'accounts.messages.saved' })
    const forged = (value: unknown) => requestWith(`hallil_flash=${encodeURIComponent(JSON.stringify(value))}`)
    expect(readFlash(forged({ kind: 'success', key: '<script>alert(1)</script>' }))).toBeNull()
    expect(readFlash(forged({ kind: 'html', key: 'accounts.messages.saved' }))).toBeNull()
    expect(readFlash(requestWith('hallil_flash=%7Bnot-json'))).toBeNull()
    expect(readFlash(requestWith(''))).toBeNull()
  })
})
