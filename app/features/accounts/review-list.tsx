import { formatDate } from '#app/i18n/format.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'

export type ReviewItem = { id: string; rating: number; comment: string; username: string; createdAt: string }

/** Approved reviews with their stars (read out as "4 stars out of 5"). */
export function ReviewList({ reviews }: { reviews: ReviewItem[] }) {
  const { t } = useT()
  const lang = useLang()
  if (reviews.length === 0) return <p className="empty-state">{t('accounts.rates.empty')}</p>
  return (
    <ul className="review-list">
      {reviews.map((r) => (
        <li key={r.id} className="card review">
          <p className="stars" role="img" aria-label={t('accounts.rates.stars', { count: r.rating })}>
            {'★'.repeat(r.rating)}
            <span className="stars-off">{'★'.repeat(5 - r.rating)}</span>
          </p>
          <blockquote>{r.comment}</blockquote>
          <p className="muted">
            {r.username} · <time dateTime={r.createdAt}>{formatDate(lang, r.createdAt).gregorian}</time>
          </p>
        </li>
      ))}
    </ul>
  )
}
