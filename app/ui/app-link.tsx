import type { ComponentProps } from 'react'
import { Link, NavLink } from 'react-router'
import { useLang } from '#app/i18n/use-t.ts'

/** A path of this site in the current language: `localPath('ar', 'packages')` → `/ar/packages`. */
export function localPath(lang: string, path = ''): string {
  const clean = path.replace(/^\/+/, '')
  return clean ? `/${lang}/${clean}` : `/${lang}`
}

type Props = Omit<ComponentProps<typeof Link>, 'to'> & { to: string }

/** An internal link in the page's language; its route code is fetched once it scrolls into view. */
export function AppLink({ to, ...props }: Props) {
  const lang = useLang()
  return <Link prefetch="viewport" to={localPath(lang, to)} {...props} />
}

type NavProps = Omit<ComponentProps<typeof NavLink>, 'to'> & { to: string }

export function AppNavLink({ to, ...props }: NavProps) {
  const lang = useLang()
  return <NavLink prefetch="viewport" end to={localPath(lang, to)} {...props} />
}
