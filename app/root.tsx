import type { ReactNode } from 'react'
import { randomUUID } from 'node:crypto'
import { useEffect } from 'react'
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from 'react-router'
import { dirOf, isLang, type Lang } from '#app/i18n/config.ts'
import { detectLang } from '#app/i18n/detect.server.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { createTranslator } from '#app/i18n/translate.ts'
import { avatarUrl, displayName } from '#app/features/accounts/index.ts'
import { clearFlashCookie, getCurrentSession, isPrefetch, readFlash, unreadNotificationCount } from '#app/features/accounts/index.server.ts'
import { useT } from '#app/i18n/use-t.ts'
import { isStaticForGuests } from '#app/document/static-pages.ts'
import { useAppUpdates } from '#app/lib/pwa/use-app-updates.ts'
import { InlineStylesheet } from '#app/document/inline-stylesheet.tsx'
import { NonceProvider, useNonce } from '#app/ui/nonce.tsx'
import { ProgressBar } from '#app/ui/progress-bar.tsx'
import { Brand } from '#app/ui/site-header.tsx'
import { LangSwitch } from '#app/ui/lang-switch.tsx'
import { themeBootScript } from '#app/ui/theme.ts'
import { SLOT, WithSlot } from '#app/ui/with-slot.tsx'
import { ToastProvider, useToast, type ToastItem } from '#app/ui/toaster.tsx'
import type { Route } from './+types/root'
import appStylesHref from './styles/app.css?url'
// Built as its own small module (no React): the script of the pages a guest gets without React.
// oxlint-disable-next-line import/default -- Vite's `?worker&url` gives the built module's URL as the default export
import enhanceScriptUrl from './document/enhance.client.ts?worker&url'
import { HYDRATED } from './document/markers.ts'

export const links: Route.LinksFunction = () => [
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
  { rel: 'icon', href: '/favicon.ico', sizes: '32x32' },
  { rel: 'apple-touch-icon', href: '/icons/apple-touch-icon.png' },
  { rel: 'manifest', href: '/manifest.webmanifest' },
]

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang: Lang = isLang(params.lang) ? params.lang : detectLang(request)
  // The header's account menu needs only the small `session` namespace; account pages send `accounts`.
  const messages = getMessages(lang, ['common', 'session'])
  const { env } = context
  const current = await getCurrentSession(request, context)
  const user = current
    ? {
        username: current.user.username,
        /** Her full name in the page's language where she gave one: what greetings call her. */
        name: displayName(current.user, lang),
        avatarUrl: avatarUrl(current.user.avatarFile),
        unread: await unreadNotificationCount({ db: context.db, userId: current.user.id }),
        /** An operator's menu links to the operator area (docs/operators.md); nobody else's does. */
        isOperator: current.user.role === 'operator',
      }
    : null
  // A message left by the previous action's redirect (a translation key), shown once as a toast.
  // A prefetch (React Router fetches the data of linked pages ahead) must not take it: the page
  // the teacher actually lands on shows it.
  const flashed = isPrefetch(request) ? null : readFlash(request)
  const flash: ToastItem | null = flashed
    ? {
        id: randomUUID(),
        kind: flashed.kind,
        message: createTranslator(lang, getMessages(lang, [flashed.key.split('.')[0] ?? 'common'])).t(flashed.key),
      }
    : null
  return data(
    {
      lang,
      messages,
      user,
      flash,
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
    },
    flashed ? { headers: { 'Set-Cookie': clearFlashCookie } } : undefined,
  )
}

// Cookies set by a loader (the cleared flash, a new session) reach document requests only through headers.
export const headers: Route.HeadersFunction = ({ loaderHeaders, actionHeaders }) => {
  const out = new Headers()
  for (const source of [actionHeaders, loaderHeaders]) for (const cookie of source.getSetCookie()) out.append('Set-Cookie', cookie)
  return out
}

export type RootData = Route.ComponentProps['loaderData']

export function Layout({ children }: { children: ReactNode }) {
  const rootData = useRouteLoaderData('root') as RootData | undefined
  const location = useLocation()
  const pathLang = location.pathname.split('/')[1]
  const lang: Lang = rootData?.lang ?? (isLang(pathLang) ? pathLang : 'ar')
  const nonce = useNonce()
  const matches = useMatches()
  const withoutReact = Boolean(rootData) && !rootData?.user && isStaticForGuests(matches)
  return (
    <html lang={lang} dir={dirOf(lang)} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0f5d52" />
        <meta name="color-scheme" content="light dark" />
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeBootScript }} />
        <Meta />
        <InlineStylesheet href={appStylesHref} nonce={nonce} />
        <Links />
      </head>
      <body>
        <NonceProvider value={nonce}>{children}</NonceProvider>
        {withoutReact ? (
          <script type="module" src={enhanceScriptUrl} nonce={nonce} />
        ) : (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  )
}

export default function App({ loaderData }: Route.ComponentProps) {
  useAppUpdates(loaderData.buildVersion, import.meta.env.PROD)
  // React has taken over the page (its modules load after the first paint, decision 013): from
  // now on forms are React's to send (app/document/paint-first.server.ts lets the browser send
  // them before). The counterpart of `data-enhanced` on the pages without React.
  useEffect(() => {
    document.documentElement.dataset[HYDRATED] = 'true'
  }, [])
  return (
    <ToastProvider initial={loaderData.flash ? [loaderData.flash] : []}>
      <FlashToast flash={loaderData.flash} />
      <ProgressBar />
      <Outlet />
    </ToastProvider>
  )
}

/** After a client-side redirect the root loader brings a new flash: show it (once, by id). */
function FlashToast({ flash }: { flash: ToastItem | null }) {
  const toast = useToast()
  useEffect(() => {
    if (flash) toast.push(flash.kind, flash.message, flash.id)
  }, [flash, toast])
  return null
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
        <p className="error-code" aria-hidden="true">
          {status}
        </p>
        {isNotFound ? (
          <>
            <h1>{t('common.errors.notFoundTitle')}</h1>
            <p className="error-message">
              {/* The path stays left to right, so `/ar/x` reads as typed inside Arabic text. */}
              <WithSlot text={t('common.errors.notFound', { path: SLOT })}>
                <bdi dir="ltr">{location.pathname}</bdi>
              </WithSlot>
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
