import type { Lang } from './config.ts'
import type { Messages } from './translate.ts'

// Every locale file of every feature: `<somewhere>/locales/<lang>/<namespace>.json`.
const files = import.meta.glob<Record<string, unknown>>('/app/**/locales/*/*.json', {
  eager: true,
  import: 'default',
})

export type Catalogue = Record<Lang, Record<string, Record<string, unknown>>>

export function buildCatalogue(entries: Record<string, Record<string, unknown>>): Catalogue {
  const catalogue: Catalogue = { ar: {}, en: {} }
  for (const [file, content] of Object.entries(entries)) {
    const match = /\/locales\/(ar|en)\/([\w-]+)\.json$/.exec(file)
    if (!match) continue
    const lang = match[1] as Lang
    const ns = match[2] as string
    if (catalogue[lang][ns]) throw new Error(`Locale namespace "${ns}" is defined twice (${file})`)
    catalogue[lang][ns] = content
  }
  return catalogue
}

export const catalogue = buildCatalogue(files)

/** The namespaces a page needs, in its language, ready to be sent with the loader data. */
export function getMessages(lang: Lang, namespaces: string[]): Messages {
  const out: Messages = {}
  for (const ns of namespaces) {
    const content = catalogue[lang][ns]
    if (!content) throw new Error(`Unknown locale namespace "${ns}"`)
    out[ns] = content
  }
  return out
}
