import { describe, expect, it } from 'vitest'
import { createGuestPageCache, type GuestPageCacheOptions } from './page-cache.ts'

// A page "renderer" that counts its calls and writes the nonce it was given into its scripts,
// as the React Router entry does.
function pages(overrides: { status?: number; headers?: Record<string, string> } = {}) {
  let renders = 0
  let release: (() => void) | null = null
  let gate: Promise<void> | null = null
  return {
    get renders() {
      return renders
    },
    /** Holds every render until `open()`, so several requests can arrive while one renders. */
    hold() {
      gate = new Promise((resolve) => (release = resolve))
    },
    open() {
      release?.()
    },
    render(nonce: string) {
      return async () => {
        renders++
        if (gate) await gate
        const html = `<!DOCTYPE html><html><head><script nonce="${nonce}">boot(${renders})</script></head><body><script nonce="${nonce}" type="module">go()</script></body></html>`
        return new Response(html, {
          status: overrides.status ?? 200,
          headers: { 'Content-Type': 'text/html; charset=utf-8', ...overrides.headers },
        })
      }
    },
  }
}

function cache(overrides: Partial<GuestPageCacheOptions> = {}) {
  return createGuestPageCache({
    ttlMs: 15_000,
    paths: new Set(['/ar', '/en/packages']),
    harmlessCookies: new Set(['lang']),
    ...overrides,
  })
}

const get = (path: string, headers: Record<string, string> = {}) => new Request(`http://localhost${path}`, { headers })
const noncesIn = (html: string) => [...html.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1])

describe('the guest page cache', () => {
  it('renders a public page once and serves it again with the new answer’s nonce everywhere', async () => {
    const c = cache()
    const p = pages()
    const first = await c.serve(get('/ar'), 'nonce-one', p.render('nonce-one'))
    const second = await c.serve(get('/ar'), 'nonce-two', p.render('nonce-two'))
    expect(p.renders).toBe(1)
    expect(first.headers.get('x-page-cache')).toBe('miss')
    expect(second.headers.get('x-page-cache')).toBe('hit')
    expect(noncesIn(await first.text())).toEqual(['nonce-one', 'nonce-one'])
    const html = await second.text()
    expect(noncesIn(html)).toEqual(['nonce-two', 'nonce-two'])
    expect(html).not.toContain('nonce-one')
    expect(second.headers.get('content-type')).toBe('text/html; charset=utf-8')
  })

  it('renders once for requests that arrive while the page is being rendered', async () => {
    const c = cache()
    const p = pages()
    p.hold()
    const answers = ['a', 'b', 'c', 'd'].map((n) => c.serve(get('/en/packages'), `nonce-${n}`, p.render(`nonce-${n}`)))
    p.open()
    const htmls = await Promise.all(answers.map(async (a) => (await a).text()))
    expect(p.renders).toBe(1)
    expect(htmls.map((h) => noncesIn(h)[0])).toEqual(['nonce-a', 'nonce-b', 'nonce-c', 'nonce-d'])
  })

  it('renders the page again once it is older than the time to live', async () => {
    let clock = 1_000
    const c = cache({ now: () => clock })
    const p = pages()
    await c.serve(get('/ar'), 'n1', p.render('n1'))
    clock += 14_999
    await c.serve(get('/ar'), 'n2', p.render('n2'))
    expect(p.renders).toBe(1)
    clock += 2
    const third = await c.serve(get('/ar'), 'n3', p.render('n3'))
    expect(p.renders).toBe(2)
    expect(third.headers.get('x-page-cache')).toBe('miss')
    expect(await third.text()).toContain('boot(2)')
  })

  it('takes only a plain GET of a listed page from a visitor without a session', () => {
    const c = cache()
    expect(c.accepts(get('/ar'))).toBe(true)
    expect(c.accepts(get('/ar', { cookie: 'lang=en' }))).toBe(true)
    expect(c.accepts(get('/ar', { cookie: 'hallil_session=secret' }))).toBe(false)
    expect(c.accepts(get('/ar', { cookie: 'lang=en; hallil_flash=x' }))).toBe(false)
    expect(c.accepts(get('/ar?utm=1'))).toBe(false)
    expect(c.accepts(get('/ar/profile'))).toBe(false)
    expect(c.accepts(get('/ar/packages'))).toBe(false)
    expect(c.accepts(get('/en/packages.data'))).toBe(false)
    expect(c.accepts(new Request('http://localhost/ar', { method: 'POST', body: 'x' }))).toBe(false)
    expect(cache({ ttlMs: 0 }).accepts(get('/ar'))).toBe(false)
  })

  it('does not keep an error page, a page that sets a cookie or one marked private', async () => {
    const cases: Array<{ status?: number; headers?: Record<string, string> }> = [
      { status: 500 },
      { headers: { 'Set-Cookie': 'a=b' } },
      { headers: { 'Cache-Control': 'private, no-store' } },
      { headers: { 'Content-Type': 'application/json' } },
    ]
    for (const overrides of cases) {
      const c = cache()
      const p = pages(overrides)
      const first = await c.serve(get('/ar'), 'n1', p.render('n1'))
      const second = await c.serve(get('/ar'), 'n2', p.render('n2'))
      expect(p.renders).toBe(2)
      expect(first.headers.get('x-page-cache')).toBeNull()
      expect(noncesIn(await second.text())).toEqual(['n2', 'n2'])
    }
  })

  it('renders for each waiting request when the first render could not be kept', async () => {
    const c = cache()
    const p = pages({ status: 503 })
    p.hold()
    const answers = ['a', 'b'].map((n) => c.serve(get('/ar'), n, p.render(n)))
    p.open()
    const statuses = await Promise.all(answers.map(async (a) => (await a).status))
    expect(statuses).toEqual([503, 503])
    expect(p.renders).toBe(2)
  })

  it('forgets every page on clear()', async () => {
    const c = cache()
    const p = pages()
    await c.serve(get('/ar'), 'n1', p.render('n1'))
    c.clear()
    await c.serve(get('/ar'), 'n2', p.render('n2'))
    expect(p.renders).toBe(2)
  })
})
