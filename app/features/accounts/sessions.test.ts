import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { sessions } from '#app/platform/db/schema.ts'
import { createLogger } from '#app/platform/logger.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { accountContext, createUser, silenceOutboxHints } from '#tests/factories.ts'
import {
  createSession,
  describeDevice,
  findSession,
  listSessions,
  revokeAllSessions,
  revokeOtherSessions,
  revokeSession,
  SESSION_IDLE_DAYS,
  SESSION_TTL_DAYS,
} from './sessions.server.ts'

const testDb = setupTestDatabase()
silenceOutboxHints()

const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36'
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'

async function setup() {
  const ctx = accountContext(testDb())
  const { user } = await createUser(ctx)
  return { ctx, user, db: ctx.db, secret: ctx.env.SESSION_SECRET }
}

describe('sessions', () => {
  it('store only a keyed hash of the token they hand out', async () => {
    const { db, secret, user } = await setup()
    const { token, expiresAt } = await createSession({ db, secret, userId: user.id, kind: 'web', userAgent: ANDROID_CHROME })
    expect(token.length).toBeGreaterThanOrEqual(43)
    const rows = await db.select().from(sessions).where(eq(sessions.userId, user.id))
    expect(rows).toHaveLength(1)
    expect(rows[0]?.tokenHash).not.toBe(token)
    expect(JSON.stringify(rows)).not.toContain(token)
    expect(rows[0]).toMatchObject({ kind: 'web', device: 'Chrome · Android' })
    expect(JSON.stringify(rows)).not.toContain('SM-S918B')
    expect(expiresAt.getTime() - rows[0]!.createdAt.getTime()).toBe(SESSION_TTL_DAYS * 24 * 3600 * 1000)
  })

  it('are found by their token until they expire, however often they are used', async () => {
    const { db, secret, user } = await setup()
    const now = new Date('2030-01-01T00:00:00Z')
    const { token, expiresAt } = await createSession({ db, secret, userId: user.id, kind: 'api', now })
    const found = await findSession({ db, secret, token, kind: 'api', now: new Date(now.getTime() + 1000) })
    expect(found?.user.id).toBe(user.id)
    expect(found?.user.email).toBe(user.email)
    // Used every six days (never idle), it still ends 30 days after sign-in.
    for (const days of [6, 12, 18, 24])
      expect(await findSession({ db, secret, token, kind: 'api', now: new Date(now.getTime() + days * 24 * 3600 * 1000) })).not.toBeNull()
    expect(await findSession({ db, secret, token, kind: 'api', now: new Date(expiresAt.getTime() - 1) })).not.toBeNull()
    expect(await findSession({ db, secret, token, kind: 'api', now: expiresAt })).toBeNull()
    expect(await findSession({ db, secret, token, kind: 'api', now: new Date(expiresAt.getTime() + 1) })).toBeNull()
  })

  it(`end after ${SESSION_IDLE_DAYS} days without use (ASVS 7.3.1): refused, revoked and logged with the user id only`, async () => {
    const { db, secret, user } = await setup()
    const lines: string[] = []
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) })
    const day = 24 * 3600 * 1000
    const t0 = new Date('2030-03-01T08:00:00Z')
    const at = (days: number) => new Date(t0.getTime() + days * day)
    const web = await createSession({ db, secret, userId: user.id, kind: 'web', now: t0 })
    const api = await createSession({ db, secret, userId: user.id, kind: 'api', now: t0 })
    const edge = await createSession({ db, secret, userId: user.id, kind: 'api', now: t0 })
    const find = (token: string, kind: 'web' | 'api', now: Date, idleDays?: number) =>
      findSession({ db, secret, token, kind, now, logger, idleDays })
    const kindsLeft = async () => (await db.select().from(sessions).where(eq(sessions.userId, user.id))).map((s) => s.kind).sort()

    // Used every six days, the web session lives on past the idle limit; each use is recorded.
    expect(await find(web.token, 'web', at(6))).not.toBeNull()
    expect((await listSessions({ db, userId: user.id, now: at(6) })).map((s) => s.kind)).toEqual(['web', 'api', 'api'])
    expect(await find(web.token, 'web', at(12))).not.toBeNull()
    const [webRow] = await db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, user.id), eq(sessions.kind, 'web')))
    expect(webRow?.lastSeenAt.toISOString()).toBe(at(12).toISOString())

    // The API tokens, unused since t0, are idle by day 12: no longer listed; refused and revoked when used.
    expect((await listSessions({ db, userId: user.id, now: at(12) })).map((s) => s.kind)).toEqual(['web'])
    expect(await find(api.token, 'api', at(12))).toBeNull()
    expect(await find(api.token, 'api', at(12), 30)).toBeNull()
    expect(await kindsLeft()).toEqual(['api', 'web'])
    // To the millisecond: still good one millisecond short of the limit after its last use, not one after.
    const lastUse = new Date(at(SESSION_IDLE_DAYS).getTime() - 1)
    expect(await find(edge.token, 'api', lastUse)).not.toBeNull()
    expect(await find(edge.token, 'api', new Date(lastUse.getTime() + SESSION_IDLE_DAYS * day + 1))).toBeNull()
    expect(await kindsLeft()).toEqual(['web'])

    // A shorter limit from the configuration applies the same way.
    expect(await find(web.token, 'web', at(14), 3)).not.toBeNull()
    expect(await find(web.token, 'web', at(17.5), 3)).toBeNull()
    expect(await kindsLeft()).toEqual([])

    const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((e) => e.event === 'auth.session.idle')
    expect(events.map(({ userId, kind }) => ({ userId, kind }))).toEqual([
      { userId: user.id, kind: 'api' },
      { userId: user.id, kind: 'api' },
      { userId: user.id, kind: 'web' },
    ])
    for (const secretValue of [user.email, user.username, web.token, api.token]) expect(lines.join('')).not.toContain(secretValue)
  })

  it('are not found by a wrong, empty or absurdly long token, nor under another secret', async () => {
    const { db, secret, user } = await setup()
    const { token } = await createSession({ db, secret, userId: user.id, kind: 'web' })
    expect(await findSession({ db, secret, token: `${token}x`, kind: 'web' })).toBeNull()
    expect(await findSession({ db, secret, token: '', kind: 'web' })).toBeNull()
    expect(await findSession({ db, secret, token: 'a'.repeat(500), kind: 'web' })).toBeNull()
    expect(await findSession({ db, secret: 's'.repeat(64), token, kind: 'web' })).toBeNull()
  })

  it('of one kind do not open the other: a cookie is not an API token', async () => {
    const { db, secret, user } = await setup()
    const web = await createSession({ db, secret, userId: user.id, kind: 'web' })
    const api = await createSession({ db, secret, userId: user.id, kind: 'api' })
    expect(await findSession({ db, secret, token: web.token, kind: 'api' })).toBeNull()
    expect(await findSession({ db, secret, token: api.token, kind: 'web' })).toBeNull()
    expect(await findSession({ db, secret, token: web.token, kind: 'web' })).not.toBeNull()
  })

  it('end when revoked by their owner, not by anyone else', async () => {
    const { ctx, db, secret, user } = await setup()
    const { user: intruder } = await createUser(ctx)
    const { token } = await createSession({ db, secret, userId: user.id, kind: 'web' })
    const session = await findSession({ db, secret, token, kind: 'web' })
    expect(session).not.toBeNull()

    expect(await revokeSession({ ...ctx, sessionId: session!.sessionId, userId: intruder.id, reason: 'signed_out' })).toBe(false)
    expect(await findSession({ db, secret, token, kind: 'web' })).not.toBeNull()

    expect(await revokeSession({ ...ctx, sessionId: session!.sessionId, userId: user.id, reason: 'signed_out' })).toBe(true)
    expect(await findSession({ db, secret, token, kind: 'web' })).toBeNull()
    expect(await revokeSession({ ...ctx, sessionId: session!.sessionId, userId: user.id, reason: 'signed_out' })).toBe(false)
  })

  it('"sign out of other devices" keeps the current one and no one else\'s', async () => {
    const { ctx, db, secret, user } = await setup()
    const { user: neighbour } = await createUser(ctx)
    const current = await createSession({ db, secret, userId: user.id, kind: 'web', userAgent: ANDROID_CHROME })
    const phone = await createSession({ db, secret, userId: user.id, kind: 'web', userAgent: IPHONE_SAFARI })
    const api = await createSession({ db, secret, userId: user.id, kind: 'api' })
    const theirs = await createSession({ db, secret, userId: neighbour.id, kind: 'web' })
    const currentId = (await findSession({ db, secret, token: current.token, kind: 'web' }))!.sessionId

    expect(await listSessions({ db, userId: user.id })).toHaveLength(3)
    expect(await revokeOtherSessions({ ...ctx, userId: user.id, keepSessionId: currentId })).toBe(2)
    expect(await findSession({ db, secret, token: current.token, kind: 'web' })).not.toBeNull()
    expect(await findSession({ db, secret, token: phone.token, kind: 'web' })).toBeNull()
    expect(await findSession({ db, secret, token: api.token, kind: 'api' })).toBeNull()
    expect(await findSession({ db, secret, token: theirs.token, kind: 'web' })).not.toBeNull()
    expect((await listSessions({ db, userId: user.id })).map((s) => s.id)).toEqual([currentId])

    await revokeAllSessions({ ...ctx, userId: user.id, reason: 'password_changed' })
    expect(await listSessions({ db, userId: user.id })).toEqual([])
    expect(await listSessions({ db, userId: neighbour.id })).toHaveLength(1)
  })
})

describe('describeDevice', () => {
  it.each([
    [ANDROID_CHROME, 'Chrome · Android'],
    [IPHONE_SAFARI, 'Safari · iOS'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0',
      'Edge · Windows',
    ],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14.4; rv:125.0) Gecko/20100101 Firefox/125.0', 'Firefox · macOS'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36', 'Chrome · Linux'],
    [
      'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36',
      'Samsung Internet · Android',
    ],
    ['curl/8.5.0', 'curl/8.5.0'],
    ['', ''],
    [null, ''],
    [undefined, ''],
  ])('%s → %j', (userAgent, expected) => {
    expect(describeDevice(userAgent)).toBe(expected)
  })

  it('keeps at most 40 characters of an unknown user agent', () => {
    expect(describeDevice(`Bot/1.0 ${'x'.repeat(200)}`)).toHaveLength(40)
  })
})
