import { useRef, type ReactNode } from 'react'
import { useRouteLoaderData } from 'react-router'
import { useT } from '#app/i18n/use-t.ts'
import { AppLink, AppNavLink } from './app-link.tsx'
import { LogoMark, MenuIcon } from './icons.tsx'
import { LangSwitch } from './lang-switch.tsx'
import { ThemeToggle } from './theme-toggle.tsx'

type NavItem = { to: string; key: string }

const guestNav: readonly NavItem[] = [
  { to: '', key: 'home' },
  { to: 'packages', key: 'packages' },
  { to: 'about-us', key: 'about' },
  { to: 'common-questions', key: 'faq' },
  { to: 'contact-us', key: 'contact' },
]

// A signed-in teacher comes to work: the tools take the places of the pages about Hallil, which
// stay in the footer and in the phone menu.
const toolsNav: readonly NavItem[] = [
  { to: '', key: 'home' },
  { to: 'analysis', key: 'absence' },
  { to: 'follow-up', key: 'followUp' },
  { to: 'analysis-grade', key: 'grades' },
  { to: 'exams', key: 'exams' },
  { to: 'packages', key: 'packages' },
]
const phoneExtras: readonly NavItem[] = guestNav.filter((item) => !toolsNav.some((tool) => tool.key === item.key))

export function Brand() {
  const { t } = useT()
  return (
    <AppLink to="" className="brand">
      <LogoMark className="brand-mark" />
      <span className="brand-name">{t('common.siteName')}</span>
    </AppLink>
  )
}

export function SiteHeader({ account }: { account?: ReactNode }) {
  const { t } = useT()
  const menu = useRef<HTMLDetailsElement>(null)
  // Client-side navigation keeps the page: close the phone menu once a link is chosen.
  const closeMenuOnLink = (event: React.MouseEvent) => {
    if (menu.current && (event.target as HTMLElement).closest('a')) menu.current.open = false
  }
  const isSignedIn = Boolean((useRouteLoaderData('root') as { user?: unknown } | undefined)?.user)
  const listOf = (items: readonly NavItem[], className?: string) =>
    items.map((item, i) => (
      <li key={item.key} className={i === 0 ? className : undefined}>
        <AppNavLink to={item.to}>{t(`common.nav.${item.key}`)}</AppNavLink>
      </li>
    ))
  const links = listOf(isSignedIn ? toolsNav : guestNav)
  const phoneLinks = isSignedIn ? [...links, ...listOf(phoneExtras, 'menu-group-start')] : links
  return (
    <header className={`site-header${isSignedIn ? ' is-signed-in' : ''}`}>
      <div className="container header-inner">
        <Brand />
        <nav className="main-nav" aria-label={t('common.nav.label')}>
          <ul>{links}</ul>
        </nav>
        <div className="header-actions">
          <LangSwitch />
          <ThemeToggle />
          {account}
          {/* A disclosure works without JavaScript on small screens. */}
          <details className="mobile-nav" ref={menu}>
            <summary className="icon-button" aria-label={t('common.nav.menu')}>
              <MenuIcon className="icon" />
            </summary>
            {/* oxlint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- the links inside are the interactive elements; this only listens for their activation */}
            <nav aria-label={t('common.nav.label')} onClick={closeMenuOnLink}>
              <ul>{phoneLinks}</ul>
            </nav>
          </details>
        </div>
      </div>
    </header>
  )
}
