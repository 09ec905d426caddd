import { sql } from 'drizzle-orm'
import type { Db } from './db/client.server.ts'
import { rateLimits } from './db/schema.ts'

export type RateLimitResult = { allowed: boolean; remaining: number; retryAfterSeconds: number }

export type HitRateLimitOptions = { db: Db; key: string; limit: number; windowSeconds: number; now?: Date }

/**
 * A fixed-window counter kept in the database, so the limit holds across processes.
 * One statement: insert the window, or bump it, or restart it once it has expired.
 */
export async function hitRateLimit({ db, ...options }: HitRateLimitOptions): Promise<RateLimitResult> {
  const now = options.now ?? new Date()
  const resetAt = new Date(now.getTime() + options.windowSeconds * 1000)
  const [row] = await db
    .insert(rateLimits)
    .values({ key: options.key, count: 1, resetAt })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.resetAt} <= ${now.toISOString()}::timestamptz then 1 else ${rateLimits.count} + 1 end`,
        resetAt: sql`case when ${rateLimits.resetAt} <= ${now.toISOString()}::timestamptz then ${resetAt.toISOString()}::timestamptz else ${rateLimits.resetAt} end`,
      },
    })
    .returning({ count: rateLimits.count, resetAt: rateLimits.resetAt })
  if (!row) throw new Error('rate limit upsert returned no row')
  const retryAfterSeconds = Math.max(1, Math.ceil((row.resetAt.getTime() - now.getTime()) / 1000))
  return {
    allowed: row.count <= options.limit,
    remaining: Math.max(0, options.limit - row.count),
    retryAfterSeconds,
  }
}

export type PruneRateLimitsOptions = { db: Db; now?: Date }

/** Removes expired windows; run now and then so the table stays small. */
export async function pruneRateLimits({ db, now = new Date() }: PruneRateLimitsOptions): Promise<void> {
  await db.delete(rateLimits).where(sql`${rateLimits.resetAt} < ${now.toISOString()}::timestamptz`)
}
