import type { MetaDescriptor } from 'react-router'
import { languages, type Lang } from '#app/i18n/config.ts'
import { lookup, type Messages } from '#app/i18n/translate.ts'

export type RootMeta = { appUrl: string; lang: Lang; siteName: string }

/** Title, description, canonical and hreflang links of a page under `/:lang`. */
export function pageMeta(root: RootMeta | undefined, page: { title: string; description: string; path: string }): MetaDescriptor[] {
  if (!root) return [{ title: page.title }]
  const suffix = page.path ? `/${page.path}` : ''
  const url = (lang: Lang) => `${root.appUrl}/${lang}${suffix}`
  const title = page.path ? `${page.title} | ${root.siteName}` : `${root.siteName} | ${page.title}`
  return [
    { title },
    { name: 'description', content: page.description },
    { tagName: 'link', rel: 'canonical', href: url(root.lang) },
    ...languages.map((lang) => ({ tagName: 'link', rel: 'alternate', hrefLang: lang, href: url(lang) })),
    { tagName: 'link', rel: 'alternate', hrefLang: 'x-default', href: `${root.appUrl}/ar${suffix}` },
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: root.siteName },
    { property: 'og:title', content: title },
    { property: 'og:description', content: page.description },
    { property: 'og:url', content: url(root.lang) },
    { property: 'og:locale', content: root.lang === 'ar' ? 'ar_SA' : 'en_GB' },
  ]
}

type MetaArgsLike = {
  loaderData: unknown
  matches: ReadonlyArray<{ id: string; loaderData: unknown } | undefined>
}

type TitleAndDescription = { title: string; description: string }

/**
 * The meta tags of a page from its messages: `ns` names a namespace with a `meta` block
 * (`about`), or the dotted path of a `{title, description}` block (`accounts.meta.login`).
 * `noindex` is for pages a guest can reach that search should not list (login, registration,
 * password reset, code verification, the sandbox gateway). Pages behind sign-in pass none: a
 * crawler is redirected to login before it could read one (docs/decisions/009).
 */
export function metaFromMessages(args: MetaArgsLike, ns: string, path: string, options: { noindex?: boolean } = {}): MetaDescriptor[] {
  const root = args.matches.find((m) => m?.id === 'root')?.loaderData as RootMeta | undefined
  const messages = ((args.loaderData as { messages?: Messages } | undefined)?.messages ?? {}) as Messages
  const meta = (ns.includes('.') ? lookup(messages, ns) : lookup(messages, `${ns}.meta`)) as TitleAndDescription | undefined
  if (!meta?.title) return [{ title: root?.siteName ?? 'Hallil' }]
  const tags = pageMeta(root, { title: meta.title, description: meta.description, path })
  return options.noindex ? [...tags, { name: 'robots', content: 'noindex' }] : tags
}
