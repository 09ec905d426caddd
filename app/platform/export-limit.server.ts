import { dirOf, type Lang } from '#app/i18n/config.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { createTranslator } from '#app/i18n/translate.ts'
import { DomainError } from '#app/lib/errors.ts'
import { safeRedirect } from '#app/lib/safe-redirect.ts'
import type { RequestContext } from './context.server.ts'
import { hitRateLimit } from './rate-limit.server.ts'

// PDF and Excel files (analysis exports, test PDFs, invoice PDFs) cost a render each: one
// hourly allowance per teacher (EXPORTS_PER_HOUR), shared by the pages and the API.

export type ExportLimitContext = Pick<RequestContext, 'db' | 'env'>

export type LimitExportsOptions = ExportLimitContext & { userId: string }

/** Counts one download; past the allowance, a 429 DomainError with the wait (the API answers it as docs/api.md says). */
export async function limitExports({ userId, ...ctx }: LimitExportsOptions): Promise<void> {
  const limit = await hitRateLimit({ db: ctx.db, key: `export:${userId}`, limit: ctx.env.EXPORTS_PER_HOUR, windowSeconds: 3600 })
  if (!limit.allowed) throw new DomainError(429, 'common.errors.exportsLimited', undefined, limit.retryAfterSeconds)
}

/**
 * The pages' download routes: past the allowance, throws a small page in the teacher's
 * language (429, Retry-After) in place of the file, with a way back to the page they came from.
 */
export async function limitPageExports(ctx: ExportLimitContext, userId: string, request: Request, lang: Lang): Promise<void> {
  try {
    await limitExports({ ...ctx, userId })
  } catch (error) {
    if (!(error instanceof DomainError) || error.status !== 429) throw error
    throw tooManyExportsPage(lang, error.retryAfterSeconds ?? 3600, backPath(request, lang))
  }
}

/** The page a download link was followed from, when it is this site's; the home page otherwise. */
function backPath(request: Request, lang: Lang): string {
  const referer = request.headers.get('referer')
  if (!referer) return `/${lang}`
  try {
    const from = new URL(referer)
    if (from.origin !== new URL(request.url).origin) return `/${lang}`
    return safeRedirect(`${from.pathname}${from.search}`, `/${lang}`)
  } catch {
    return `/${lang}`
  }
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c)

export function tooManyExportsPage(lang: Lang, retryAfterSeconds: number, back: string): Response {
  const { t } = createTranslator(lang, getMessages(lang, ['common']))
  const title = t('common.errors.exportsLimitedTitle')
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60))
  const html = `<!doctype html>
<html lang="${lang}" dir="${dirOf(lang)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(`${title} | ${t('common.siteName')}`)}</title></head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(t('common.errors.exportsLimited'))}</p>
<p>${escapeHtml(t('common.errors.exportsRetryIn', { count: minutes }))}</p>
<p><a href="${escapeHtml(back)}">${escapeHtml(t('common.errors.back'))}</a></p>
</main>
</body>
</html>
`
  return new Response(html, {
    status: 429,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Retry-After': String(retryAfterSeconds), 'Cache-Control': 'private, no-store' },
  })
}
