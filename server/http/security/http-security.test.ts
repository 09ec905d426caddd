import type { ServerBuild } from 'react-router'
import { describe, expect, it } from 'vitest'
import { flashCookie } from '#app/features/accounts/index.server.ts'
import type { RequestContext } from '#app/platform/context.server.ts'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { testContext, testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { subscribedTeacher } from '#tests/exams.ts'
import { createHttpApp } from '../http.ts'
import { contentSecurityPolicy } from '../security-headers.ts'

// ASVS V3 (web frontend), V4 (API) and the CSRF part of V3/V7, through the HTTP app: the
// cross-site check on cookie-authenticated posts, the headers on every kind of answer, CORS
// and the stored-file route. See docs/security.md.

// A build with no pages: a request that passes the checks reaches React Router and fails there
// (500), which tells "refused by the CSRF check" (403) from "let through".
const fakeBuild = { assets: { version: 't', url: '', entry: { module: '', imports: [] }, routes: {} } } as unknown as ServerBuild

// A build with one page whose loader returns data, as React Router serves it (document and `.data`).
const onePageBuild = {
  mode: 'production',
  basename: '/',
  publicPath: '/',
  assetsBuildDirectory: 'build/client',
  future: {},
  ssr: true,
  isSpaMode: false,
  prerender: [],
  routeDiscovery: { mode: 'initial' },
  entry: { module: { default: () => new Response('<p>report</p>', { headers: { 'content-type': 'text/html' } }) } },
  assets: {
    version: 't',
    url: '/m.js',
    entry: { module: '/e.js', imports: [] },
    routes: {
      root: {
        id: 'root',
        module: '/r.js',
        hasLoader: true,
        hasAction: false,
        hasClientLoader: false,
        hasClientAction: false,
        hasErrorBoundary: false,
        imports: [],
      },
    },
  },
  routes: { root: { id: 'root', path: '', module: { default: () => null, loader: () => ({ student: 'a name' }) } } },
} as unknown as ServerBuild

// The same page behind a guard that turns the visitor away with a message for the next page
// (as requireSubscriberPage does), and another cookie of its own.
const guardedPageBuild = {
  ...onePageBuild,
  routes: {
    root: {
      id: 'root',
      path: '',
      module: {
        default: () => null,
        loader: () => {
          const headers = new Headers({ Location: '/en/packages' })
          headers.append('Set-Cookie', flashCookie('error', 'billing.errors.notSubscribed'))
          headers.append('Set-Cookie', 'other=kept; Path=/')
          throw new Response(null, { status: 302, headers })
        },
      },
    },
  },
} as unknown as ServerBuild

let app: ReturnType<typeof createHttpApp>
let pages: ReturnType<typeof createHttpApp>
let guarded: ReturnType<typeof createHttpApp>
let ctx: RequestContext
setupTestDatabase(async (db) => {
  await seedPackages({ db: db.db })
  const services = testServices(db)
  app = createHttpApp({ services, getBuild: () => fakeBuild, mode: 'production' })
  pages = createHttpApp({ services, getBuild: () => onePageBuild, mode: 'production' })
  guarded = createHttpApp({ services, getBuild: () => guardedPageBuild, mode: 'production' })
  ctx = testContext(db, { env: services.env, files: services.files, logger: services.logger, mailer: services.mailer })
})

const refused = async (res: Response) => res.status === 403 && (await res.text()).includes('cross-site')

describe('CSRF: cookie-authenticated page posts', () => {
  const post = (path: string, cookie: string, headers: Record<string, string>, method = 'POST') =>
    app.request(path, {
      method,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: 'intent=delete&id=x',
    })

  it('are refused from another origin, whatever the method, with the session cookie', async () => {
    const { cookie } = await subscribedTeacher(ctx)
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'])
      for (const origin of [
        'https://evil.example',
        'null',
        'http://localhost.evil.example',
        'https://localhost:3000',
        'http://localhost:3001',
      ])
        expect({ method, origin, refused: await refused(await post('/en/last-multiple', cookie, { origin }, method)) }).toEqual({
          method,
          origin,
          refused: true,
        })
  })

  it('are refused without an Origin when the browser says the request is cross-site', async () => {
    const { cookie } = await subscribedTeacher(ctx)
    expect(await refused(await post('/en/profile', cookie, { 'sec-fetch-site': 'cross-site' }))).toBe(true)
    // The Origin decides when both are sent.
    expect(await refused(await post('/en/profile', cookie, { origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' }))).toBe(true)
  })

  it('with neither Origin nor Sec-Fetch-Site are judged by the Referer: refused when it is absent or from elsewhere', async () => {
    const { cookie } = await subscribedTeacher(ctx)
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      for (const referer of [
        undefined,
        'https://evil.example/en/profile',
        'http://localhost.evil.example/',
        'not a url',
        'http://localhost:3001/en/profile',
      ])
        expect({ method, referer, refused: await refused(await post('/en/profile', cookie, referer ? { referer } : {}, method)) }).toEqual({
          method,
          referer,
          refused: true,
        })
      expect(await refused(await post('/en/profile', cookie, { referer: 'http://localhost:3000/en/profile?tab=security' }, method))).toBe(
        false,
      )
    }
  })

  it('without the session cookie and without Origin are not the check’s business (a guest’s form, a hand-made login)', async () => {
    expect(await refused(await post('/en/contact-us', '', {}))).toBe(false)
  })

  it('are let through from this origin', async () => {
    const { cookie } = await subscribedTeacher(ctx)
    const allowed: Array<Record<string, string>> = [
      { origin: 'http://localhost:3000' },
      { 'sec-fetch-site': 'same-origin' },
      { origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' },
    ]
    for (const headers of allowed) expect(await refused(await post('/en/profile', cookie, headers))).toBe(false)
  })

  it('leave API calls with a bearer token alone, with or without Origin and Referer', async () => {
    const res = await app.request('/api/v1/exams', {
      method: 'POST',
      headers: { authorization: 'Bearer not-a-real-token', 'content-type': 'application/json' },
      body: '{}',
    })
    expect(res.status).toBe(401)
  })

  it('do not apply to the API, which never takes a cookie (a cross-site post with the cookie is 401)', async () => {
    const { cookie } = await subscribedTeacher(ctx)
    const res = await app.request('/api/v1/exams', {
      method: 'POST',
      headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/json' },
      body: '{}',
    })
    expect(res.status).toBe(401)
  })
})

describe('response headers', () => {
  const paths = ['/healthz', '/api/v1/packages', '/api/v1/no-such-thing', '/files/avatars/nope.webp', '/robots.txt']

  it('every kind of answer (JSON, 404, file route, text) carries CSP, nosniff, frame and referrer rules', async () => {
    for (const path of paths) {
      const res = await app.request(path)
      const csp = res.headers.get('content-security-policy') ?? ''
      expect({
        path,
        csp:
          /default-src 'self'/.test(csp) && /object-src 'none'/.test(csp) && /base-uri 'self'/.test(csp) && /form-action 'self'/.test(csp),
      }).toEqual({ path, csp: true })
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('x-frame-options')).toBe('DENY')
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
      expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin')
      expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin')
      expect(res.headers.get('permissions-policy')).toContain('camera=()')
      expect(res.headers.get('x-powered-by')).toBeNull()
    }
  })

  it('an unhandled error answers 500 with a plain message, the headers, and no stack or detail', async () => {
    // The page handler of the build without pages fails: the catch-all's answer.
    const res = await app.request('/en/profile')
    expect(res.status).toBe(500)
    expect(await res.text()).toBe('An unexpected error occurred')
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
  })

  it('API answers are never cached, and there is no CORS: another origin gets no Access-Control-Allow-Origin', async () => {
    const res = await app.request('/api/v1/packages', { headers: { origin: 'https://evil.example' } })
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    const preflight = await app.request('/api/v1/exams', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    })
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull()
  })

  it('production CSP has no unsafe-inline or unsafe-eval for scripts; HTTPS adds HSTS and upgrade-insecure-requests', () => {
    const csp = contentSecurityPolicy({ nonce: 'n0nce', isDev: false, isHttps: true, connectOrigins: ['https://api.moyasar.com'] })
    const script = csp.split('; ').find((d) => d.startsWith('script-src')) ?? ''
    expect(script).toBe("script-src 'self' 'nonce-n0nce'")
    expect(csp).toContain('upgrade-insecure-requests')
    expect(csp).toContain("connect-src 'self' https://api.moyasar.com")
  })
})

describe('pages for a signed-in teacher', () => {
  it('and their data are kept by no cache; a guest’s public page is left to its route', async () => {
    const { cookie } = await subscribedTeacher(ctx)
    for (const path of ['/', '/_root.data']) {
      const res = await pages.request(path, { headers: { cookie: `lang=en; ${cookie}` } })
      expect({ path, status: res.status, cache: res.headers.get('cache-control') }).toEqual({
        path,
        status: 200,
        cache: 'private, no-store',
      })
    }
    const guest = await pages.request('/', { headers: { cookie: 'lang=en' } })
    expect(guest.status).toBe(200)
    expect(guest.headers.get('cache-control')).toBeNull()
  })

  it('a prefetch of a page that turns the teacher away sets no message for the next page; the same request asked for does', async () => {
    const cookiesOf = (res: Response) => res.headers.getSetCookie().map((cookie) => cookie.split('=')[0])
    const asked = await guarded.request('/_root.data', { headers: { cookie: 'lang=en' } })
    expect(cookiesOf(asked)).toEqual(['hallil_flash', 'other'])
    for (const purpose of [{ 'sec-purpose': 'prefetch' }, { purpose: 'prefetch' }] as Array<Record<string, string>>) {
      // Page data asked for ahead is answered empty, without running the page's loaders.
      const prefetched = await guarded.request('/_root.data', { headers: { cookie: 'lang=en', ...purpose } })
      expect(prefetched.status).toBe(204)
      expect(prefetched.headers.get('cache-control')).toBe('private, no-store')
      expect(cookiesOf(prefetched)).toEqual([])
      // A page itself fetched ahead (a browser's own speculation) runs, but leaves the message alone.
      const page = await guarded.request('/', { headers: { cookie: 'lang=en', ...purpose } })
      expect(page.status).toBe(302)
      expect(cookiesOf(page)).toEqual(['other'])
    }
  })

  it('nor is a guest’s page data: what a flash cookie made it must not answer a later navigation from the cache', async () => {
    const res = await pages.request('/_root.data', { headers: { cookie: 'lang=en; hallil_flash=x' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('private, no-store')
  })
})

describe('stored files', () => {
  it('are served only from known folders by random names, never by a path', async () => {
    for (const path of [
      '/files/avatars/..%2F..%2Fetc%2Fpasswd',
      '/files/..%2Fsecret/x.webp',
      '/files/exams/00000000-0000-0000-0000-000000000000.webp',
      '/files/avatars/00000000-0000-0000-0000-000000000000.png',
    ])
      expect({ path, status: (await app.request(path)).status }).toEqual({ path, status: 404 })
    // A dot-segment is resolved by URL parsing before routing: it names the page /files/, not a file.
    const dots = await app.request('/files/avatars/%2e%2e/%2e%2e/package.json')
    expect(dots.status).not.toBe(200)
    expect(dots.headers.get('content-type') ?? '').not.toContain('json')
  })
})
