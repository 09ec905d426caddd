// A React page paints before its script loads (decision 013). The server-rendered HTML, with the
// stylesheet written into it, is the whole page; React's modules (about 125 KB compressed on a
// tool page) only make it interactive. React Router's <Scripts> has the browser preload every
// module from the top of <head> and start them at once, so on a phone's link they share the
// bandwidth with the document and the fonts the first paint needs, and on a slow phone the
// parsing of them runs before the paint.
//
// So the rendered document is rewritten before it is sent: the modulepreload links leave <head>,
// React Router's inline module script becomes an inert <script type="text/plain">, and a small
// inline script puts both back, unchanged, once the browser has painted. The modules then load
// in parallel, as they did from the preloads. Forms work before that, as they always have;
// an editor keeps what was typed before its script took over (exam-editor.tsx).
//
// Where the document is not the expected shape (no module script, or React Router renders it
// differently after an upgrade), it is sent as rendered: the page still works, only sooner-
// interactive than painted. The e2e test "a React page paints before its modules load" fails then.
//
// A page whose teacher comes to act rather than to read can load its modules at once instead:
// its route's handle says `scriptsBeforePaint` (app/document/paint-first.ts; decision 016 measured both
// on a phone).
// It keeps the guard against a form sent twice (below); only the modules are left where they are.
import { Transform, type TransformCallback } from 'node:stream'

import guardEarlySubmitsSource from './guard-early-submits.client.ts?inline-script'
import loadModulesAfterPaintSource from './load-modules-after-paint.client.ts?inline-script'
import { DEFERRED_MODULES_ID } from './markers.ts'

export { DEFERRED_MODULES_ID }

// A build that lost the browser scripts (a plugin emptying the import) must not start serving pages.
if (!guardEarlySubmitsSource || !loadModulesAfterPaintSource)
  throw new Error('the inline browser scripts are missing from the build (scripts/inline-scripts.ts)')

const MODULEPRELOAD = /<link rel="modulepreload" href="(\/[^"\s]+)"[^>]*\/>/g
const MODULE_SCRIPT = /<script nonce="([^"]*)" type="module" async="">/g

/** The inline script that loads the held modules after the first paint (load-modules-after-paint.client.ts). */
function loaderScript(nonce: string): string {
  return `<script nonce="${nonce}">${loadModulesAfterPaintSource}</script>`
}

/** The inline script that guards against a form sent twice, for <head> (guard-early-submits.client.ts). */
function guardScript(nonce: string): string {
  return `<script nonce="${nonce}">${guardEarlySubmitsSource}</script>`
}

export interface PrepareDocumentOptions {
  /** React Router's modules load after the first paint (decision 013); else as rendered. */
  readonly paintFirst: boolean
}

/**
 * `html` with the early-submit guard in <head> and, when `paintFirst`, React Router's modules
 * loaded after the first paint; unchanged unless it holds exactly one React Router module script,
 * with the request's nonce.
 */
export function prepareDocument(html: string, nonce: string, { paintFirst }: PrepareDocumentOptions): string {
  const scripts = [...html.matchAll(MODULE_SCRIPT)]
  if (scripts.length !== 1 || scripts[0]![1] !== nonce) return html
  const bodyStart = html.indexOf('<body')
  const headEnd = html.lastIndexOf('</head>', bodyStart)
  if (bodyStart === -1 || headEnd === -1) return html
  const guarded = html.slice(0, headEnd) + guardScript(nonce) + html.slice(headEnd)
  if (!paintFirst) return guarded
  const guardedBodyStart = bodyStart + (guarded.length - html.length)
  const preloads: string[] = []
  const head = guarded.slice(0, guardedBodyStart).replace(MODULEPRELOAD, (_tag, href: string) => {
    preloads.push(href)
    return ''
  })
  const body = guarded
    .slice(guardedBodyStart)
    .replace(MODULE_SCRIPT, `<script nonce="${nonce}" type="text/plain" id="${DEFERRED_MODULES_ID}" data-preload="${preloads.join(' ')}">`)
  const end = body.lastIndexOf('</body>')
  if (end === -1) return html
  return head + body.slice(0, end) + loaderScript(nonce) + body.slice(end)
}

/**
 * A stream for a rendered document that applies `prepareDocument`. Pages are rendered whole
 * before the first byte (entry.server waits for onAllReady), so holding the document until its
 * end delays nothing.
 */
export function prepareDocumentStream(nonce: string, options: PrepareDocumentOptions): Transform {
  const chunks: Buffer[] = []
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      chunks.push(chunk)
      callback()
    },
    flush(callback: TransformCallback) {
      callback(null, Buffer.from(prepareDocument(Buffer.concat(chunks).toString('utf8'), nonce, options), 'utf8'))
    },
  })
}
