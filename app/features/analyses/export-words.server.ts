import { hijriLocale, intlLocale, type Lang } from '#app/i18n/config.ts'
import { formatNumber, formatPercent } from '#app/i18n/format.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { createTranslator, lookup, type Messages, type Translate } from '#app/i18n/translate.ts'
import type { MessageRef } from './analysis-error.ts'
import { percent } from './rounding.ts'

// The words and number formats both exports of every analysis (workbook and PDF) print with:
// a translator that fails on a missing key, skip reasons with the cell that caused them, the
// day of the analysis in both calendars, and figures in the page's digits.

const timeZone = 'Asia/Riyadh'

/** The translator of an export: every key must exist, so a missing word fails loudly instead of printing its key. */
export interface ExportWords {
  readonly lang: Lang
  readonly t: Translate
  /** A skipped row's reason, with the value the short reason leaves out (the cell's text, the first row of a duplicate, the max). */
  readonly skipReason: (reason: MessageRef) => string
  /** The day an analysis was made, Gregorian and Umm al-Qura, in Riyadh. */
  readonly analysedOn: (createdAt: Date) => { gregorian: string; hijri: string }
  readonly integer: (value: number) => string
  /** A number with at most `digits` decimals (scores as written: 40.5, 100). */
  readonly number: (value: number, digits?: number) => string
  /** A number with exactly `digits` decimals (averages on paper: 71.2); `–` for none. */
  readonly fixed: (value: number | null, digits?: number) => string
  /** part/whole as a percentage with one decimal, rounded half away from zero from the exact counts; `–` for an empty whole. */
  readonly rate: (part: number, whole: number) => string
  /** A percentage the analysis already rounded (93.33) with one decimal; `–` for none. */
  readonly percentage: (value: number | null) => string
}

const cache = new Map<string, ExportWords>()

/** The words of an export from its namespaces (`analyses` is always added, for the shared words). */
export function createExportWords(lang: Lang, namespaces: readonly string[]): ExportWords {
  const all = [...new Set([...namespaces, 'analyses'])]
  const cacheKey = `${lang}:${all.join(',')}`
  const cached = cache.get(cacheKey)
  if (cached) return cached

  const messages: Messages = getMessages(lang, all)
  const translator = createTranslator(lang, messages)
  const t: Translate = (key, vars) => {
    const value = lookup(messages, key)
    if (typeof value !== 'string' && (typeof value !== 'object' || value === null)) throw new Error(`Missing ${lang} message ${key}`)
    return translator.t(key, vars)
  }
  const dayOptions = { day: 'numeric', month: 'long', year: 'numeric' } as const
  const gregorian = new Intl.DateTimeFormat(intlLocale[lang], { ...dayOptions, timeZone })
  const hijri = new Intl.DateTimeFormat(hijriLocale[lang], { ...dayOptions, timeZone })

  const skipReason = (reason: MessageRef): string => {
    // Reasons come from the analysis, not from this code: an unknown key prints as itself.
    const template = lookup(messages, reason.key)
    let text = translator.t(reason.key, reason.values)
    // The short reasons leave out what the analysis knows: add it, so the reader can find the cell.
    for (const [name, value] of Object.entries(reason.values ?? {})) {
      if (typeof template === 'string' && template.includes(`{${name}}`)) continue
      const shown = typeof value === 'number' ? formatNumber(lang, value, { maximumFractionDigits: 6 }) : String(value)
      if (name === 'firstRow') text = t('analyses.exports.reasonFirstRow', { reason: text, firstRow: String(value) })
      else if (name === 'max') text = t('analyses.exports.reasonMax', { reason: text, max: shown })
      else if (String(value).trim() !== '') text = t('analyses.exports.reasonValue', { reason: text, value: shown })
    }
    return text
  }

  const words: ExportWords = {
    lang,
    t,
    skipReason,
    analysedOn: (createdAt) => ({ gregorian: gregorian.format(createdAt), hijri: hijri.format(createdAt) }),
    integer: (value) => formatNumber(lang, value),
    number: (value, digits = 2) => formatNumber(lang, value, { maximumFractionDigits: digits }),
    fixed: (value, digits = 1) =>
      value === null ? '–' : formatNumber(lang, value, { minimumFractionDigits: digits, maximumFractionDigits: digits }),
    rate: (part, whole) => (whole > 0 ? formatPercent(lang, percent(part, whole, 1) / 100, 1) : '–'),
    percentage: (value) => (value === null ? '–' : formatPercent(lang, value / 100, 1)),
  }
  cache.set(cacheKey, words)
  return words
}
