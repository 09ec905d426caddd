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
// its route's handle says `scriptsBeforePaint` (app/lib/paint-first.ts; decision 016 measured both
// on a phone).
// It keeps the guard against a form sent twice (below); only the modules are left where they are.
import { Transform, type TransformCallback } from 'node:stream'

const MODULEPRELOAD = /<link rel="modulepreload" href="(\/[^"\s]+)"[^>]*\/>/g
const MODULE_SCRIPT = /<script nonce="([^"]*)" type="module" async="">/g

/**
 * Id of the inert element that holds React Router's module script until after the first paint;
 * its `data-preload` lists the modules to preload then, separated by spaces.
 */
export const DEFERRED_MODULES_ID = 'app-modules'

/**
 * Runs in the browser, written into <head> as its source. A form sent before React has taken over
 * is sent by the browser, as the page was served. React must not see that submit: while
 * hydrating it replays such an event to the form's handler, which would send the form a second
 * time (a one-time code then reads as already used). Until the root marks the page hydrated, a
 * submit stops here, on the window before React's listeners on the document, and the browser's
 * own submission goes ahead.
 */
function guardEarlySubmits() {
  window.addEventListener(
    'submit',
    (event) => {
      if (document.documentElement.dataset.hydrated !== 'true') event.stopPropagation()
    },
    true,
  )
}

/**
 * Runs in the browser, written into the page as its source: loads the modules held in the
 * element `id` once the browser reports the first contentful paint (a Paint Timing entry: the
 * frame is on screen, not only drawn), after one frame where that API is missing, after three
 * seconds at most, and at once in a background tab, which does not paint. The preloads are added
 * a few at a time and the module script last, each step its own task: starting a fetch costs the
 * main thread about a millisecond, and the page is on screen by then and may be scrolled or read.
 */
function loadModulesAfterPaint(id: string, perStep: number) {
  const nonce = (document.currentScript as HTMLScriptElement).nonce
  const held = document.getElementById(id)
  if (!held) return
  let started = false
  const start = () => {
    if (started) return
    started = true
    const hrefs = (held.dataset.preload ?? '').split(' ').filter(Boolean)
    const steps: Array<() => void> = []
    for (let i = 0; i < hrefs.length; i += perStep) {
      const some = hrefs.slice(i, i + perStep)
      steps.push(() => {
        for (const href of some) {
          const link = document.createElement('link')
          link.rel = 'modulepreload'
          link.href = href
          link.nonce = nonce
          document.head.append(link)
        }
      })
    }
    steps.push(() => {
      const script = document.createElement('script')
      script.type = 'module'
      script.nonce = nonce
      script.textContent = held.textContent
      held.after(script)
    })
    const next = () => {
      steps.shift()?.()
      if (steps.length) setTimeout(next)
    }
    next()
  }
  if (document.visibilityState !== 'visible') return start()
  if (typeof PerformanceObserver !== 'undefined' && (PerformanceObserver.supportedEntryTypes ?? []).includes('paint')) {
    new PerformanceObserver((list, observer) => {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return
      observer.disconnect()
      setTimeout(start)
    }).observe({ type: 'paint', buffered: true })
    setTimeout(start, 3000)
  } else {
    requestAnimationFrame(() => setTimeout(start))
  }
}

/** Preloads added per step of `loadModulesAfterPaint`. */
const PRELOADS_PER_STEP = 4

/** The inline script that runs `loadModulesAfterPaint` (JSON arguments: safe inside a script). */
function loaderScript(nonce: string): string {
  const args = JSON.stringify([DEFERRED_MODULES_ID, PRELOADS_PER_STEP]).slice(1, -1)
  return `<script nonce="${nonce}">(${loadModulesAfterPaint.toString()})(${args})</script>`
}

/** The inline script that guards against a form sent twice, for <head>. */
function guardScript(nonce: string): string {
  return `<script nonce="${nonce}">(${guardEarlySubmits.toString()})()</script>`
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
