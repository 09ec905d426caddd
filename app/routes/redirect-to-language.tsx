import { redirect } from 'react-router'
import { detectLang } from '#app/i18n/detect.server.ts'
import type { Route } from './+types/redirect-to-language'

export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url)
  return redirect(`/${detectLang(request)}${url.search}`, { headers: { Vary: 'Cookie, Accept-Language' } })
}
