import { Outlet, redirect } from 'react-router'
import { isLang } from '#app/i18n/config.ts'
import { detectLang } from '#app/i18n/detect.server.ts'
import type { Route } from './+types/lang'

/** The first segment must be a language; `/about-us` becomes `/ar/about-us` (or the reader's language). */
export function loader({ request, params }: Route.LoaderArgs) {
  if (isLang(params.lang)) return null
  const url = new URL(request.url)
  throw redirect(`/${detectLang(request)}${url.pathname}${url.search}`, {
    headers: { Vary: 'Cookie, Accept-Language' },
  })
}

export default function LangLayout() {
  return <Outlet />
}
