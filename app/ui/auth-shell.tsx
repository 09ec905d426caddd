import type { ReactNode } from 'react'
import { useT } from '#app/i18n/use-t.ts'
import { LangSwitch } from './lang-switch.tsx'
import { Brand } from './site-header.tsx'
import { ThemeToggle } from './theme-toggle.tsx'

/** The account steps: a slim top bar and a centred card (the "custom" layout). */
export function AuthShell({ children, wide }: { children: ReactNode; wide?: boolean }) {
  const { t } = useT()
  return (
    <div className="auth-shell">
      <a className="skip-link" href="#main">
        {t('common.skipToContent')}
      </a>
      <header className="auth-bar container">
        <Brand />
        <div className="header-actions">
          <LangSwitch />
          <ThemeToggle />
        </div>
      </header>
      <main id="main" tabIndex={-1} className="auth-main">
        <div className={`auth-card${wide ? ' auth-card-wide' : ''}`}>{children}</div>
      </main>
    </div>
  )
}
