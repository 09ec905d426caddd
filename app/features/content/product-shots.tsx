import { useLang, useT } from '#app/i18n/use-t.ts'
import sizes from './product-shots.json'

type Shot = keyof typeof sizes

function Picture({ name, alt, className }: { name: Shot; alt: string; className?: string }) {
  const { width, height } = sizes[name]
  // Below the first screen: fetched when the reader comes near (a hidden one, never).
  return <img className={className} src={`/product/${name}.webp`} alt={alt} width={width} height={height} loading="lazy" decoding="async" />
}

/**
 * The product as a teacher will see it, on the guest home page: an absence report (in the
 * reader's colour mode) and the first page of a printed test, both in the page's language,
 * photographed from the real app by scripts/product-shots.ts.
 */
export function ProductShots() {
  const { t } = useT()
  const lang = useLang()
  return (
    <div className="product-shots">
      <figure className="product-shot product-shot-report" data-reveal>
        <div className="product-frame">
          <Picture name={`report-${lang}-light`} alt={t('home.product.report.alt')} className="shot-light" />
          {/* The same report in the dark mode; the stylesheet shows the one of the page's mode. */}
          <Picture name={`report-${lang}-dark`} alt={t('home.product.report.alt')} className="shot-dark" />
        </div>
        <figcaption>
          <strong>{t('home.product.report.title')}</strong> {t('home.product.report.caption')}
        </figcaption>
      </figure>
      <figure className="product-shot product-shot-test" data-reveal>
        <div className="product-frame product-paper">
          <Picture name={`test-${lang}`} alt={t('home.product.test.alt')} />
        </div>
        <figcaption>
          <strong>{t('home.product.test.title')}</strong> {t('home.product.test.caption')}
        </figcaption>
      </figure>
    </div>
  )
}
