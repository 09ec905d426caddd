/**
 * A redirect target taken from a query string is followed only when it is a path of this
 * site: `/ar/profile?tab=1`. Other hosts (`//evil.example`, `/\evil`), schemes (`javascript:`,
 * `data:`, `https:`) and anything with control characters fall back to `fallback`.
 */
export function safeRedirect(target: unknown, fallback = '/'): string {
  if (typeof target !== 'string' || target.length === 0 || target.length > 2048) return fallback
  if (!target.startsWith('/')) return fallback
  if (target.startsWith('//') || target.startsWith('/\\')) return fallback
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(target)) return fallback
  try {
    const url = new URL(target, 'http://hallil.invalid')
    if (url.origin !== 'http://hallil.invalid') return fallback
    return `${url.pathname}${url.search}${url.hash}`
  } catch {
    return fallback
  }
}
