import type { ServerBuild } from 'react-router'
import { describe, expect, it } from 'vitest'
import { contactMessages } from '#app/platform/db/schema.ts'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createHttpApp } from './http.ts'
import { checkedApp } from '#tests/api-conformance.ts'

// The HTTP layer without the pages: headers, health, PWA files, the language switch and /api/v1.
const fakeBuild = {
  assets: {
    version: 'build-1',
    url: '/assets/manifest-build-1.js',
    entry: { module: '/assets/entry.client-1.js', imports: ['/assets/chunk-1.js'] },
    routes: { root: { id: 'root', module: '/assets/root-1.js', imports: ['/assets/chunk-1.js'], css: ['/assets/app-1.css'] } },
  },
} as unknown as ServerBuild

let app: ReturnType<typeof createHttpApp>
let proxied: ReturnType<typeof createHttpApp>
let httpsAppUrl: ReturnType<typeof createHttpApp>
const testDb = setupTestDatabase(async (database) => {
  await seedPackages({ db: database.db })
  app = checkedApp(createHttpApp({ services: testServices(database), getBuild: () => fakeBuild, mode: 'production' }))
  proxied = createHttpApp({ services: testServices(database, { TRUST_PROXY: 'true' }), getBuild: () => fakeBuild, mode: 'production' })
  httpsAppUrl = createHttpApp({
    services: testServices(database, { APP_URL: 'https://hallil.example' }),
    getBuild: () => fakeBuild,
    mode: 'production',
  })
})

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
  body: JSON.stringify(body),
})

describe('every response', () => {
  it('carries the security headers and a request id', async () => {
    const res = await app.request('/healthz')
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}'/)
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toContain('unsafe-eval')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    expect(res.headers.get('x-request-id')).toMatch(/[0-9a-f-]{36}/)
    expect(res.headers.get('strict-transport-security')).toBeNull()
  })

  it('gives each request its own nonce', async () => {
    const a = (await app.request('/healthz')).headers.get('content-security-policy')
    const b = (await app.request('/healthz')).headers.get('content-security-policy')
    expect(a).not.toBe(b)
  })

  it('adds HSTS behind HTTPS: a TLS socket, or X-Forwarded-Proto from a proxy trusted with TRUST_PROXY', async () => {
    const hsts = (res: Response) => res.headers.get('strict-transport-security')
    const tls = { incoming: { socket: { encrypted: true } } }
    expect(hsts(await app.request('/healthz', {}, tls))).toContain('max-age=')
    expect(hsts(await proxied.request('/healthz', { headers: { 'x-forwarded-proto': 'https' } }))).toContain('max-age=')
    expect(hsts(await proxied.request('/healthz', { headers: { 'x-forwarded-proto': 'https, http' } }))).toContain('max-age=')
  })

  it('sends no HSTS over plain HTTP, whatever APP_URL or an untrusted X-Forwarded-Proto says', async () => {
    const hsts = (res: Response) => res.headers.get('strict-transport-security')
    expect(hsts(await app.request('/healthz', { headers: { 'x-forwarded-proto': 'https' } }))).toBeNull()
    expect(hsts(await app.request('https://localhost/healthz', {}, { incoming: { socket: { encrypted: false } } }))).toBeNull()
    expect(hsts(await httpsAppUrl.request('/healthz'))).toBeNull()
    expect(hsts(await proxied.request('/healthz', { headers: { 'x-forwarded-proto': 'http' } }))).toBeNull()
    expect(hsts(await proxied.request('/healthz'))).toBeNull()
  })
})

describe('health and PWA files', () => {
  it('answers 200 when the database answers', async () => {
    const res = await app.request('/healthz')
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ status: 'ok' })
  })

  it('serves a service worker that precaches this build and the offline page', async () => {
    const res = await app.request('/sw.js')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('javascript')
    expect(res.headers.get('service-worker-allowed')).toBe('/')
    const body = await res.text()
    expect(body).toContain('hallil-build-1')
    for (const url of ['/offline.html', '/assets/entry.client-1.js', '/assets/root-1.js', '/assets/app-1.css']) expect(body).toContain(url)
    expect(() => new Function(body)).not.toThrow()
  })

  it('tells the build id, never cached', async () => {
    const res = await app.request('/version.json')
    expect(await res.json()).toEqual({ version: 'build-1' })
    expect(res.headers.get('cache-control')).toBe('no-store')
  })

  it('serves robots.txt and a sitemap with both languages', async () => {
    expect(await (await app.request('/robots.txt')).text()).toContain('Sitemap: http://localhost:3000/sitemap.xml')
    const sitemap = await (await app.request('/sitemap.xml')).text()
    expect(sitemap).toContain('<loc>http://localhost:3000/ar/about-us</loc>')
    expect(sitemap).toContain('hreflang="en" href="http://localhost:3000/en/terms"')
  })
})

describe('language switch', () => {
  it('remembers the language for a year and returns to the same page', async () => {
    const res = await app.request('/set-language?lang=en&to=%2Fen%2Fabout-us')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/en/about-us')
    expect(res.headers.get('set-cookie')).toMatch(/^lang=en; Path=\/; Max-Age=31536000; SameSite=Lax/)
  })

  it('never redirects to another site', async () => {
    for (const to of ['//evil.example', 'https://evil.example', 'javascript:alert(1)']) {
      const res = await app.request(`/set-language?lang=ar&to=${encodeURIComponent(to)}`)
      expect(res.headers.get('location')).toBe('/ar')
    }
  })
})

describe('cross-site form posts', () => {
  it('are refused', async () => {
    const res = await app.request('/ar/contact-us', { method: 'POST', headers: { origin: 'https://evil.example' }, body: 'x=1' })
    expect(res.status).toBe(403)
  })
})

describe('/api/v1', () => {
  it('lists packages in the shape of docs/api.md', async () => {
    const res = await app.request('/api/v1/packages', { headers: { 'accept-language': 'en' } })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { message: string; data: Array<Record<string, unknown>> }
    expect(body.data).toHaveLength(3)
    expect(Object.keys(body.data[0]!).sort()).toEqual(
      ['description', 'id', 'is_best_seller', 'months', 'name', 'price', 'total', 'vat', 'vat_rate'].sort(),
    )
    for (const p of body.data) {
      expect(p.vat_rate).toBe(15)
      expect(p.total).toBe((p.price as number) + (p.vat as number))
    }
    expect(body.data.map((p) => p.name)).toContain('Yearly')
    const ar = (await (await app.request('/api/v1/packages')).json()) as { data: Array<{ name: string }> }
    expect(ar.data.map((p) => p.name)).toContain('الباقة السنوية')
  })

  it('stores a contact message: 201 with the product message', async () => {
    const res = await app.request(
      '/api/v1/contact',
      json(
        { type: 'complaint', name: 'Sara', email: 'sara@example.sa', message: 'The sample file link did not open.' },
        { 'accept-language': 'en' },
      ),
    )
    expect(res.status).toBe(201)
    expect(await res.json()).toEqual({ message: 'Message sent successfully', data: null })
    const rows = await testDb().db.select().from(contactMessages)
    expect(rows.some((r) => r.email === 'sara@example.sa' && r.type === 'complaint')).toBe(true)
  })

  it('answers 422 with per-field errors in the requested language', async () => {
    const bad = { type: 'spam', name: '', email: 'x', message: 'short' }
    const en = await app.request('/api/v1/contact', json(bad, { 'accept-language': 'en' }))
    expect(en.status).toBe(422)
    const enBody = (await en.json()) as { errors: Record<string, string[]> }
    expect(enBody.errors.email).toEqual(['Invalid email address'])
    expect(Object.keys(enBody.errors).sort()).toEqual(['email', 'message', 'name', 'type'])
    const ar = await app.request('/api/v1/contact', json(bad, { 'accept-language': 'ar' }))
    const arBody = (await ar.json()) as { errors: Record<string, string[]> }
    expect(arBody.errors.email).toEqual(['البريد الإلكتروني غير صالح'])
  })

  it('treats a body that is not JSON as invalid, not as a crash', async () => {
    const res = await app.request('/api/v1/contact', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{oops' })
    expect(res.status).toBe(422)
  })

  it('refuses bodies over 64 KB with 413', async () => {
    const res = await app.request('/api/v1/contact', json({ message: 'x'.repeat(70 * 1024) }))
    expect(res.status).toBe(413)
  })

  it('answers unknown endpoints with JSON 404', async () => {
    const res = await app.request('/api/v1/no-such-thing', { headers: { 'accept-language': 'en' } })
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ message: 'The requested resource was not found' })
  })

  it('limits contact messages per address with 429 and Retry-After', async () => {
    const body = { type: 'other', name: 'A', email: 'a@example.sa', message: 'Repeated message for the limit.' }
    let last: Response | undefined
    for (let i = 0; i < 6; i++) last = await app.request('/api/v1/contact', json(body))
    expect(last?.status).toBe(429)
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})
