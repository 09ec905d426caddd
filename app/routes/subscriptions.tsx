import { requireUser } from '#app/features/accounts/index.server.ts'
import { listSubscriptions } from '#app/features/billing/index.server.ts'
import { formatDate, formatMoney } from '#app/i18n/format.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink, localPath } from '#app/ui/app-link.tsx'
import { Ltr } from '#app/ui/sentence.tsx'
import { PageHero } from '#app/ui/page-hero.tsx'
import type { Route } from './+types/subscriptions'

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireUser(request, context, lang)
  return { messages: getMessages(lang, ['billing']), subscriptions: await listSubscriptions({ db: context.db, userId: user.id, lang }) }
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'billing.meta.subscriptions', 'subscriptions')

export default function Subscriptions({ loaderData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  const { subscriptions } = loaderData
  return (
    <>
      <PageHero title={t('billing.subscriptions.title')} />
      <section className="section">
        <div className="container narrow">
          {subscriptions.length === 0 ? (
            <div className="empty-state">
              <p>{t('billing.subscriptions.empty')}</p>
              <p>{t('billing.subscriptions.emptyLead')}</p>
              <AppLink className="button button-primary" to="packages">
                {t('billing.subscriptions.choose')}
              </AppLink>
            </div>
          ) : (
            <ul className="subscription-list">
              {subscriptions.map((s) => {
                const starts = formatDate(lang, s.startsAt)
                const ends = formatDate(lang, s.endsAt)
                return (
                  <li key={s.id} className={`card subscription subscription-${s.status}`}>
                    <div className="subscription-head">
                      <h2>{s.packageName}</h2>
                      {s.creditNote ? (
                        <span className="status-badge status-expired">{t('billing.creditNote.refunded')}</span>
                      ) : (
                        <span className={`status-badge status-${s.status}`}>{t(`billing.subscriptions.${s.status}`)}</span>
                      )}
                    </div>
                    <dl className="price-lines">
                      <div>
                        <dt>{t('billing.subscriptions.starts')}</dt>
                        <dd>
                          {starts.gregorian} · {starts.hijri}
                        </dd>
                      </div>
                      <div>
                        <dt>{t('billing.subscriptions.ends')}</dt>
                        <dd>
                          {ends.gregorian} · {ends.hijri}
                        </dd>
                      </div>
                      <div>
                        <dt>{t('billing.subscriptions.paid')}</dt>
                        <dd>{formatMoney(lang, s.payment.amount)}</dd>
                      </div>
                    </dl>
                    <p className="document-links">
                      {s.invoiceId ? <AppLink to={`invoices/${s.invoiceId}`}>{t('billing.subscriptions.invoice')}</AppLink> : null}
                      {s.creditNote ? (
                        <a href={localPath(lang, `credit-notes/${s.creditNote.id}/pdf`)} download>
                          {t('billing.creditNote.view')} <Ltr>{s.creditNote.serial}</Ltr>
                        </a>
                      ) : null}
                    </p>
                  </li>
                )
              })}
            </ul>
          )}
        </div>
      </section>
    </>
  )
}
