import { Outlet } from 'react-router'
import { AccountMenu } from '#app/features/accounts/index.ts'
import { useT } from '#app/i18n/use-t.ts'
import { SiteFooter } from '#app/ui/site-footer.tsx'
import { SiteHeader } from '#app/ui/site-header.tsx'

export default function DefaultLayout() {
  const { t } = useT()
  return (
    <>
      <a className="skip-link" href="#main">
        {t('common.skipToContent')}
      </a>
      <SiteHeader account={<AccountMenu />} />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <SiteFooter />
    </>
  )
}
