import type { Lang } from './config.ts'
import type { Messages } from './translate.ts'

import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

// Every locale file of every feature: `<somewhere>/locales/<lang>/<namespace>.json`. Bundled by
// Vite for the server; read from disk where there is no bundler (the operator's CLI under tsx).
const files: Record<string, Record<string, unknown>> =
  // import.meta.env exists wherever Vite has transformed this file (the build, development, Vitest).
  import.meta.env
    ? import.meta.glob<Record<string, unknown>>('/app/**/locales/*/*.json', { eager: true, import: 'default' })
    : readLocaleFiles(path.resolve(process.cwd(), 'app'))

function readLocaleFiles(dir: string): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {}
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry)
    if (statSync(full).isDirectory()) Object.assign(out, readLocaleFiles(full))
    else if (/\/locales\/(ar|en)\/[\w-]+\.json$/.test(full.split(path.sep).join('/')))
      out[full.split(path.sep).join('/')] = JSON.parse(readFileSync(full, 'utf8')) as Record<string, unknown>
  }
  return out
}

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

/**
 * The messages a page needs, in its language, ready to be sent with the loader data: whole
 * namespaces (`'home'`) or one part of a namespace (`'accounts.rates'`), so a page that shows a
 * few texts of a large namespace does not carry all of it.
 */
export function getMessages(lang: Lang, namespaces: string[]): Messages {
  const out: Messages = {}
  const whole = new Set<string>()
  for (const entry of namespaces) {
    const [ns, ...keys] = entry.split('.') as [string, ...string[]]
    const content = catalogue[lang][ns]
    if (!content) throw new Error(`Unknown locale namespace "${ns}"`)
    if (keys.length === 0) {
      out[ns] = content
      whole.add(ns)
      continue
    }
    if (whole.has(ns)) continue
    let source: unknown = content
    for (const key of keys) source = (source as Record<string, unknown> | undefined)?.[key]
    if (source === undefined) throw new Error(`Unknown locale messages "${entry}"`)
    // Copy the branch into the page's own tree, leaving the catalogue untouched.
    let target = (out[ns] ??= {}) as Record<string, unknown>
    for (const key of keys.slice(0, -1)) target = (target[key] ??= {}) as Record<string, unknown>
    target[keys.at(-1)!] = source
  }
  return out
}

/** Whether `key` is a known namespace or starts with one (zod's own English messages do not). */
export function isLocaleKey(key: string): boolean {
  return Object.hasOwn(catalogue.ar, key.split('.')[0] ?? '')
}
