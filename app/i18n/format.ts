import { hijriLocale, intlLocale, type Lang } from './config.ts'

// Formatting happens only at the edge: values stay integers (halalas) and UTC instants inside.

const SAUDI_TIME_ZONE = 'Asia/Riyadh'

// Intl formatters are costly to build and safe to share: kept per language and options.
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>()
function numberFormat(locale: string, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `n|${locale}|${JSON.stringify(options ?? {})}`
  let f = formatters.get(key) as Intl.NumberFormat | undefined
  if (!f) formatters.set(key, (f = new Intl.NumberFormat(locale, options)))
  return f
}
function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `d|${locale}|${JSON.stringify(options)}`
  let f = formatters.get(key) as Intl.DateTimeFormat | undefined
  if (!f) formatters.set(key, (f = new Intl.DateTimeFormat(locale, options)))
  return f
}

export function formatNumber(lang: Lang, value: number, options?: Intl.NumberFormatOptions): string {
  return numberFormat(intlLocale[lang], options).format(value)
}

export function formatPercent(lang: Lang, value: number, fractionDigits = 1): string {
  return numberFormat(intlLocale[lang], {
    style: 'percent',
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  }).format(value)
}

/** `115.00 ر.س` in Arabic and `SAR 115.00` in English. */
export function formatMoney(lang: Lang, halalas: number): string {
  const amount = numberFormat('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    useGrouping: true,
  }).format(halalas / 100)
  // A negative amount (a credit note's) in Arabic: the left-to-right mark makes the minus and the
  // digits one left-to-right run, `-56.35`, where the bidi algorithm would show `56.35-`.
  return lang === 'ar' ? `${halalas < 0 ? '\u200E' : ''}${amount} ر.س` : `SAR ${amount}`
}

export type DualDate = { gregorian: string; hijri: string }

export type DualDateOptions = {
  /**
   * `false` leaves the Hijri era out (`20 ربيع الآخر 1447`, `20 Rabiʻ II 1447`), for a line whose
   * own words write each calendar's era (`12 أكتوبر 2025م — 20 ربيع الآخر 1447هـ`).
   */
  hijriEra?: boolean
}

/** A date as a Saudi reader expects it: Gregorian with the Umm al-Qura Hijri date beside it. */
export function formatDate(lang: Lang, date: Date | string | number, { hijriEra = true }: DualDateOptions = {}): DualDate {
  const value = date instanceof Date ? date : new Date(date)
  const options: Intl.DateTimeFormatOptions = {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: SAUDI_TIME_ZONE,
  }
  const hijri = dateFormat(hijriLocale[lang], options)
  return {
    gregorian: dateFormat(intlLocale[lang], options).format(value),
    hijri: hijriEra
      ? hijri.format(value)
      : hijri
          .formatToParts(value)
          .filter((part) => part.type !== 'era')
          .map((part) => part.value)
          .join('')
          .trim(),
  }
}

/** A moment to the minute, in Saudi time (the operators' audit log): `28 نوفمبر 2026، 3:05 م`. */
export function formatDateTime(lang: Lang, date: Date | string | number): string {
  const value = date instanceof Date ? date : new Date(date)
  return dateFormat(intlLocale[lang], { dateStyle: 'medium', timeStyle: 'short', timeZone: SAUDI_TIME_ZONE }).format(value)
}

/** A rate kept as a percentage with two decimals (93.33), shown with one: `93.3%`. */
export function formatRate(lang: Lang, percentage: number, fractionDigits = 1): string {
  return formatPercent(lang, percentage / 100, fractionDigits)
}

/** A school day written `YYYY-MM-DD`: short Gregorian and Umm al-Qura dates. */
export function formatDay(lang: Lang, isoDay: string): DualDate {
  const value = new Date(`${isoDay}T12:00:00Z`)
  const options: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }
  return {
    gregorian: dateFormat(intlLocale[lang], options).format(value),
    hijri: dateFormat(hijriLocale[lang], options).format(value),
  }
}

/** The name of a weekday, 0 = Sunday. */
export function weekdayName(lang: Lang, weekday: number): string {
  // 2024-01-07 was a Sunday.
  return dateFormat(intlLocale[lang], { weekday: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2024, 0, 7 + weekday, 12)))
}
