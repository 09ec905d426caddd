import { data } from 'react-router'
import { findUserPayment, listSubscriptions } from '#app/features/billing/index.server.ts'
import { requireUser } from '#app/features/accounts/index.server.ts'
import { formatDate } from '#app/i18n/format.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useT } from '#app/i18n/use-t.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink } from '#app/ui/app-link.tsx'
import type { Route } from './+types/payment-result'

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireUser(request, context, lang)
  const payment = await findUserPayment({ db: context.db, userId: user.id, paymentId: params.paymentId })
  if (!payment) throw data(null, { status: 404 })
  const subscription = (await listSubscriptions({ db: context.db, userId: user.id, lang })).find((s) => s.payment.id === payment.id) ?? null
  return {
    messages: getMessages(lang, ['billing']),
    status: payment.status,
    packageId: payment.packageId,
    subscription: subscription
      ? {
          name: subscription.packageName,
          starts: formatDate(lang, subscription.startsAt),
          ends: formatDate(lang, subscription.endsAt),
          invoiceId: subscription.invoiceId,
        }
      : null,
  }
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'billing.meta.result', 'payments/result')

export default function PaymentResult({ loaderData }: Route.ComponentProps) {
  const { t } = useT()
  const { status, subscription } = loaderData
  return (
    <section className="section">
      <div className="container narrow">
        <div className={`card result-card result-${status}`}>
          {status === 'paid' ? (
            <>
              <h1>{t('billing.result.success')}</h1>
              <p>{t('billing.result.successLead')}</p>
              {subscription ? (
                <dl className="price-lines">
                  <div>
                    <dt>{t('billing.checkout.package')}</dt>
                    <dd>{subscription.name}</dd>
                  </div>
                  <div>
                    <dt>{t('billing.subscriptions.starts')}</dt>
                    <dd>
                      {subscription.starts.gregorian} · {subscription.starts.hijri}
                    </dd>
                  </div>
                  <div>
                    <dt>{t('billing.subscriptions.ends')}</dt>
                    <dd>
                      {subscription.ends.gregorian} · {subscription.ends.hijri}
                    </dd>
                  </div>
                </dl>
              ) : null}
              {/* She paid to work: the first tool comes first, the invoice stays one click away. */}
              <div className="dialog-actions">
                <AppLink className="button button-primary" to="analysis">
                  {t('billing.result.startAbsence')}
                </AppLink>
                {subscription?.invoiceId ? (
                  <AppLink className="button button-ghost" to={`invoices/${subscription.invoiceId}`}>
                    {t('billing.result.viewInvoice')}
                  </AppLink>
                ) : (
                  <AppLink className="button button-ghost" to="subscriptions">
                    {t('billing.result.subscriptions')}
                  </AppLink>
                )}
              </div>
            </>
          ) : status === 'failed' ? (
            <>
              <h1>{t('billing.result.failed')}</h1>
              <p role="alert">{t('billing.result.failedLead')}</p>
              <AppLink className="button button-primary" to={`checkout/${loaderData.packageId}`}>
                {t('billing.result.tryAgain')}
              </AppLink>
            </>
          ) : (
            <>
              <h1>{t('billing.result.pending')}</h1>
              <p>{t('billing.result.pendingLead')}</p>
            </>
          )}
        </div>
      </div>
    </section>
  )
}
