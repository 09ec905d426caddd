import { and, desc, eq, gt, gte, lt, ne } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { sessions, users } from '#app/platform/db/schema.ts'
import { keyedHash, randomToken } from '#app/platform/crypto.server.ts'
import { isUuid } from '#app/lib/ids.ts'
import type { Logger } from '#app/platform/logger.server.ts'

export const SESSION_TTL_DAYS = 30
/** The default idle limit (ASVS 7.3.1); the process takes `SESSION_IDLE_DAYS` from its env. */
export const SESSION_IDLE_DAYS = 7
// The last use is written at most once an hour, so the idle limit holds to within an hour.
const TOUCH_AFTER_MS = 60 * 60 * 1000
const DAY_MS = 24 * 3600 * 1000

export type SessionKind = 'web' | 'api'
export type SessionUser = typeof users.$inferSelect
/** `openedAt`: when the session was signed in (the operator area asks it to be after the second factor was turned on). */
export type CurrentSession = { sessionId: string; user: SessionUser; openedAt: Date }

/** "Chrome on Android": enough to recognise a device in the list, without keeping the user agent. */
export function describeDevice(userAgent: string | null | undefined): string {
  const ua = userAgent ?? ''
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /SamsungBrowser/.test(ua)
      ? 'Samsung Internet'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Chrome\/|Chromium\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : ''
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad|iOS/.test(ua)
      ? 'iOS'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : ''
  if (browser && os) return `${browser} · ${os}`
  return browser || os || (ua ? ua.slice(0, 40) : '')
}

type CreateSessionOptions = { db: Db; secret: string; userId: string; kind: SessionKind; userAgent?: string | null; now?: Date }

/** A new session (cookie) or API token; only its keyed hash is stored. Returns the secret. */
export async function createSession({ db, secret, userId, kind, userAgent, now = new Date() }: CreateSessionOptions) {
  const token = randomToken(32)
  const expiresAt = new Date(now.getTime() + SESSION_TTL_DAYS * 24 * 3600 * 1000)
  await db.insert(sessions).values({
    tokenHash: keyedHash(secret, `${kind}:${token}`),
    userId,
    kind,
    device: describeDevice(userAgent),
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
  })
  return { token, expiresAt }
}

type FindSessionOptions = {
  db: Db
  secret: string
  token: string
  kind: SessionKind
  /** Days without use after which the session is refused and revoked. */
  idleDays?: number
  logger?: Logger
  now?: Date
}

/**
 * The user behind a session secret, or null when it is unknown, revoked, expired (30 days from
 * sign-in) or idle (unused for `idleDays`); an idle session is revoked there and then.
 */
export async function findSession({
  db,
  secret,
  token,
  kind,
  idleDays = SESSION_IDLE_DAYS,
  logger,
  now = new Date(),
}: FindSessionOptions): Promise<CurrentSession | null> {
  if (!token || token.length > 200) return null
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, keyedHash(secret, `${kind}:${token}`)), gt(sessions.expiresAt, now)))
    .limit(1)
  if (!row) return null
  // A deactivated account's sessions are deleted with the deactivation; one made since (a
  // login that raced it) is refused all the same (docs/operators.md).
  if (row.user.deactivatedAt) return null
  const idleMs = now.getTime() - row.session.lastSeenAt.getTime()
  if (idleMs > idleDays * DAY_MS) {
    await db.delete(sessions).where(eq(sessions.id, row.session.id))
    logger?.info({ event: 'auth.session.idle', userId: row.user.id, kind }, 'session ended after inactivity')
    return null
  }
  if (idleMs > TOUCH_AFTER_MS) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, row.session.id))
  }
  return { sessionId: row.session.id, user: row.user, openedAt: row.session.createdAt }
}

/** What ending sessions needs: the database, and the logger for the event. */
export type SessionsContext = { db: Db; logger: Logger }

export type RevokeSessionOptions = SessionsContext & { sessionId: string; userId: string; reason: 'logout' | 'signed_out' }

/**
 * Ends one session of its owner (logging out, or "sign out" on a device in the profile);
 * another user's session id changes nothing. Logged with the user id only.
 */
export async function revokeSession({ sessionId, userId, reason, ...ctx }: RevokeSessionOptions): Promise<boolean> {
  if (!isUuid(sessionId)) return false
  const removed = await ctx.db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id })
  if (removed.length > 0) ctx.logger.info({ event: 'auth.session.revoked', userId, reason }, 'session ended')
  return removed.length > 0
}

export type RevokeOtherSessionsOptions = SessionsContext & { userId: string; keepSessionId: string }

/** "Sign out of other devices": every session of the user but this one. */
export async function revokeOtherSessions({ userId, keepSessionId, ...ctx }: RevokeOtherSessionsOptions): Promise<number> {
  const removed = await ctx.db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)))
    .returning({ id: sessions.id })
  ctx.logger.info({ event: 'auth.sessions.revoked', userId, reason: 'other_devices', count: removed.length }, 'sessions ended')
  return removed.length
}

export type RevokeAllSessionsOptions = SessionsContext & { userId: string; reason: 'password_changed' | 'password_reset' }

/** Every session of the user, after a change of password (or a reset). */
export async function revokeAllSessions({ userId, reason, ...ctx }: RevokeAllSessionsOptions): Promise<void> {
  const removed = await ctx.db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id })
  ctx.logger.info({ event: 'auth.sessions.revoked', userId, reason, count: removed.length }, 'sessions ended')
}

export type ListSessionsOptions = { db: Db; userId: string; idleDays?: number; now?: Date }

/** The account's live sessions, most recently used first (an idle one is as good as gone). */
export async function listSessions({ db, userId, idleDays = SESSION_IDLE_DAYS, now = new Date() }: ListSessionsOptions) {
  return db
    .select({
      id: sessions.id,
      kind: sessions.kind,
      device: sessions.device,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(
      and(eq(sessions.userId, userId), gt(sessions.expiresAt, now), gte(sessions.lastSeenAt, new Date(now.getTime() - idleDays * DAY_MS))),
    )
    .orderBy(desc(sessions.lastSeenAt))
}

export type PruneExpiredSessionsOptions = { db: Db; now?: Date }

export async function pruneExpiredSessions({ db, now = new Date() }: PruneExpiredSessionsOptions): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, now))
}
