import { describe, expect, it } from 'vitest'
import { switchLangPath } from './config.ts'
import { detectLang, langFromAcceptLanguage, readCookie } from './detect.server.ts'

const request = (headers: Record<string, string>) => new Request('http://x/', { headers })

describe('language detection', () => {
  it('prefers the lang cookie', () => {
    expect(detectLang(request({ cookie: 'a=1; lang=en', 'accept-language': 'ar' }))).toBe('en')
  })

  it('then Accept-Language with q-values', () => {
    expect(detectLang(request({ 'accept-language': 'fr-FR,en-US;q=0.8,ar;q=0.5' }))).toBe('en')
    expect(detectLang(request({ 'accept-language': 'en;q=0.3, ar-SA;q=0.9' }))).toBe('ar')
    expect(langFromAcceptLanguage('en;q=0, fr')).toBeUndefined()
  })

  it('falls back to Arabic', () => {
    expect(detectLang(request({}))).toBe('ar')
    expect(detectLang(request({ cookie: 'lang=fr', 'accept-language': 'de' }))).toBe('ar')
  })

  it('reads cookies defensively', () => {
    expect(readCookie('lang=%E0%A4%A', 'lang')).toBeUndefined()
    expect(readCookie(null, 'lang')).toBeUndefined()
  })

  it('switches the language of a path and keeps the page', () => {
    expect(switchLangPath('/ar/about-us', 'en')).toBe('/en/about-us')
    expect(switchLangPath('/en', 'ar')).toBe('/ar')
    expect(switchLangPath('/ar/', 'en')).toBe('/en')
    expect(switchLangPath('/arabic/x', 'en')).toBe('/en/arabic/x')
  })
})
