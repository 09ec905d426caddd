import { data } from 'react-router'
import { findPaymentDetail } from '#app/features/billing/index.server.ts'
import { requireOperatorPage } from '#app/features/operators/index.server.ts'
import { formatDate, formatDateTime, formatMoney } from '#app/i18n/format.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink, localPath } from '#app/ui/app-link.tsx'
import type { Route } from './+types/admin-payment'

// One payment: the teacher, the amounts, the subscription it bought, its invoice and credit
// note (both downloadable), and the way to the refund's confirmation (docs/operators.md).

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  await requireOperatorPage(request, context, lang)
  const detail = await findPaymentDetail({ db: context.db, paymentId: params.paymentId })
  if (!detail) throw data(null, { status: 404 })
  const { payment, invoice, creditNote, subscription } = detail
  return {
    messages: getMessages(lang, ['operators', 'money', 'billing.checkout.methods']),
    payment: {
      id: payment.id,
      status: payment.status,
      method: payment.method,
      gateway: payment.gateway,
      gatewayPaymentId: payment.gatewayPaymentId,
      price: payment.price,
      vat: payment.vat,
      total: payment.total,
      createdAt: payment.createdAt.toISOString(),
      settledAt: payment.settledAt?.toISOString() ?? null,
      refundedAt: payment.refundedAt?.toISOString() ?? null,
    },
    teacherEmail: detail.teacher?.email ?? null,
    packageName: lang === 'ar' ? detail.packageNameAr : detail.packageNameEn,
    subscription: subscription ? { startsAt: subscription.startsAt.toISOString(), endsAt: subscription.endsAt.toISOString() } : null,
    invoice: invoice ? { id: invoice.id, serial: invoice.serial } : null,
    creditNote: creditNote ? { id: creditNote.id, serial: creditNote.serial, total: creditNote.total } : null,
  }
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'money.meta.payment', 'admin/payments')

export default function AdminPayment({ loaderData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  const { payment, invoice, creditNote, subscription } = loaderData
  const rows: Array<[string, React.ReactNode]> = [
    [
      t('money.payment.state'),
      <span key="state" className={`status-badge payment-${payment.status}`}>
        {t(`money.status.${payment.status}`)}
      </span>,
    ],
    [
      t('money.payment.teacher'),
      loaderData.teacherEmail ? (
        <bdi key="teacher" dir="ltr">
          {loaderData.teacherEmail}
        </bdi>
      ) : (
        t('money.payments.deletedAccount')
      ),
    ],
    [t('money.payment.package'), loaderData.packageName],
    [t('money.payment.price'), formatMoney(lang, payment.price)],
    [t('money.payment.vat'), formatMoney(lang, payment.vat)],
    [t('money.payment.total'), formatMoney(lang, payment.total)],
    [t('money.payment.method'), t(`billing.checkout.methods.${payment.method}`)],
    [t('money.payment.gateway'), payment.gateway],
    [
      t('money.payment.gatewayId'),
      payment.gatewayPaymentId ? (
        <code key="gateway-id" dir="ltr">
          {payment.gatewayPaymentId}
        </code>
      ) : (
        '—'
      ),
    ],
    [t('money.payment.created'), formatDateTime(lang, payment.createdAt)],
    [t('money.payment.settled'), payment.settledAt ? formatDateTime(lang, payment.settledAt) : '—'],
    [
      t('money.payment.subscription'),
      subscription
        ? t('money.payment.subscriptionDates', {
            starts: formatDate(lang, subscription.startsAt).gregorian,
            ends: formatDate(lang, subscription.endsAt).gregorian,
          })
        : t('money.payment.noSubscription'),
    ],
  ]
  return (
    <>
      <p>
        <AppLink to="admin/payments">{t('money.payment.back')}</AppLink>
      </p>
      <h1>{t('money.payment.title')}</h1>
      <div className="card admin-card">
        <dl className="price-lines invoice-lines">
          {rows.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </div>
      <div className="admin-documents">
        {invoice ? (
          <section className="card admin-card" aria-labelledby="invoice-title">
            <h2 id="invoice-title">
              {t('money.payment.invoice')} <bdi dir="ltr">{invoice.serial}</bdi>
            </h2>
            <a href={localPath(lang, `admin/invoices/${invoice.id}/pdf`)} download>
              {t('money.payment.download')}
            </a>
          </section>
        ) : null}
        {creditNote ? (
          <section className="card admin-card" aria-labelledby="credit-note-title">
            <h2 id="credit-note-title">
              {t('money.payment.creditNote')} <bdi dir="ltr">{creditNote.serial}</bdi>
            </h2>
            <p>{formatMoney(lang, creditNote.total)}</p>
            <a href={localPath(lang, `admin/credit-notes/${creditNote.id}/pdf`)} download>
              {t('money.payment.download')}
            </a>
          </section>
        ) : null}
      </div>
      {payment.status === 'refunded' && payment.refundedAt ? (
        <p className="muted">{t('money.payment.refundedOn', { date: formatDateTime(lang, payment.refundedAt) })}</p>
      ) : payment.status === 'paid' && invoice ? (
        <p>
          <AppLink className="button button-danger" to={`admin/payments/${payment.id}/refund`}>
            {t('money.payment.refund')}
          </AppLink>
        </p>
      ) : (
        <p className="muted">{t('money.payment.cannotRefund')}</p>
      )}
    </>
  )
}
