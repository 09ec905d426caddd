import { formatMoney } from '#app/i18n/format.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { CheckIcon } from '#app/ui/icons.tsx'
import type { PackageView } from './list-packages.server.ts'

/**
 * The level of a package's name in the page's outline: 2 where the cards are the page's own
 * content under its h1 (packages, checkout), 3 where they sit in a section with its own h2 (home).
 */
export type PackageHeadingLevel = 2 | 3

/** A package with its price excluding VAT, the VAT and the total on separate lines. */
export function PackageCard({
  pkg,
  action,
  headingLevel,
}: {
  pkg: PackageView
  action?: React.ReactNode
  headingLevel: PackageHeadingLevel
}) {
  const { t } = useT()
  const lang = useLang()
  const headingId = `package-${pkg.id}`
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  return (
    <article className={`package-card${pkg.isBestSeller ? ' is-best-seller' : ''}`} aria-labelledby={headingId}>
      {pkg.isBestSeller ? <p className="badge">{t('packages.bestSeller')}</p> : null}
      <Heading id={headingId} className="package-name">
        {pkg.name}
      </Heading>
      <p className="package-duration">{t('packages.duration', { count: pkg.months })}</p>
      {/* The price drawn large, not a paragraph: as a <p> it reads as an unmarked heading (axe p-as-heading). */}
      <div className="package-total">{formatMoney(lang, pkg.total)}</div>
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

export function PackageGrid({
  packages,
  action,
  headingLevel,
}: {
  packages: PackageView[]
  action?: (pkg: PackageView) => React.ReactNode
  headingLevel: PackageHeadingLevel
}) {
  const { t } = useT()
  if (packages.length === 0) return <p className="empty-state">{t('packages.empty')}</p>
  return (
    <div className="package-grid">
      {packages.map((pkg) => (
        <PackageCard key={pkg.id} pkg={pkg} action={action?.(pkg)} headingLevel={headingLevel} />
      ))}
    </div>
  )
}
