import { data } from 'react-router'
import { requireUser } from '#app/features/accounts/index.server.ts'
import { findInvoiceCreditNote, findUserInvoice, invoiceToJson, qrSvgDataUrl } from '#app/features/billing/index.server.ts'
import { intlLocale } from '#app/i18n/config.ts'
import { formatDate, formatMoney } from '#app/i18n/format.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { localPath } from '#app/ui/app-link.tsx'
import { PageHero } from '#app/ui/page-hero.tsx'
import { Ltr } from '#app/ui/sentence.tsx'
import type { Route } from './+types/invoice'

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireUser(request, context, lang)
  const invoice = await findUserInvoice({ db: context.db, userId: user.id, invoiceId: params.invoiceId })
  if (!invoice) throw data(null, { status: 404 })
  const creditNote = await findInvoiceCreditNote({ db: context.db, invoiceId: invoice.id })
  return {
    creditNote: creditNote
      ? { id: creditNote.id, serial: creditNote.serial, total: creditNote.total, issuedAt: creditNote.issuedAt.toISOString() }
      : null,
    messages: getMessages(lang, ['billing', 'packages']),
    // The same shape as GET /api/v1/invoices/{id}.
    invoice: invoiceToJson(invoice, lang),
    qr: qrSvgDataUrl(invoice.qr),
  }
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'billing.meta.invoice', 'invoices')

export default function Invoice({ loaderData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  const { invoice, creditNote } = loaderData
  const issued = formatDate(lang, invoice.issued_at)
  const time = new Intl.DateTimeFormat(intlLocale[lang], { hour: '2-digit', minute: '2-digit', timeZone: 'Asia/Riyadh' }).format(
    new Date(invoice.issued_at),
  )
  const rows: Array<[string, React.ReactNode]> = [
    [t('billing.invoice.serial'), <Ltr key="serial">{invoice.serial}</Ltr>],
    [t('billing.invoice.issuedAt'), `${issued.gregorian} · ${issued.hijri} · ${time}`],
    [t('billing.invoice.seller'), invoice.seller.name],
    [t('billing.invoice.sellerAddress'), invoice.seller.address],
    [t('billing.invoice.vatNumber'), invoice.seller.vat_number],
    [t('billing.invoice.customer'), invoice.customer_name],
    [t('billing.invoice.package'), invoice.package_name],
    [t('billing.invoice.duration'), t('packages.duration', { count: invoice.months })],
    [t('billing.invoice.price'), formatMoney(lang, invoice.price)],
    [t('billing.invoice.vatRate'), `${invoice.vat_rate}%`],
    [t('billing.invoice.vat'), formatMoney(lang, invoice.vat)],
    [t('billing.invoice.total'), formatMoney(lang, invoice.total)],
    [t('billing.invoice.method'), t(`billing.checkout.methods.${invoice.payment_method}`)],
  ]
  return (
    <>
      <PageHero title={t('billing.invoice.title')} lead={<Ltr>{invoice.serial}</Ltr>} />
      <section className="section">
        <div className="container narrow">
          <div className="card invoice-card">
            <dl className="price-lines invoice-lines">
              {rows.map(([label, value]) => (
                <div key={label}>
                  <dt>{label}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
            <figure className="invoice-qr">
              <img src={loaderData.qr} width={160} height={160} alt={t('billing.invoice.qr')} />
              <figcaption className="muted">{t('billing.invoice.qr')}</figcaption>
            </figure>
            <a className="button button-primary" href={`${localPath(lang, `invoices/${invoice.id}/pdf`)}`} download>
              {t('billing.invoice.download')}
            </a>
            {creditNote ? (
              <section className="credit-note-notice" aria-labelledby="credit-note-title">
                <h2 id="credit-note-title">
                  {t('billing.creditNote.title')} <Ltr>{creditNote.serial}</Ltr>
                </h2>
                <p>{t('billing.creditNote.reason')}</p>
                <dl className="price-lines">
                  <div>
                    <dt>{t('billing.creditNote.issuedAt')}</dt>
                    <dd>{formatDate(lang, creditNote.issuedAt).gregorian}</dd>
                  </div>
                  <div>
                    <dt>{t('billing.creditNote.total')}</dt>
                    <dd>{formatMoney(lang, creditNote.total)}</dd>
                  </div>
                </dl>
                <a className="button button-ghost" href={localPath(lang, `credit-notes/${creditNote.id}/pdf`)} download>
                  {t('billing.creditNote.download')}
                </a>
              </section>
            ) : null}
          </div>
        </div>
      </section>
    </>
  )
}
