import { Form, redirect, useNavigation } from 'react-router'
import { reviewSchema } from '#app/features/accounts/schemas.ts'
import { createReview, flashCookie, getCurrentSession, listApprovedReviews, requireUser } from '#app/features/accounts/index.server.ts'
import { ReviewList } from '#app/features/accounts/index.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { parseForm, runForm } from '#app/lib/action.server.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { localPath } from '#app/ui/app-link.tsx'
import { FormErrorNotice } from '#app/ui/form-error-notice.tsx'
import { FormField } from '#app/ui/form-field.tsx'
import { PageHero } from '#app/ui/page-hero.tsx'
import { useSchemaForm } from '#app/ui/use-schema-form.ts'
import type { Route } from './+types/rates'
import { staticForGuests } from '#app/document/static-pages.ts'

const fields = ['rating', 'comment'] as const

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const current = await getCurrentSession(request, context)
  const reviews = await listApprovedReviews({ db: context.db })
  return {
    messages: getMessages(lang, ['accounts']),
    isSignedIn: Boolean(current),
    reviews: reviews.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
  }
}

// Re-exported, not declared here: the actions' own `headers` variables would shadow it.
export { keepRetryAfter as headers } from '#app/lib/route-headers.ts'

export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  const { user } = await requireUser(request, context, lang)
  const parsed = parseForm(reviewSchema, await request.formData(), fields)
  if (!parsed.ok) return parsed.response
  return runForm(parsed.values, async () => {
    await createReview({ db: context.db, userId: user.id, input: parsed.data })
    throw redirect(localPath(lang, 'rates'), { headers: { 'Set-Cookie': flashCookie('success', 'accounts.messages.reviewThanks') } })
  })
}

// Sent to guests without React in the browser (app/document/static-pages.ts): they read the reviews;
// a signed-in teacher gets the React page with the review form.
export const handle = staticForGuests

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'accounts.meta.rates', 'rates')

export default function Rates({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  const navigation = useNavigation()
  const serverErrors = actionData && !actionData.ok ? actionData.errors : undefined
  const { errors, onSubmit } = useSchemaForm(reviewSchema, fields, serverErrors)
  const values = actionData && !actionData.ok ? actionData.values : {}
  return (
    <>
      <PageHero title={t('accounts.rates.title')} lead={t('accounts.rates.lead')} />
      <section className="section">
        <div className="container narrow">
          <ReviewList reviews={loaderData.reviews} />
          <article className="card review-form" aria-labelledby="leave-review">
            <h2 id="leave-review">{t('accounts.rates.leave')}</h2>
            {loaderData.isSignedIn ? (
              <>
                <p className="muted">{t('accounts.rates.leaveLead')}</p>
                <FormErrorNotice errors={errors} />
                <Form method="post" noValidate className="form" onSubmit={onSubmit}>
                  <fieldset
                    className={`rating-field${errors.rating ? ' has-error' : ''}`}
                    aria-describedby={errors.rating ? 'rating-error' : undefined}
                  >
                    <legend>{t('accounts.fields.rating')}</legend>
                    <div className="rating-options">
                      {[1, 2, 3, 4, 5].map((n) => (
                        <label key={n}>
                          <input type="radio" name="rating" value={n} defaultChecked={values.rating === String(n)} />
                          <span aria-hidden="true">{'★'.repeat(n)}</span>
                          <span className="visually-hidden">{t('accounts.rates.stars', { count: n })}</span>
                        </label>
                      ))}
                    </div>
                    <div aria-live="polite">
                      {errors.rating ? (
                        <p id="rating-error" className="field-error">
                          {t(errors.rating[0] ?? '')}
                        </p>
                      ) : null}
                    </div>
                  </fieldset>
                  <FormField id="review-comment" label={t('accounts.fields.comment')} errors={errors.comment} required>
                    {(p) => <textarea {...p} name="comment" rows={4} maxLength={1000} defaultValue={values.comment} required />}
                  </FormField>
                  <button type="submit" className="button button-primary" disabled={navigation.state === 'submitting'}>
                    {t('accounts.rates.submit')}
                  </button>
                </Form>
              </>
            ) : (
              <a
                className="button button-primary"
                href={`${localPath(lang, 'login')}?redirectTo=${encodeURIComponent(localPath(lang, 'rates'))}`}
              >
                {t('accounts.rates.loginToReview')}
              </a>
            )}
          </article>
        </div>
      </section>
    </>
  )
}
