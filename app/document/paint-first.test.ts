import { Readable } from 'node:stream'
import { text } from 'node:stream/consumers'
import { describe, expect, it } from 'vitest'
import { isPaintFirst, scriptsBeforePaint } from '#app/document/paint-first.ts'
import guardSource from './guard-early-submits.client.ts?inline-script'
import { DEFERRED_MODULES_ID, prepareDocument, prepareDocumentStream } from './paint-first.server.ts'

const nonce = 'n0nce+/A=='
const preloads = ['/assets/entry.client-a1.js', '/assets/chunk-b2.js', '/assets/root-c3.js']
const moduleCode = `;\nimport * as route0 from "/assets/root-c3.js";\nwindow.__reactRouterRouteModules = {"root":route0};\n\nimport("/assets/entry.client-a1.js");`

/** A document in the shape React renders React Router's <Scripts> into (preloads hoisted to <head>). */
function renderedDocument({ scriptNonce = nonce, moduleScripts = 1 } = {}) {
  const links = preloads.map((href) => `<link rel="modulepreload" href="${href}" nonce="${nonce}"/>`).join('')
  const script = `<script nonce="${scriptNonce}" type="module" async="">${moduleCode}</script>`
  return (
    `<!DOCTYPE html><html lang="ar" dir="rtl"><head><meta charSet="utf-8"/>${links}` +
    `<script nonce="${nonce}">document.documentElement.classList.add('js')</script><style nonce="${nonce}" data-href="/assets/app.css">body{margin:0}</style></head>` +
    `<body><main><h1>تحليل الغياب</h1><p>نص الصفحة</p></main>` +
    `<script nonce="${nonce}">window.__reactRouterContext = {"basename":"/"};</script>` +
    script.repeat(moduleScripts) +
    `<script nonce="${nonce}">window.__reactRouterContext.streamController.close();</script></body></html>`
  )
}

const headOf = (html: string) => html.slice(0, html.indexOf('<body'))
const inlineScripts = (html: string) =>
  [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].map(([, attrs, body]) => ({ attrs: attrs!, body: body! }))

const paintBeforeModules = (html: string, n: string) => prepareDocument(html, n, { paintFirst: true })

describe('prepareDocument, painting first', () => {
  it('takes the module preloads out of <head> and keeps their order for after the first paint', () => {
    const html = paintBeforeModules(renderedDocument(), nonce)
    expect(headOf(html)).not.toContain('modulepreload')
    const inert = inlineScripts(html).filter((s) => s.attrs.includes(`id="${DEFERRED_MODULES_ID}"`))
    expect(inert).toHaveLength(1)
    expect(inert[0]!.attrs).toContain('type="text/plain"')
    expect(/data-preload="([^"]*)"/.exec(inert[0]!.attrs)?.[1]?.split(' ')).toEqual(preloads)
    // React Router's code itself is untouched, and nothing is left that the browser would run as a module.
    expect(inert[0]!.body).toBe(moduleCode)
    expect(html).not.toMatch(/<script[^>]*type="module"/)
  })

  it('adds one loader script with the request nonce, after everything else in <body>', () => {
    const html = paintBeforeModules(renderedDocument(), nonce)
    const scripts = inlineScripts(html)
    const loader = scripts.at(-1)!
    expect(loader.attrs).toBe(` nonce="${nonce}"`)
    expect(loader.body).toContain(DEFERRED_MODULES_ID)
    expect(loader.body).toContain('first-contentful-paint')
    expect(html.indexOf(loader.body)).toBeGreaterThan(html.indexOf('streamController.close()'))
    expect(html.endsWith('</script></body></html>')).toBe(true)
    // Every inline script still carries the nonce the Content-Security-Policy names.
    for (const s of scripts) expect(s.attrs).toContain(`nonce="${nonce}"`)
    // The page's content and the rest of the document are as rendered.
    expect(html).toContain('<main><h1>تحليل الغياب</h1><p>نص الصفحة</p></main>')
    expect(html).toContain(`<style nonce="${nonce}" data-href="/assets/app.css">body{margin:0}</style>`)
  })

  it('sends a document it does not recognise as rendered', () => {
    for (const html of [
      renderedDocument({ scriptNonce: 'another-nonce' }),
      renderedDocument({ moduleScripts: 2 }),
      renderedDocument({ moduleScripts: 0 }),
      '<!DOCTYPE html><html><head></head><body><p>no scripts</p></body></html>',
    ]) {
      expect(paintBeforeModules(html, nonce)).toBe(html)
    }
  })

  it('gives the same bytes as a stream, whatever the chunks (an Arabic letter split across two)', async () => {
    const whole = renderedDocument()
    const bytes = Buffer.from(whole, 'utf8')
    const split = bytes.indexOf(Buffer.from('تحليل', 'utf8')) + 1
    const chunks = [bytes.subarray(0, 100), bytes.subarray(100, split), bytes.subarray(split, split + 7), bytes.subarray(split + 7)]
    const streamed = await text(Readable.from(chunks).pipe(prepareDocumentStream(nonce, { paintFirst: true })))
    expect(streamed).toBe(paintBeforeModules(whole, nonce))
  })
})

describe('prepareDocument, for a page that loads its modules at once', () => {
  it('leaves the modules as rendered and guards against a form sent twice, from <head>', () => {
    const rendered = renderedDocument()
    const html = prepareDocument(rendered, nonce, { paintFirst: false })
    expect(headOf(html)).toContain('modulepreload')
    expect(html).toContain(`<script nonce="${nonce}" type="module" async="">${moduleCode}</script>`)
    expect(html).not.toContain(DEFERRED_MODULES_ID)
    const guard = inlineScripts(headOf(html)).filter((s) => s.body === guardSource)
    expect(guard).toHaveLength(1)
    expect(guard[0]!.attrs).toBe(` nonce="${nonce}"`)
    // Nothing else changed: without the guard it is the rendered document.
    expect(html.replace(`<script nonce="${nonce}">${guard[0]!.body}</script>`, '')).toBe(rendered)
  })

  it('guards when painting first too, once, and sends an unrecognised document as rendered', () => {
    const html = prepareDocument(renderedDocument(), nonce, { paintFirst: true })
    expect(inlineScripts(headOf(html)).filter((s) => s.body === guardSource)).toHaveLength(1)
    expect(inlineScripts(html).filter((s) => s.body === guardSource)).toHaveLength(1)
    const other = renderedDocument({ moduleScripts: 0 })
    expect(prepareDocument(other, nonce, { paintFirst: false })).toBe(other)
  })
})

describe('isPaintFirst', () => {
  it("follows the page's routes unless PAINT_FIRST says always or never", () => {
    expect(isPaintFirst('pages', [undefined, { staticForGuests: true }])).toBe(true)
    expect(isPaintFirst('pages', [undefined, scriptsBeforePaint])).toBe(false)
    expect(isPaintFirst('always', [scriptsBeforePaint])).toBe(true)
    expect(isPaintFirst('never', [undefined])).toBe(false)
  })
})
