import { data, isRouteErrorResponse, NavLink, Outlet, useRouteError } from 'react-router'
import { operatorAreaAccess } from '#app/features/operators/index.server.ts'
import { operatorNav, TwoFactorFirst } from '#app/features/operators/index.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { localPath } from '#app/ui/app-link.tsx'
import type { Route } from './+types/admin'

// The operator area's frame (docs/operators.md): its navigation beside the page. The site's 404
// to anyone not an operator; each page's loader checks again (loaders run side by side).

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const access = await operatorAreaAccess(request, context)
  return data({ messages: getMessages(lang, ['operators']), access }, { status: access === 'open' ? 200 : 403 })
}

// The pages name themselves; this is the title of the page asking for two-step verification first.
export const meta: Route.MetaFunction = (args) =>
  metaFromMessages(
    args,
    args.loaderData?.access === 'open'
      ? 'operators.meta.area'
      : args.loaderData?.access === 'sign-in-again'
        ? 'operators.meta.signInAgain'
        : 'operators.meta.gate',
    'admin',
  )

function AdminNav() {
  const { t } = useT()
  const lang = useLang()
  return (
    <nav className="admin-nav" aria-label={t('operators.area.navLabel')}>
      <ul>
        {operatorNav.map((item) => (
          <li key={item.path}>
            <NavLink to={localPath(lang, item.path)} end={item.path === 'admin'} prefetch="intent">
              {t(item.labelKey)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  )
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  if (loaderData.access !== 'open')
    return (
      <div className="container admin-shell">
        <TwoFactorFirst reason={loaderData.access} />
      </div>
    )
  return (
    <div className="container admin-shell">
      <AdminNav />
      <div className="admin-page">
        <Outlet />
      </div>
    </div>
  )
}

/** A page's refusal shows here, in the area's frame: the gate's 403, a record that is not there, an error. */
export function ErrorBoundary() {
  const error = useRouteError()
  const { t } = useT()
  const gate =
    isRouteErrorResponse(error) && error.status === 403 ? (error.data as { operatorGate?: string } | null)?.operatorGate : undefined
  if (gate === 'two-factor-required' || gate === 'sign-in-again')
    return (
      <div className="container admin-shell">
        <TwoFactorFirst reason={gate} />
      </div>
    )
  const isNotFound = isRouteErrorResponse(error) && error.status === 404
  const status = isRouteErrorResponse(error) ? error.status : 500
  return (
    <div className="container admin-shell">
      <AdminNav />
      <div className="admin-page">
        <h1>{isNotFound ? t('common.errors.notFoundTitle') : t('common.errors.title')}</h1>
        <p>{isNotFound ? t('common.errors.notFoundHint') : t('common.errors.status', { code: String(status) })}</p>
      </div>
    </div>
  )
}
