import { Form } from 'react-router'
import { searchPayments } from '#app/features/billing/index.server.ts'
import { requireOperatorPage } from '#app/features/operators/index.server.ts'
import { formatDateTime, formatMoney } from '#app/i18n/format.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink } from '#app/ui/app-link.tsx'
import type { Route } from './+types/admin-payments'

// Payments and subscriptions, newest first; `?q=` searches by email or serial (docs/operators.md).

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  await requireOperatorPage(request, context, lang)
  const query = (new URL(request.url).searchParams.get('q') ?? '').slice(0, 200)
  const found = await searchPayments({ db: context.db, query })
  return {
    messages: getMessages(lang, ['operators', 'money']),
    query,
    payments: found.map((p) => ({
      id: p.id,
      createdAt: p.createdAt.toISOString(),
      status: p.status,
      total: p.total,
      teacherEmail: p.teacherEmail,
      packageName: lang === 'ar' ? p.packageNameAr : p.packageNameEn,
      invoiceSerial: p.invoiceSerial,
      creditNoteSerial: p.creditNoteSerial,
      subscriptionEndsAt: p.subscriptionEndsAt?.toISOString() ?? null,
    })),
  }
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'money.meta.payments', 'admin/payments')

export default function AdminPayments({ loaderData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  const { payments, query } = loaderData
  return (
    <>
      <h1>{t('money.payments.title')}</h1>
      <p className="muted">{t('money.payments.lead')}</p>
      <Form method="get" role="search" className="admin-search">
        <label htmlFor="payments-q">{t('money.payments.search')}</label>
        <div className="admin-search-row">
          <input id="payments-q" name="q" type="search" defaultValue={query} maxLength={200} dir="ltr" autoComplete="off" />
          <button type="submit" className="button button-primary">
            {t('money.payments.searchButton')}
          </button>
        </div>
        {query ? (
          <p>
            <AppLink to="admin/payments">{t('money.payments.clear')}</AppLink>
          </p>
        ) : null}
      </Form>
      {payments.length === 0 ? (
        <p className="empty-state">{t('money.payments.empty')}</p>
      ) : (
        <div className="table-wrap">
          <table className="data-table row-cards">
            <caption>{t('money.payments.count', { count: payments.length })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('money.payments.date')}</th>
                <th scope="col">{t('money.payments.teacher')}</th>
                <th scope="col">{t('money.payments.package')}</th>
                <th scope="col" className="num">
                  {t('money.payments.total')}
                </th>
                <th scope="col">{t('money.payments.state')}</th>
                <th scope="col">{t('money.payments.documents')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('money.payments.open')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {payments.map((p) => (
                <tr key={p.id}>
                  <th scope="row" className="nowrap">
                    <time dateTime={p.createdAt}>{formatDateTime(lang, p.createdAt)}</time>
                  </th>
                  <td data-label={t('money.payments.teacher')}>
                    {p.teacherEmail ? (
                      <bdi dir="ltr">{p.teacherEmail}</bdi>
                    ) : (
                      <span className="muted">{t('money.payments.deletedAccount')}</span>
                    )}
                  </td>
                  <td data-label={t('money.payments.package')}>{p.packageName}</td>
                  <td data-label={t('money.payments.total')} className="num">
                    {formatMoney(lang, p.total)}
                  </td>
                  <td data-label={t('money.payments.state')}>
                    <span className={`status-badge payment-${p.status}`}>{t(`money.status.${p.status}`)}</span>
                  </td>
                  <td data-label={t('money.payments.documents')}>
                    {[p.invoiceSerial, p.creditNoteSerial].filter(Boolean).map((serial) => (
                      <bdi key={serial} dir="ltr" className="admin-serial">
                        {serial}
                      </bdi>
                    ))}
                  </td>
                  <td>
                    <AppLink to={`admin/payments/${p.id}`} aria-label={`${t('money.payments.open')}: ${formatDateTime(lang, p.createdAt)}`}>
                      {t('money.payments.open')}
                    </AppLink>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  )
}
