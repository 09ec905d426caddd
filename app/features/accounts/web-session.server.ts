import { redirect } from 'react-router'
import { readCookie } from '#app/i18n/detect.server.ts'
import type { Lang } from '#app/i18n/config.ts'
import type { RequestContext } from '#app/platform/context.server.ts'
import type { Env } from '#app/platform/env.server.ts'
import { safeRedirect } from '#app/lib/safe-redirect.ts'
import { createSession, findSession, revokeSession, SESSION_TTL_DAYS, type CurrentSession } from './sessions.server.ts'

// The web session: an HttpOnly, SameSite=Lax cookie holding a random secret; the row holds its HMAC.

const isSecure = (env: Env) => env.APP_URL.startsWith('https:')
export const sessionCookieName = (env: Env) => (isSecure(env) ? '__Host-hallil_session' : 'hallil_session')

export function sessionCookie(env: Env, token: string): string {
  const maxAge = SESSION_TTL_DAYS * 24 * 3600
  return `${sessionCookieName(env)}=${token}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${isSecure(env) ? '; Secure' : ''}`
}

export function clearSessionCookie(env: Env): string {
  return `${sessionCookieName(env)}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${isSecure(env) ? '; Secure' : ''}`
}

const currentCache = new WeakMap<Request, Promise<CurrentSession | null>>()

/** The signed-in user of a page request (looked up once per request), or null. */
export function getCurrentSession(request: Request, context: RequestContext): Promise<CurrentSession | null> {
  let found = currentCache.get(request)
  if (!found) {
    const token = readCookie(request.headers.get('cookie'), sessionCookieName(context.env))
    found = token
      ? findSession({
          db: context.db,
          secret: context.env.SESSION_SECRET,
          token,
          kind: 'web',
          idleDays: context.env.SESSION_IDLE_DAYS,
          logger: context.logger,
        })
      : Promise.resolve(null)
    currentCache.set(request, found)
  }
  return found
}

export type StartWebSessionOptions = RequestContext & { request: Request; userId: string }

/** Signs a device in: a new session id at every login. */
export async function startWebSession({ request, userId, ...context }: StartWebSessionOptions): Promise<string> {
  const { token } = await createSession({
    db: context.db,
    secret: context.env.SESSION_SECRET,
    userId,
    kind: 'web',
    userAgent: request.headers.get('user-agent'),
  })
  return sessionCookie(context.env, token)
}

/**
 * Sent with every sign-out (ASVS 14.3.1): the browser drops its HTTP cache (pages kept for
 * back/forward included) and the site's storage (local and session storage, the service
 * worker and its cache). Not "cookies": it would also remove the language chosen for a year
 * and the "logged out" message set in the same answer, and the session cookie is already
 * expired by its own Set-Cookie. The theme choice kept in local storage goes with the rest.
 */
export const CLEAR_SITE_DATA = '"cache", "storage"'

export type EndWebSessionOptions = RequestContext & { request: Request }

export async function endWebSession({ request, ...context }: EndWebSessionOptions): Promise<string> {
  const current = await getCurrentSession(request, context)
  if (current) await revokeSession({ ...context, sessionId: current.sessionId, userId: current.user.id, reason: 'logout' })
  return clearSessionCookie(context.env)
}

/** Account pages: a guest goes to the login page and comes back afterwards. */
export async function requireUser(request: Request, context: RequestContext, lang: Lang): Promise<CurrentSession> {
  const current = await getCurrentSession(request, context)
  if (current) return current
  const url = new URL(request.url)
  const back = safeRedirect(`${url.pathname}${url.search}`, `/${lang}`)
  throw redirect(`/${lang}/login?redirectTo=${encodeURIComponent(back)}`, {
    headers: { 'Set-Cookie': flashCookie('error', 'accounts.messages.loginRequired') },
  })
}

/** Guest pages (login, registration, reset) send a signed-in user home. */
export async function requireGuest(request: Request, context: RequestContext, lang: Lang): Promise<void> {
  if (await getCurrentSession(request, context)) throw redirect(`/${lang}`)
}

// A one-time message for the next page (a toast after a redirect): a translation key, never free text.
export const FLASH_COOKIE = 'hallil_flash'
export type Flash = { kind: 'success' | 'error' | 'info'; key: string }

export function flashCookie(kind: Flash['kind'], key: string): string {
  return `${FLASH_COOKIE}=${encodeURIComponent(JSON.stringify({ kind, key }))}; Path=/; Max-Age=60; HttpOnly; SameSite=Lax`
}

export function readFlash(request: Request): Flash | null {
  const raw = readCookie(request.headers.get('cookie'), FLASH_COOKIE)
  if (!raw) return null
  try {
    const value = JSON.parse(raw) as Flash
    if (!['success', 'error', 'info'].includes(value.kind) || !/^[a-z][\w.]+$/i.test(value.key)) return null
    return value
  } catch {
    return null
  }
}

export const clearFlashCookie = `${FLASH_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`

/** A request the browser sent ahead of a click (React Router prefetches the pages a page links to). */
export function isPrefetch(request: Request): boolean {
  return /prefetch/i.test(request.headers.get('sec-purpose') ?? request.headers.get('purpose') ?? '')
}

/**
 * A prefetch leaves the flash message alone: it neither reads it (the root loader) nor sets one.
 * A guard answering a prefetch of a page the teacher may not open (a tool without a subscription)
 * redirects with a message for a page she never asked for; set, it replaced the message already
 * waiting ("Logout successful" gave way to "Subscribe first" when the logout page prefetched the
 * tools). The answer's other cookies stay.
 */
export function withoutFlashOnPrefetch(request: Request, response: Response): Response {
  if (!isPrefetch(request)) return response
  const cookies = response.headers.getSetCookie()
  if (!cookies.some((cookie) => cookie.startsWith(`${FLASH_COOKIE}=`))) return response
  response.headers.delete('Set-Cookie')
  for (const cookie of cookies) if (!cookie.startsWith(`${FLASH_COOKIE}=`)) response.headers.append('Set-Cookie', cookie)
  return response
}

// The reset flow's temporary token travels in its own HttpOnly cookie (one hour), never in a URL.
export const RESET_COOKIE = 'hallil_reset'
export const resetFlowCookie = (env: Env, token: string) =>
  `${RESET_COOKIE}=${token}; Path=/; Max-Age=3600; HttpOnly; SameSite=Lax${isSecure(env) ? '; Secure' : ''}`
export const clearResetFlowCookie = (env: Env) =>
  `${RESET_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${isSecure(env) ? '; Secure' : ''}`
export const readResetFlowToken = (request: Request) => readCookie(request.headers.get('cookie'), RESET_COOKIE) ?? null

// A sign-in waiting for its second factor: the challenge token in its own HttpOnly cookie (ten minutes).
export const TWO_FACTOR_COOKIE = 'hallil_2fa'
export const twoFactorCookie = (env: Env, token: string) =>
  `${TWO_FACTOR_COOKIE}=${token}; Path=/; Max-Age=600; HttpOnly; SameSite=Lax${isSecure(env) ? '; Secure' : ''}`
export const clearTwoFactorCookie = (env: Env) =>
  `${TWO_FACTOR_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${isSecure(env) ? '; Secure' : ''}`
export const readTwoFactorToken = (request: Request) => readCookie(request.headers.get('cookie'), TWO_FACTOR_COOKIE) ?? null
