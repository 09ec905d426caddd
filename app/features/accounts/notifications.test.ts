import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { notifications } from '#app/platform/db/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { accountContext, createUser, silenceOutboxHints } from '#tests/factories.ts'
import {
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  notify,
  unreadNotificationCount,
} from './notifications.server.ts'

const testDb = setupTestDatabase()
silenceOutboxHints()

/** A teacher with her welcome notification and two more, each a little later than the last. */
async function teacherWithNotifications() {
  const ctx = accountContext(testDb())
  const { user } = await createUser(ctx)
  await notify({ db: ctx.db, userId: user.id, kind: 'password_changed' })
  await notify({ db: ctx.db, userId: user.id, kind: 'email_changed', params: { email: 'new@school.sa' } })
  // Spread the times out so the order does not rest on the clock's resolution.
  const rows = await ctx.db.select().from(notifications).where(eq(notifications.userId, user.id))
  const minutes = { welcome: 30, password_changed: 20, email_changed: 10 } as Record<string, number>
  for (const row of rows)
    await ctx.db
      .update(notifications)
      .set({ createdAt: new Date(Date.now() - (minutes[row.kind] ?? 0) * 60_000) })
      .where(eq(notifications.id, row.id))
  return { ctx, user, db: ctx.db }
}

describe('notifications', () => {
  it('are listed newest first, with their parameters, and counted while unread', async () => {
    const { db, user } = await teacherWithNotifications()
    const list = await listNotifications({ db, userId: user.id })
    expect(list.map((n) => n.kind)).toEqual(['email_changed', 'password_changed', 'welcome'])
    expect(list[0]).toMatchObject({ params: { email: 'new@school.sa' }, readAt: null })
    expect(list[2]?.params).toEqual({ name: user.username })
    expect(await unreadNotificationCount({ db, userId: user.id })).toBe(3)
    expect(await listNotifications({ db, userId: user.id, limit: 2 })).toHaveLength(2)
  })

  it('of one user are not listed or counted for another', async () => {
    const { ctx, db, user } = await teacherWithNotifications()
    const { user: other } = await createUser(ctx)
    expect((await listNotifications({ db, userId: other.id })).map((n) => n.kind)).toEqual(['welcome'])
    expect(await unreadNotificationCount({ db, userId: other.id })).toBe(1)
    expect(await unreadNotificationCount({ db, userId: user.id })).toBe(3)
  })

  it('are marked read one at a time by their owner only', async () => {
    const { ctx, db, user } = await teacherWithNotifications()
    const { user: other } = await createUser(ctx)
    const [newest] = await listNotifications({ db, userId: user.id })

    expect(await markNotificationRead({ db, userId: other.id, id: newest!.id })).toBe(false)
    expect((await listNotifications({ db, userId: user.id }))[0]?.readAt).toBeNull()
    expect(await unreadNotificationCount({ db, userId: user.id })).toBe(3)

    expect(await markNotificationRead({ db, userId: user.id, id: newest!.id })).toBe(true)
    expect((await listNotifications({ db, userId: user.id }))[0]?.readAt).toBeInstanceOf(Date)
    expect(await unreadNotificationCount({ db, userId: user.id })).toBe(2)
    // Marking it again is harmless.
    expect(await markNotificationRead({ db, userId: user.id, id: newest!.id })).toBe(true)
    expect(await unreadNotificationCount({ db, userId: user.id })).toBe(2)
  })

  it('answer false for an id that is not one', async () => {
    const { db, user } = await teacherWithNotifications()
    expect(await markNotificationRead({ db, userId: user.id, id: 'not-a-uuid' })).toBe(false)
    expect(await markNotificationRead({ db, userId: user.id, id: "' or 1=1 --" })).toBe(false)
    expect(await markNotificationRead({ db, userId: user.id, id: '00000000-0000-4000-8000-000000000000' })).toBe(false)
    expect(await unreadNotificationCount({ db, userId: user.id })).toBe(3)
  })

  it("are all marked read at once, and only the owner's", async () => {
    const { ctx, db, user } = await teacherWithNotifications()
    const { user: other } = await createUser(ctx)
    await markAllNotificationsRead({ db, userId: user.id })
    expect(await unreadNotificationCount({ db, userId: user.id })).toBe(0)
    expect((await listNotifications({ db, userId: user.id })).every((n) => n.readAt instanceof Date)).toBe(true)
    expect(await unreadNotificationCount({ db, userId: other.id })).toBe(1)
  })
})
