import { defaultLang, isLang, langCookieName, type Lang } from './config.ts'

export function readCookie(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0) continue
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim())
      } catch {
        return undefined
      }
    }
  }
  return undefined
}

/** The best supported language of an Accept-Language header, honouring q-values. */
export function langFromAcceptLanguage(header: string | null | undefined): Lang | undefined {
  if (!header) return undefined
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';')
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
      const quality = q ? Number(q.slice(2)) : 1
      return { base: tag.trim().toLowerCase().split('-')[0], quality: Number.isFinite(quality) ? quality : 0, index }
    })
    .filter((entry) => entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
  return ranked.map((entry) => entry.base).find(isLang)
}

/** The language for a request without one in its path: cookie, then Accept-Language, then Arabic. */
export function detectLang(request: Request): Lang {
  const fromCookie = readCookie(request.headers.get('cookie'), langCookieName)
  if (isLang(fromCookie)) return fromCookie
  return langFromAcceptLanguage(request.headers.get('accept-language')) ?? defaultLang
}
