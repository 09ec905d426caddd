// What painting first (decision 013) buys a teacher and what it costs her (decision 016), on a
// phone: the built server twice, with PAINT_FIRST=always and PAINT_FIRST=never, and Debian's
// Chromium (CHROME_PATH, default /usr/bin/chromium) driven by Playwright at 390 × 844 with
// Lighthouse's mobile throttling applied by DevTools (slow 4G: 562.5 ms per request, 1.47 Mbit/s
// down, 675 kbit/s up; the CPU four times slower). For each page, a subscribed teacher:
//
// - first contentful paint (Paint Timing);
// - ready: on the test builder, the moment a tap on "add a question" first adds one — a finger
//   taps the button every 100 ms from the moment it is in the page, and the tap that added the
//   question is the one before the question appeared; on the other pages the moment the root
//   marks the page hydrated (its controls work from then on, decision 016);
//
// each cold (a new browser profile: nothing cached) and warm (the same page again, its modules
// in the HTTP cache, as for a teacher who comes back; the service worker is kept out so both
// modes are measured the same way). Runs alternate between the two servers; medians are shown.
//
// `npx tsx bench/ready-to-click.ts` prints the rows alone (READY_RUNS runs per page, default 5);
// `npm run bench` prints them with the rest.
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright'
import { startServer, type ServerProcess } from '#tests/support/server-process.ts'
import { subscribedTeacherCookie } from './lighthouse.ts'
import { median } from './measure.ts'

export const READY_RUNS = Math.max(1, Number(process.env.READY_RUNS ?? 5) || 5)

/** Lighthouse's mobile profile as DevTools applies it (its `throttling.mobileSlow4G` for devtools). */
const NETWORK = { offline: false, latency: 562.5, downloadThroughput: (1474.56 * 1024) / 8, uploadThroughput: (675 * 1024) / 8 }
const CPU_SLOWDOWN = 4
const PHONE = { width: 390, height: 844 }

export const READY_PAGES = [
  { name: 'test builder', path: '/ar/exams-test', tap: true },
  { name: 'my tests', path: '/ar/exams', tap: false },
  { name: 'absence analysis', path: '/ar/analysis', tap: false },
] as const

type Mode = 'always' | 'never'
export interface ReadyFigures {
  readonly fcpMs: number
  readonly readyMs: number
}
export interface ReadyBenchResult {
  readonly page: string
  readonly path: string
  readonly runs: number
  /** Medians per mode, cold and warm. */
  readonly figures: Record<Mode, { cold: ReadyFigures; warm: ReadyFigures }>
}

// Runs in the page before its own scripts: the taps' times, when the first question card and the
// hydrated mark appeared (performance.now(), the clock of Paint Timing).
const RECORDER = `(() => {
  const seen = { taps: [], card: null, hydrated: null }
  window.__ready = seen
  addEventListener('pointerdown', (e) => seen.taps.push(e.timeStamp), true)
  new MutationObserver(() => {
    const now = performance.now()
    if (seen.hydrated === null && document.documentElement.dataset.hydrated === 'true') seen.hydrated = now
    if (seen.card === null && document.querySelector('.question-card')) seen.card = now
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-hydrated'] })
})()`

type Recorded = { taps: number[]; card: number | null; hydrated: number | null }

async function measureLoad(page: Page, url: string, tap: boolean): Promise<ReadyFigures> {
  await page.goto(url, { waitUntil: 'commit' })
  if (tap) {
    // The finger: once the button is in the page, it is brought into view and tapped every
    // 100 ms until a question card is there.
    const button = page.locator('button.add-type').nth(2)
    await button.waitFor({ state: 'attached', timeout: 60_000 })
    const deadline = Date.now() + 60_000
    while (Date.now() < deadline) {
      const box = await button.evaluate((element) => {
        element.scrollIntoView({ block: 'center' })
        const r = element.getBoundingClientRect()
        return { x: r.x + r.width / 2, y: r.y + r.height / 2 }
      })
      await page.mouse.click(box.x, box.y)
      if (await page.evaluate(() => (window as unknown as { __ready: Recorded }).__ready.card !== null)) break
      await page.waitForTimeout(100)
    }
  } else {
    await page.waitForFunction(() => (window as unknown as { __ready: Recorded }).__ready.hydrated !== null, undefined, {
      timeout: 60_000,
      polling: 100,
    })
  }
  await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, undefined, {
    timeout: 30_000,
    polling: 100,
  })
  const { recorded, fcp } = await page.evaluate(() => ({
    recorded: (window as unknown as { __ready: Recorded }).__ready,
    fcp: performance.getEntriesByName('first-contentful-paint')[0]!.startTime,
  }))
  if (!tap) return { fcpMs: fcp, readyMs: recorded.hydrated ?? Number.NaN }
  // The tap that added the question: the last one before the card appeared.
  const answered = recorded.taps.filter((t) => recorded.card !== null && t <= recorded.card).at(-1)
  return { fcpMs: fcp, readyMs: answered ?? Number.NaN }
}

async function oneRun(
  browser: Browser,
  server: ServerProcess,
  cookie: string,
  path: string,
  tap: boolean,
): Promise<{ cold: ReadyFigures; warm: ReadyFigures }> {
  const context = await browser.newContext({
    viewport: PHONE,
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: false,
    serviceWorkers: 'block',
    locale: 'ar',
  })
  try {
    await context.addCookies(
      cookie.split('; ').map((pair) => {
        const eq = pair.indexOf('=')
        return { name: pair.slice(0, eq), value: pair.slice(eq + 1), url: server.url }
      }),
    )
    await context.addInitScript(RECORDER)
    const page = await context.newPage()
    // The builder asks before leaving a test with a question not saved: the next load leaves it.
    page.on('dialog', (dialog) => void dialog.accept())
    const cdp = await context.newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', NETWORK)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
    const url = `${server.url}${path}`
    const cold = await measureLoad(page, url, tap)
    const warm = await measureLoad(page, url, tap)
    return { cold, warm }
  } finally {
    await context.close()
  }
}

const medianOf = (list: ReadyFigures[]): ReadyFigures => ({
  fcpMs: median(list.map((f) => f.fcpMs)),
  readyMs: median(list.map((f) => f.readyMs)),
})

export async function benchReadyToClick(runs = READY_RUNS): Promise<ReadyBenchResult[]> {
  const servers: Partial<Record<Mode, ServerProcess>> = {}
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
  try {
    for (const mode of ['always', 'never'] as const)
      servers[mode] = await startServer({
        name: `ready-${mode}`,
        database: 'pglite',
        hostname: '127.0.0.1',
        snapshot: true,
        env: { PAINT_FIRST: mode },
      })
    const cookies = { always: await subscribedTeacherCookie(servers.always!), never: await subscribedTeacherCookie(servers.never!) }
    const results: ReadyBenchResult[] = []
    for (const page of READY_PAGES) {
      const seen: Record<Mode, Array<{ cold: ReadyFigures; warm: ReadyFigures }>> = { always: [], never: [] }
      for (let run = 0; run < runs; run++)
        for (const mode of run % 2 ? (['never', 'always'] as const) : (['always', 'never'] as const))
          seen[mode].push(await oneRun(browser, servers[mode]!, cookies[mode], page.path, page.tap))
      const figures = Object.fromEntries(
        (['always', 'never'] as const).map((mode) => [
          mode,
          { cold: medianOf(seen[mode].map((r) => r.cold)), warm: medianOf(seen[mode].map((r) => r.warm)) },
        ]),
      ) as ReadyBenchResult['figures']
      results.push({ page: page.name, path: page.path, runs, figures })
    }
    return results
  } finally {
    await browser.close()
    for (const server of Object.values(servers)) await server?.stop()
  }
}

/** The bench table's rows: per page and cache state, both modes and what painting first changes. */
export function readyRows(results: readonly ReadyBenchResult[]): Array<[string, string]> {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`
  const delta = (a: number, b: number) => `${a - b >= 0 ? '+' : '−'}${s(Math.abs(a - b))} (${(a / b).toFixed(2)}×)`
  const rows: Array<[string, string]> = [
    [
      `Phone (390 × 844, slow 4G, CPU ÷4, Chromium), median of ${results[0]?.runs ?? READY_RUNS}: first paint · ready to answer a tap, painting first vs. modules at once`,
      '',
    ],
  ]
  for (const r of results)
    for (const cache of ['cold', 'warm'] as const) {
      const on = r.figures.always[cache]
      const off = r.figures.never[cache]
      rows.push([
        `  ${r.path} (${r.page}${r.path.endsWith('exams-test') ? ', a tap on "add a question" answered' : ', hydrated'}), ${cache}`,
        `paint first ${s(on.fcpMs)} · ${s(on.readyMs)}; at once ${s(off.fcpMs)} · ${s(off.readyMs)}; painting first: paint ${delta(on.fcpMs, off.fcpMs)}, ready ${delta(on.readyMs, off.readyMs)}`,
      ])
    }
  return rows
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = readyRows(await benchReadyToClick())
  const width = Math.max(...rows.map(([k]) => k.length))
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`)
}
