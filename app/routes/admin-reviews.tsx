import { Form } from 'react-router'
import {
  decideReviewAsOperator,
  listReviewsForOperators,
  operatorOf,
  operatorPageWrite,
  parseOperatorForm,
  requireOperatorPage,
  reviewDecisionSchema,
  type ReviewStatus,
} from '#app/features/operators/index.server.ts'
import { formatDate } from '#app/i18n/format.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink, localPath } from '#app/ui/app-link.tsx'
import type { Route } from './+types/admin-reviews'

// Client reviews by status; a pending one is approved (it shows on the home page) or rejected.

const statuses: ReviewStatus[] = ['pending', 'approved', 'rejected']
const statusOf = (value: string | null): ReviewStatus => (statuses.includes(value as ReviewStatus) ? (value as ReviewStatus) : 'pending')

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  await requireOperatorPage(request, context, lang)
  const status = statusOf(new URL(request.url).searchParams.get('status'))
  const { reviews, counts } = await listReviewsForOperators({ db: context.db, status })
  return {
    messages: getMessages(lang, ['operators']),
    status,
    counts,
    reviews: reviews.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  const { user } = await requireOperatorPage(request, context, lang)
  const form = await request.formData()
  return operatorPageWrite({
    context,
    operator: operatorOf(user),
    back: localPath(lang, 'admin/reviews'),
    run: async () => {
      const { decision } = parseOperatorForm(reviewDecisionSchema, { decision: form.get('decision') })
      await decideReviewAsOperator({ db: context.db, operator: operatorOf(user), reviewId: String(form.get('id') ?? ''), decision })
      return decision === 'approve' ? 'operators.reviews.done.approve' : 'operators.reviews.done.reject'
    },
  })
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'operators.meta.reviews', 'admin/reviews')

export default function AdminReviews({ loaderData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  const { status, counts, reviews } = loaderData
  return (
    <>
      <h1>{t('operators.reviews.title')}</h1>
      <p className="muted">{t('operators.reviews.lead')}</p>
      <nav className="admin-tabs" aria-label={t('operators.reviews.tabsLabel')}>
        {statuses.map((s) => (
          <AppLink key={s} to={`admin/reviews?status=${s}`} aria-current={s === status ? 'page' : undefined}>
            {t(`operators.reviews.status.${s}`)} <span className="admin-count">{counts[s]}</span>
          </AppLink>
        ))}
      </nav>
      {reviews.length === 0 ? (
        <p className="empty-state">{t(`operators.reviews.empty.${status}`)}</p>
      ) : (
        <ul className="admin-cards">
          {reviews.map((r) => (
            <li key={r.id} className="card card-plain review">
              <p className="stars" role="img" aria-label={t('operators.reviews.rating', { rating: r.rating })}>
                {'★'.repeat(r.rating)}
                <span className="stars-off">{'★'.repeat(5 - r.rating)}</span>
              </p>
              <blockquote>
                <p dir="auto">{r.comment}</p>
              </blockquote>
              <p className="muted">
                <bdi>{t('operators.reviews.by', { name: r.username })}</bdi> ·{' '}
                <time dateTime={r.createdAt}>{formatDate(lang, r.createdAt).gregorian}</time>
              </p>
              {status === 'pending' ? (
                <Form method="post" className="admin-actions">
                  <input type="hidden" name="id" value={r.id} />
                  <button type="submit" name="decision" value="approve" className="button button-primary button-small">
                    {t('operators.reviews.approve')}
                  </button>
                  <button type="submit" name="decision" value="reject" className="button button-ghost button-small">
                    {t('operators.reviews.reject')}
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </>
  )
}
