import { renderToString } from 'react-dom/server'
import { createRoutesStub, Outlet, UNSAFE_ErrorResponseImpl as ErrorResponse } from 'react-router'
import { describe, expect, it } from 'vitest'
import { getMessages } from '#app/i18n/messages.server.ts'
import type { Lang } from '#app/i18n/config.ts'
import { testContext } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { ErrorBoundary, loader } from './root.tsx'

// The error pages, rendered as the server renders them after a loader failed.
function renderError(lang: Lang, path: string, error: unknown) {
  const Stub = createRoutesStub([
    {
      id: 'root',
      path: '/',
      Component: () => <Outlet />,
      ErrorBoundary,
      children: [{ id: 'page', path: '*', Component: () => null }],
    },
  ])
  return renderToString(
    <Stub
      initialEntries={[path]}
      hydrationData={{ loaderData: { root: { lang, messages: getMessages(lang, ['common']) } }, errors: { root: error } }}
    />,
  )
}

describe('error pages', () => {
  it('say which page was not found, in the page language', () => {
    const en = renderError('en', '/en/no-such-page', new ErrorResponse(404, 'Not Found', null))
    expect(en).toContain('Page not found: <bdi dir="ltr">/en/no-such-page</bdi>')
    const ar = renderError('ar', '/ar/no-such-page', new ErrorResponse(404, 'Not Found', null))
    expect(ar).toContain('الصفحة غير موجودة: <bdi dir="ltr">/ar/no-such-page</bdi>')
  })

  it('show the status code, the status message and a Back button to /', () => {
    const html = renderError('en', '/en/x', new ErrorResponse(503, 'Service Unavailable', null))
    expect(html).toContain('Status code 503')
    expect(html).toContain('Service temporarily unavailable')
    expect(html).toMatch(/<a class="button button-primary" href="\/">Back<\/a>/)
  })

  it('treat an unexpected exception as a 500 without its details', () => {
    const html = renderError('ar', '/ar/x', new Error('secret stack detail'))
    expect(html).toContain('رمز الحالة 500')
    expect(html).not.toContain('secret stack detail')
  })
})

describe('the one-time message (flash)', () => {
  const testDb = setupTestDatabase()
  const flash = `hallil_flash=${encodeURIComponent(JSON.stringify({ kind: 'success', key: 'accounts.messages.loggedOut' }))}`
  const load = (headers: Record<string, string>) =>
    loader({
      request: new Request('http://localhost/ar.data', { headers }),
      params: { lang: 'ar' },
      context: testContext(testDb()),
    } as never) as unknown as Promise<{ data: { flash: { message: string } | null }; init?: { headers?: Record<string, string> } }>

  it('is shown once by the page that reads it, which clears its cookie', async () => {
    const result = await load({ cookie: flash })
    expect(result.data.flash?.message).toBe('تم تسجيل الخروج بنجاح')
    expect(new Headers(result.init?.headers).get('set-cookie')).toMatch(/^hallil_flash=; .*Max-Age=0/)
  })

  it('is left for the next page by a prefetch of a linked page', async () => {
    const prefetches: Array<Record<string, string>> = [{ 'sec-purpose': 'prefetch' }, { purpose: 'prefetch' }]
    for (const headers of prefetches) {
      const result = await load({ cookie: flash, ...headers })
      expect(result.data.flash).toBeNull()
      expect(result.init?.headers).toBeUndefined()
    }
  })
})
