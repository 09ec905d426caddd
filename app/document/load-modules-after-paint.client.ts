// Written at the end of a paint-first page's <body> as an inline script (paint-first.server.ts):
// loads the modules held in the inert element DEFERRED_MODULES_ID once the browser reports the
// first contentful paint (a Paint Timing entry: the frame is on screen, not only drawn), after
// one frame where that API is missing, after three seconds at most, and at once in a background
// tab, which does not paint. The preloads are added a few at a time and the module script last,
// each step its own task: starting a fetch costs the main thread about a millisecond, and the
// page is on screen by then and may be scrolled or read.
import { DEFERRED_MODULES_ID, PRELOADS_PER_STEP } from './markers.ts'

const nonce = (document.currentScript as HTMLScriptElement | null)?.nonce ?? ''
const held = document.getElementById(DEFERRED_MODULES_ID)

let started = false

function start() {
  if (!held || started) return
  started = true
  const hrefs = (held.dataset.preload ?? '').split(' ').filter(Boolean)
  const steps: Array<() => void> = []
  for (let i = 0; i < hrefs.length; i += PRELOADS_PER_STEP) {
    const some = hrefs.slice(i, i + PRELOADS_PER_STEP)
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

if (held) {
  if (document.visibilityState !== 'visible') start()
  else if (typeof PerformanceObserver !== 'undefined' && (PerformanceObserver.supportedEntryTypes ?? []).includes('paint')) {
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
