import { and, desc, eq } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { reviews, users } from '#app/platform/db/schema.ts'

export type CreateReviewOptions = { db: Db; userId: string; input: { rating: number; comment: string } }

/** A review waits for an operator's approval (`npm run admin -- reviews approve <id>`). */
export async function createReview({ db, userId, input }: CreateReviewOptions) {
  const [row] = await db.insert(reviews).values({ userId, rating: input.rating, comment: input.comment }).returning()
  if (!row) throw new Error('review insert returned no row')
  return row
}

export type ReviewView = { id: string; rating: number; comment: string; username: string; createdAt: Date }

export type ListApprovedReviewsOptions = { db: Db; limit?: number }

export async function listApprovedReviews({ db, limit = 50 }: ListApprovedReviewsOptions): Promise<ReviewView[]> {
  return db
    .select({ id: reviews.id, rating: reviews.rating, comment: reviews.comment, username: users.username, createdAt: reviews.createdAt })
    .from(reviews)
    .innerJoin(users, eq(users.id, reviews.userId))
    .where(eq(reviews.status, 'approved'))
    .orderBy(desc(reviews.createdAt))
    .limit(limit)
}

export type ListReviewsByStatusOptions = { db: Db; status: 'pending' | 'approved' | 'rejected' }

export async function listReviewsByStatus({ db, status }: ListReviewsByStatusOptions) {
  return db
    .select({ id: reviews.id, rating: reviews.rating, comment: reviews.comment, username: users.username, createdAt: reviews.createdAt })
    .from(reviews)
    .innerJoin(users, eq(users.id, reviews.userId))
    .where(eq(reviews.status, status))
    .orderBy(desc(reviews.createdAt))
}

export type DecideReviewOptions = { db: Db; id: string; status: 'approved' | 'rejected' }

export async function decideReview({ db, id, status }: DecideReviewOptions): Promise<boolean> {
  const rows = await db
    .update(reviews)
    .set({ status, decidedAt: new Date() })
    .where(and(eq(reviews.id, id), eq(reviews.status, 'pending')))
    .returning({ id: reviews.id })
  return rows.length > 0
}
