import { count, eq } from 'drizzle-orm'
import { decideReview, listReviewsByStatus } from '#app/features/accounts/index.server.ts'
import { isUuid } from '#app/lib/ids.ts'
import { DomainError } from '#app/lib/errors.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { reviews, reviewStatuses } from '#app/platform/db/schema.ts'
import { recordOperatorAction, type Operator } from './audit.server.ts'

// Client reviews wait for an operator before the home page shows them (the accounts feature
// keeps them; this is the operator's side of it).

export type ReviewStatus = (typeof reviewStatuses)[number]

export type ListReviewsOptions = { db: Db; status: ReviewStatus }

/** One status's reviews, newest first, with how many each status has (the page's tabs). */
export async function listReviewsForOperators({ db, status }: ListReviewsOptions) {
  const [list, counts] = await Promise.all([
    listReviewsByStatus({ db, status }),
    db.select({ status: reviews.status, n: count() }).from(reviews).groupBy(reviews.status),
  ])
  const countOf = Object.fromEntries(reviewStatuses.map((s) => [s, counts.find((c) => c.status === s)?.n ?? 0])) as Record<
    ReviewStatus,
    number
  >
  return { reviews: list, counts: countOf }
}

export type DecideReviewAsOperatorOptions = { db: Db; operator: Operator; reviewId: string; decision: 'approve' | 'reject' }

/** Approves or rejects a pending review (the same `decideReview` as the CLI), and logs it. 404 for none, 409 for one already decided. */
export async function decideReviewAsOperator({ db, operator, reviewId, decision }: DecideReviewAsOperatorOptions): Promise<void> {
  if (!isUuid(reviewId)) throw new DomainError(404, 'operators.errors.reviewNotFound')
  await db.transaction(async (tx) => {
    const [review] = await tx.select({ id: reviews.id, rating: reviews.rating }).from(reviews).where(eq(reviews.id, reviewId)).limit(1)
    if (!review) throw new DomainError(404, 'operators.errors.reviewNotFound')
    if (!(await decideReview({ db: tx, id: review.id, status: decision === 'approve' ? 'approved' : 'rejected' })))
      throw new DomainError(409, 'operators.errors.reviewDecided')
    await recordOperatorAction({
      db: tx,
      operator,
      action: decision === 'approve' ? 'review.approve' : 'review.reject',
      target: { type: 'review', id: review.id },
      detail: { rating: review.rating },
    })
  })
}
