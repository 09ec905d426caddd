import { formatMoney } from '#app/i18n/format.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { CheckIcon } from '#app/ui/icons.tsx'
import type { PackageView } from './list-packages.server.ts'

/** A package with its price excluding VAT, the VAT and the total on separate lines. */
export function PackageCard({ pkg, action }: { pkg: PackageView; action?: React.ReactNode }) {
  const { t } = useT()
  const lang = useLang()
  const headingId = `package-${pkg.id}`
  return (
    <article className={`package-card${pkg.isBestSeller ? ' is-best-seller' : ''}`} aria-labelledby={headingId}>
      {pkg.isBestSeller ? <p className="badge">{t('packages.bestSeller')}</p> : null}
      <h3 id={headingId}>{pkg.name}</h3>
      <p className="package-duration">{t('packages.duration', { count: pkg.months })}</p>
      <p className="package-total">{formatMoney(lang, pkg.total)}</p>
      <dl className="price-lines">
        <div>
          <dt>{t('packages.price')}</dt>
          <dd>{formatMoney(lang, pkg.price)}</dd>
        </div>
        <div>
          <dt>{t('packages.vat', { rate: pkg.vatRate })}</dt>
          <dd>{formatMoney(lang, pkg.vat)}</dd>
        </div>
        <div className="price-total">
          <dt>{t('packages.total')}</dt>
          <dd>{formatMoney(lang, pkg.total)}</dd>
        </div>
      </dl>
      {pkg.description ? (
        <p className="package-description">
          <CheckIcon className="icon icon-inline" /> {pkg.description}
        </p>
      ) : null}
      {action}
    </article>
  )
}

export function PackageGrid({ packages, action }: { packages: PackageView[]; action?: (pkg: PackageView) => React.ReactNode }) {
  const { t } = useT()
  if (packages.length === 0) return <p className="empty-state">{t('packages.empty')}</p>
  return (
    <div className="package-grid">
      {packages.map((pkg) => (
        <PackageCard key={pkg.id} pkg={pkg} action={action?.(pkg)} />
      ))}
    </div>
  )
}
