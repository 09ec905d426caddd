import { intlLocale, type Lang } from './config.ts'

/** Messages by namespace: `{ common: {...}, home: {...} }`. Keys are `namespace.path.to.leaf`. */
export type Messages = Record<string, unknown>
export type Vars = Record<string, string | number>
export type Translate = (key: string, vars?: Vars) => string

const pluralCategories = new Set(['zero', 'one', 'two', 'few', 'many', 'other'])

function isPluralForms(value: unknown): value is Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false
  const keys = Object.keys(value)
  return keys.includes('other') && keys.every((k) => pluralCategories.has(k))
}

export function lookup(messages: Messages, key: string): unknown {
  let node: unknown = messages
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object') return undefined
    node = (node as Record<string, unknown>)[part]
  }
  return node
}

export type Translator = {
  lang: Lang
  /** A message with `{name}` placeholders; a `count` var picks the plural form. */
  t: Translate
  /** A structured message (an array of sections, a list of questions). */
  tm: <T>(key: string) => T
}

// Intl objects are costly to build and safe to share: one of each per language.
const pluralRules: Partial<Record<Lang, Intl.PluralRules>> = {}
const numberFormats: Partial<Record<Lang, Intl.NumberFormat>> = {}

export function createTranslator(lang: Lang, messages: Messages): Translator {
  // Built when first needed: a number format takes a browser 10–20 ms to build, in the middle of
  // hydrating the page, and many pages format no number.
  const plurals = () => (pluralRules[lang] ??= new Intl.PluralRules(lang))
  const numbers = () => (numberFormats[lang] ??= new Intl.NumberFormat(intlLocale[lang]))
  const t: Translate = (key, vars) => {
    let value = lookup(messages, key)
    if (isPluralForms(value)) {
      const n = Number(vars?.count ?? 0)
      // A written zero form wins in every language: English plural rules call 0 "other", and
      // "No unread notifications" reads better than "0 unread notifications".
      value = (n === 0 ? value.zero : undefined) ?? value[plurals().select(n)] ?? value.other
    }
    if (typeof value !== 'string') return key
    if (!vars) return value
    return value.replace(/\{(\w+)\}/g, (whole, name: string) => {
      const v = vars[name]
      if (v === undefined) return whole
      return typeof v === 'number' ? numbers().format(v) : v
    })
  }
  const tm = <T>(key: string): T => lookup(messages, key) as T
  return { lang, t, tm }
}
