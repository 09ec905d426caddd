import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { reviews } from '#app/platform/db/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { accountContext, createUser, silenceOutboxHints } from '#tests/factories.ts'
import { createReview, decideReview, listApprovedReviews, listReviewsByStatus } from './reviews.server.ts'
import { reviewSchema } from './schemas.ts'

const testDb = setupTestDatabase()
silenceOutboxHints()

async function reviewer() {
  const ctx = accountContext(testDb())
  const { user } = await createUser(ctx)
  return { db: ctx.db, user }
}

describe('reviews', () => {
  it('wait for approval when written', async () => {
    const { db, user } = await reviewer()
    const review = await createReview({
      db,
      userId: user.id,
      input: reviewSchema.parse({ rating: '4', comment: '  أداة ممتازة لتحليل الغياب  ' }),
    })
    expect(review).toMatchObject({ userId: user.id, rating: 4, comment: 'أداة ممتازة لتحليل الغياب', status: 'pending', decidedAt: null })
    expect((await listApprovedReviews({ db })).map((r) => r.id)).not.toContain(review.id)
    expect((await listReviewsByStatus({ db, status: 'pending' })).map((r) => r.id)).toContain(review.id)
  })

  it('are shown publicly only once approved, newest first, with the username', async () => {
    const { db, user } = await reviewer()
    const older = await createReview({ db, userId: user.id, input: { rating: 5, comment: 'older' } })
    const newer = await createReview({ db, userId: user.id, input: { rating: 3, comment: 'newer' } })
    const rejected = await createReview({ db, userId: user.id, input: { rating: 1, comment: 'rejected' } })
    await db
      .update(reviews)
      .set({ createdAt: new Date(Date.now() - 60_000) })
      .where(eq(reviews.id, older.id))
    expect(await decideReview({ db, id: older.id, status: 'approved' })).toBe(true)
    expect(await decideReview({ db, id: newer.id, status: 'approved' })).toBe(true)
    expect(await decideReview({ db, id: rejected.id, status: 'rejected' })).toBe(true)

    const shown = (await listApprovedReviews({ db })).filter((r) => [older.id, newer.id, rejected.id].includes(r.id))
    expect(shown.map((r) => r.comment)).toEqual(['newer', 'older'])
    expect(shown[0]).toEqual({ id: newer.id, rating: 3, comment: 'newer', username: user.username, createdAt: expect.any(Date) })
    expect((await listReviewsByStatus({ db, status: 'rejected' })).map((r) => r.id)).toContain(rejected.id)
  })

  it('are decided only once', async () => {
    const { db, user } = await reviewer()
    const review = await createReview({ db, userId: user.id, input: { rating: 2, comment: 'قابل للتحسين' } })
    expect(await decideReview({ db, id: review.id, status: 'rejected' })).toBe(true)
    expect(await decideReview({ db, id: review.id, status: 'approved' })).toBe(false)
    expect(await decideReview({ db, id: review.id, status: 'rejected' })).toBe(false)
    const [row] = await db.select().from(reviews).where(eq(reviews.id, review.id))
    expect(row).toMatchObject({ status: 'rejected', decidedAt: expect.any(Date) })
  })

  it('keep the rating between 1 and 5', async () => {
    const { db, user } = await reviewer()
    expect(reviewSchema.safeParse({ rating: 6, comment: 'x' }).error?.issues[0]?.message).toBe('accounts.errors.rating')
    expect(reviewSchema.safeParse({ rating: 4.5, comment: 'x' }).error?.issues[0]?.message).toBe('accounts.errors.rating')
    expect(reviewSchema.safeParse({ rating: 3, comment: '   ' }).error?.issues[0]?.message).toBe('accounts.errors.commentRequired')
    // The database refuses it too, should a caller skip the schema.
    const refused = await createReview({ db, userId: user.id, input: { rating: 0, comment: 'x' } }).catch((error: unknown) => error)
    expect(String((refused as { cause?: unknown }).cause)).toContain('reviews_rating_range')
  })
})
