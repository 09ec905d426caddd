import { and, count, desc, eq, isNull } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { notifications } from '#app/platform/db/schema.ts'
import { isUuid } from '#app/lib/ids.ts'

/** Kinds with their text in the `notifications` namespace; later features add theirs. */
export type NotificationKind = 'welcome' | 'password_changed' | 'email_changed' | (string & {})

export type NotifyOptions = { db: Db; userId: string; kind: NotificationKind; params?: Record<string, string | number> }

export async function notify({ db, userId, kind, params = {} }: NotifyOptions) {
  await db.insert(notifications).values({ userId, kind, params })
}

export type ListNotificationsOptions = { db: Db; userId: string; limit?: number }

export async function listNotifications({ db, userId, limit = 100 }: ListNotificationsOptions) {
  return db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      params: notifications.params,
      readAt: notifications.readAt,
      createdAt: notifications.createdAt,
    })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit)
}

export type UnreadNotificationCountOptions = { db: Db; userId: string }

export async function unreadNotificationCount({ db, userId }: UnreadNotificationCountOptions): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
  return row?.n ?? 0
}

export type MarkNotificationReadOptions = { db: Db; userId: string; id: string }

/** Marks one of the user's notifications read; another user's id changes nothing (false). */
export async function markNotificationRead({ db, userId, id }: MarkNotificationReadOptions): Promise<boolean> {
  if (!isUuid(id)) return false
  const rows = await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id })
  if (rows.length) return true
  const [exists] = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
  return Boolean(exists)
}

export type MarkAllNotificationsReadOptions = { db: Db; userId: string }

export async function markAllNotificationsRead({ db, userId }: MarkAllNotificationsReadOptions): Promise<void> {
  await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
}
