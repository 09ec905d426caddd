import { describe, expect, it } from 'vitest'
import { createSession, getCurrentSession, listSessions, sessionCookieName } from '#app/features/accounts/index.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { accountContext, createUser, silenceOutboxHints } from '#tests/factories.ts'
import { action as logoutAction, loader as logoutLoader } from './logout.tsx'
import { action as profileAction } from './profile.tsx'

// Signing out (ASVS 7.4.1, 14.3.1): the session ends on the server, the cookie is cleared, and
// the browser is told to drop its cache and storage.

const testDb = setupTestDatabase()
silenceOutboxHints()

async function signedIn() {
  const ctx = accountContext(testDb())
  const { user, password } = await createUser(ctx)
  const { token } = await createSession({ db: ctx.db, secret: ctx.env.SESSION_SECRET, userId: user.id, kind: 'web' })
  await createSession({ db: ctx.db, secret: ctx.env.SESSION_SECRET, userId: user.id, kind: 'api' })
  const cookie = `${sessionCookieName(ctx.env)}=${token}`
  return { ctx, user, password, cookie }
}

const post = (path: string, cookie: string, fields: Record<string, string> = {}) => {
  const body = new FormData()
  for (const [k, v] of Object.entries(fields)) body.append(k, v)
  return new Request(`http://localhost/en/${path}`, { method: 'POST', body, headers: { cookie } })
}

async function answerOf(run: () => Promise<unknown>): Promise<Response> {
  const answer = await run().catch((thrown: unknown) => thrown)
  if (!(answer instanceof Response)) throw new Error('expected a Response')
  return answer
}

describe('logging out', () => {
  it('ends this session only, clears the cookie and asks the browser to clear its cache and storage, not its cookies', async () => {
    const { ctx, user, cookie } = await signedIn()
    const answer = await answerOf(() => logoutAction({ request: post('logout', cookie), params: { lang: 'en' }, context: ctx } as never))
    expect(answer.status).toBe(302)
    expect(answer.headers.get('location')).toBe('/en')
    expect(answer.headers.get('clear-site-data')).toBe('"cache", "storage"')
    const cookies = answer.headers.getSetCookie()
    expect(cookies.find((c) => c.startsWith(`${sessionCookieName(ctx.env)}=`))).toContain('Max-Age=0')
    // The "logged out" message still reaches the next page: cookies are not cleared wholesale.
    expect(cookies.some((c) => c.startsWith('hallil_flash=') && c.includes('loggedOut'))).toBe(true)
    expect(await getCurrentSession(new Request('http://localhost/en', { headers: { cookie } }), ctx)).toBeNull()
    expect((await listSessions({ db: ctx.db, userId: user.id })).map((s) => s.kind)).toEqual(['api'])
  })

  it('the confirmation page asks a signed-in teacher, and sends someone already signed out home, not to the login', async () => {
    const { ctx, cookie } = await signedIn()
    const get = (headers: Record<string, string>) => new Request('http://localhost/en/logout', { headers })
    const asked = await logoutLoader({ request: get({ cookie }), params: { lang: 'en' }, context: ctx } as never)
    expect(asked).not.toBeInstanceOf(Response)
    await logoutAction({ request: post('logout', cookie), params: { lang: 'en' }, context: ctx } as never).catch(() => undefined)
    for (const headers of [{ cookie }, {}] as Record<string, string>[]) {
      const answer = await answerOf(() => logoutLoader({ request: get(headers), params: { lang: 'en' }, context: ctx } as never))
      expect(answer.status).toBe(302)
      expect(answer.headers.get('location')).toBe('/en')
    }
  })

  it('deleting the account from the profile signs out the same way', async () => {
    const { ctx, password, cookie } = await signedIn()
    const answer = await answerOf(() =>
      profileAction({ request: post('profile', cookie, { intent: 'delete', password }), params: { lang: 'en' }, context: ctx } as never),
    )
    expect(answer.status).toBe(302)
    expect(answer.headers.get('clear-site-data')).toBe('"cache", "storage"')
    expect(answer.headers.getSetCookie().find((c) => c.startsWith(`${sessionCookieName(ctx.env)}=`))).toContain('Max-Age=0')
  })

  it('a wrong password deletes nothing and clears nothing', async () => {
    const { ctx, user, cookie } = await signedIn()
    const answer = await profileAction({
      request: post('profile', cookie, { intent: 'delete', password: 'Wrong-Password-9' }),
      params: { lang: 'en' },
      context: ctx,
    } as never)
    expect(answer).not.toBeInstanceOf(Response)
    expect((answer as { init: { status: number } }).init.status).toBe(422)
    expect(await listSessions({ db: ctx.db, userId: user.id })).toHaveLength(2)
  })
})
