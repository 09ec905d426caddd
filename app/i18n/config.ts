export const languages = ['ar', 'en'] as const
export type Lang = (typeof languages)[number]
export const defaultLang: Lang = 'ar'
export const langCookieName = 'lang'
export const langCookieMaxAge = 365 * 24 * 60 * 60

export function isLang(value: unknown): value is Lang {
  return value === 'ar' || value === 'en'
}

export function dirOf(lang: Lang): 'rtl' | 'ltr' {
  return lang === 'ar' ? 'rtl' : 'ltr'
}

export function otherLang(lang: Lang): Lang {
  return lang === 'ar' ? 'en' : 'ar'
}

/**
 * Explicit Intl locales, so the server and every browser print the same digits:
 * Arabic text with Latin digits, as Saudi schools write figures.
 */
export const intlLocale: Record<Lang, string> = {
  ar: 'ar-SA-u-nu-latn',
  en: 'en-GB-u-nu-latn',
}

export const hijriLocale: Record<Lang, string> = {
  ar: 'ar-SA-u-ca-islamic-umalqura-nu-latn',
  en: 'en-GB-u-ca-islamic-umalqura-nu-latn',
}

/** Swaps the language segment of a path, keeping the rest of the page address. */
export function switchLangPath(pathname: string, lang: Lang): string {
  const rest = pathname.replace(/^\/(ar|en)(?=\/|$)/, '')
  return `/${lang}${rest === '/' ? '' : rest}`
}
