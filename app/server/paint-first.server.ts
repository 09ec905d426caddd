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
import { Transform, type TransformCallback } from 'node:stream'

const MODULEPRELOAD = /<link rel="modulepreload" href="(\/[^"\s]+)"[^>]*\/>/g
const MODULE_SCRIPT = /<script nonce="([^"]*)" type="module" async="">/g

/**
 * Id of the inert element that holds React Router's module script until after the first paint;
 * its `data-preload` lists the modules to preload then, separated by spaces.
 */
export const DEFERRED_MODULES_ID = 'app-modules'

/** JSON that is safe inside an inline <script>. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c')

/**
 * The inline script that loads the page's modules once the browser reports the first contentful
 * paint (a Paint Timing entry: the frame is on screen, not only drawn), with a fallback of one
 * frame where that API is missing, three seconds at most, and at once in a background tab, which
 * does not paint.
 */
function loaderScript(nonce: string): string {
  const code =
    `(()=>{const n=document.currentScript.nonce,t=document.getElementById(${scriptJson(DEFERRED_MODULES_ID)});if(!t)return;let done=false;` +
    `const go=()=>{if(done)return;done=true;for(const href of (t.dataset.preload||'').split(' ').filter(Boolean)){const l=document.createElement('link');l.rel='modulepreload';l.href=href;l.nonce=n;document.head.append(l)}` +
    `const s=document.createElement('script');s.type='module';s.nonce=n;s.textContent=t.textContent;t.after(s)};` +
    `if(document.visibilityState!=='visible')return go();` +
    `if(typeof PerformanceObserver!=='undefined'&&(PerformanceObserver.supportedEntryTypes||[]).includes('paint')){` +
    `new PerformanceObserver((list,o)=>{if(list.getEntriesByName('first-contentful-paint').length){o.disconnect();setTimeout(go)}}).observe({type:'paint',buffered:true});setTimeout(go,3000)}` +
    `else requestAnimationFrame(()=>setTimeout(go))})()`
  return `<script nonce="${nonce}">${code}</script>`
}

/**
 * `html` with React Router's modules loaded after the first paint; unchanged unless it holds
 * exactly one React Router module script, with the request's nonce.
 */
export function paintBeforeModules(html: string, nonce: string): string {
  const scripts = [...html.matchAll(MODULE_SCRIPT)]
  if (scripts.length !== 1 || scripts[0]![1] !== nonce) return html
  const bodyStart = html.indexOf('<body')
  if (bodyStart === -1) return html
  const preloads: string[] = []
  const head = html.slice(0, bodyStart).replace(MODULEPRELOAD, (_tag, href: string) => {
    preloads.push(href)
    return ''
  })
  const body = html
    .slice(bodyStart)
    .replace(MODULE_SCRIPT, `<script nonce="${nonce}" type="text/plain" id="${DEFERRED_MODULES_ID}" data-preload="${preloads.join(' ')}">`)
  const end = body.lastIndexOf('</body>')
  if (end === -1) return html
  return head + body.slice(0, end) + loaderScript(nonce) + body.slice(end)
}

/**
 * A stream for a rendered document that applies `paintBeforeModules`. Pages are rendered whole
 * before the first byte (entry.server waits for onAllReady), so holding the document until its
 * end delays nothing.
 */
export function paintBeforeModulesStream(nonce: string): Transform {
  const chunks: Buffer[] = []
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      chunks.push(chunk)
      callback()
    },
    flush(callback: TransformCallback) {
      callback(null, Buffer.from(paintBeforeModules(Buffer.concat(chunks).toString('utf8'), nonce), 'utf8'))
    },
  })
}
