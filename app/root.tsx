import type { ReactNode } from 'react'
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useRouteError,
  useRouteLoaderData,
} from 'react-router'
import { dirOf, isLang, type Lang } from '#app/i18n/config.ts'
import { detectLang } from '#app/i18n/detect.server.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useT } from '#app/i18n/use-t.ts'
import { useAppUpdates } from '#app/lib/pwa/use-app-updates.ts'
import { NonceProvider, useNonce } from '#app/ui/nonce.tsx'
import { ProgressBar } from '#app/ui/progress-bar.tsx'
import { Brand } from '#app/ui/site-header.tsx'
import { LangSwitch } from '#app/ui/lang-switch.tsx'
import { themeBootScript } from '#app/ui/theme-toggle.tsx'
import { ToastProvider } from '#app/ui/toaster.tsx'
import type { Route } from './+types/root'
import appStylesHref from './styles/app.css?url'

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: appStylesHref },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
  { rel: 'icon', href: '/favicon.ico', sizes: '32x32' },
  { rel: 'apple-touch-icon', href: '/icons/apple-touch-icon.png' },
  { rel: 'manifest', href: '/manifest.webmanifest' },
]

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang: Lang = isLang(params.lang) ? params.lang : detectLang(request)
  const messages = getMessages(lang, ['common'])
  const { env } = context
  return {
    lang,
    messages,
    appUrl: env.APP_URL,
    siteName: lang === 'ar' ? 'حلّل' : 'Hallil',
    buildVersion: context.buildVersion,
    // The server's year, so the footer renders the same on both sides.
    year: new Date().getFullYear(),
    support: {
      email: env.SUPPORT_EMAIL,
      phone: env.SUPPORT_PHONE,
      whatsapp: env.SUPPORT_WHATSAPP,
      sellerName: lang === 'ar' ? env.SELLER_NAME_AR : env.SELLER_NAME_EN,
      vatNumber: env.SELLER_VAT_NUMBER,
    },
  }
}

export type RootData = Awaited<ReturnType<typeof loader>>

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData('root') as RootData | undefined
  const location = useLocation()
  const pathLang = location.pathname.split('/')[1]
  const lang: Lang = data?.lang ?? (isLang(pathLang) ? pathLang : 'ar')
  const nonce = useNonce()
  return (
    <html lang={lang} dir={dirOf(lang)} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0f5d52" />
        <meta name="color-scheme" content="light dark" />
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeBootScript }} />
        <Meta />
        <Links />
      </head>
      <body>
        <NonceProvider value={nonce}>{children}</NonceProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

export default function App({ loaderData }: Route.ComponentProps) {
  useAppUpdates(loaderData.buildVersion, import.meta.env.PROD)
  return (
    <ToastProvider initial={[]}>
      <ProgressBar />
      <Outlet />
    </ToastProvider>
  )
}

const PATH_SLOT = '\u0000'

/** The message with the path isolated left to right, so `/ar/x` reads as typed inside Arabic text. */
function NotFoundMessage({ template, path }: { template: string; path: string }) {
  const [before = '', after = ''] = template.split(PATH_SLOT)
  return (
    <>
      {before}
      <bdi dir="ltr">{path}</bdi>
      {after}
    </>
  )
}

export function ErrorBoundary() {
  const error = useRouteError()
  const { t } = useT()
  const location = useLocation()
  const isNotFound = isRouteErrorResponse(error) && error.status === 404
  const status = isRouteErrorResponse(error) ? error.status : 500
  const known = t(`common.errors.statusText.${status}`)
  const statusText = known.startsWith('common.') ? (isRouteErrorResponse(error) ? error.statusText : '') : known
  const title = isNotFound ? t('common.errors.notFoundTitle') : t('common.errors.title')
  return (
    <div className="error-layout">
      <title>{`${title} | ${t('common.siteName')}`}</title>
      <header className="error-header container">
        <Brand />
        <LangSwitch />
      </header>
      <main id="main" className="error-main container">
        <p className="error-code" aria-hidden="true">{status}</p>
        {isNotFound ? (
          <>
            <h1>{t('common.errors.notFoundTitle')}</h1>
            <p className="error-message">
              <NotFoundMessage template={t('common.errors.notFound', { path: PATH_SLOT })} path={location.pathname} />
            </p>
            <p>{t('common.errors.notFoundHint')}</p>
          </>
        ) : (
          <>
            <h1>{t('common.errors.title')}</h1>
            <p className="error-message">
              {t('common.errors.status', { code: String(status) })}
              {statusText ? ` · ${statusText}` : ''}
            </p>
          </>
        )}
        <a className="button button-primary" href="/">
          {isNotFound ? t('common.errors.backHome') : t('common.errors.back')}
        </a>
      </main>
    </div>
  )
}
