import { useRouteLoaderData } from 'react-router'
import { useT } from '#app/i18n/use-t.ts'
import { AppLink } from './app-link.tsx'
import { Brand } from './site-header.tsx'

export type SupportContacts = { email: string; phone: string; whatsapp: string; sellerName: string; vatNumber: string }

export function SiteFooter() {
  const { t } = useT()
  const root = useRouteLoaderData('root') as { support?: SupportContacts; year?: number } | undefined
  const support = root?.support
  const year = root?.year ?? 2026
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <div className="footer-about">
          <Brand />
          <p>{t('common.footer.about')}</p>
        </div>
        <nav aria-label={t('common.footer.links')}>
          <h2>{t('common.footer.links')}</h2>
          <ul>
            <li>
              <AppLink to="packages">{t('common.nav.packages')}</AppLink>
            </li>
            <li>
              <AppLink to="about-us">{t('common.nav.about')}</AppLink>
            </li>
            <li>
              <AppLink to="common-questions">{t('common.nav.faq')}</AppLink>
            </li>
            <li>
              <AppLink to="contact-us">{t('common.nav.contact')}</AppLink>
            </li>
          </ul>
        </nav>
        {support ? (
          <div>
            <h2>{t('common.footer.support')}</h2>
            <SupportList support={support} />
          </div>
        ) : null}
        <nav aria-label={t('common.footer.legal')}>
          <h2>{t('common.footer.legal')}</h2>
          <ul>
            <li>
              <AppLink to="privacy-policy">{t('common.footer.privacy')}</AppLink>
            </li>
            <li>
              <AppLink to="terms">{t('common.footer.terms')}</AppLink>
            </li>
          </ul>
        </nav>
      </div>
      <div className="container footer-bottom">
        <p>{t('common.footer.rights', { year: String(year) })}</p>
        {support ? <p>{t('common.footer.seller', { name: support.sellerName, vat: support.vatNumber })}</p> : null}
      </div>
    </footer>
  )
}

/** Email, phone and WhatsApp of the support team (numbers always left to right). */
export function SupportList({ support }: { support: SupportContacts }) {
  const { t } = useT()
  const whatsappDigits = support.whatsapp.replace(/\D/g, '')
  return (
    <dl className="support-list">
      <div>
        <dt>{t('common.footer.email')}</dt>
        <dd>
          <a href={`mailto:${support.email}`} dir="ltr">
            {support.email}
          </a>
        </dd>
      </div>
      <div>
        <dt>{t('common.footer.phone')}</dt>
        <dd>
          <a href={`tel:${support.phone.replace(/\s/g, '')}`} dir="ltr">
            {support.phone}
          </a>
        </dd>
      </div>
      <div>
        <dt>{t('common.footer.whatsapp')}</dt>
        <dd>
          <a href={`https://wa.me/${whatsappDigits}`} dir="ltr" rel="noopener noreferrer" target="_blank">
            {support.whatsapp}
          </a>
        </dd>
      </div>
    </dl>
  )
}
