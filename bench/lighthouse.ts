// Lighthouse mobile scores (performance, accessibility, best practices, SEO) of the home,
// packages, analysis and exams pages in both languages, on the running built server, in
// Debian's Chromium (CHROME_PATH, default /usr/bin/chromium; no browser is downloaded).
//
// Lighthouse 13 declares Node ≥ 22.19; on Node 20 it is a dev-only tool here: when
// it cannot be loaded or run, the reason is returned for the table instead of failing the bench.
//
// The analysis and exams pages need a signed-in teacher with a current subscription. The server
// holds its PGlite database, so the teacher is made through HTTP, as a teacher would: register
// through the API, read the activation code from DATA_DIR/outbox, activate, sign in through the
// login form (its session cookie), check out package 1 and pay it on the sandbox gateway's page
// (card, then 3-D Secure), then follow the gateway's callback, which settles the payment. The
// cookie reaches Lighthouse through `extraHeaders`; the public pages are measured as a guest.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { simpleParser } from 'mailparser'
import type { ServerProcess as AppServer } from '#tests/support/server-process.ts'

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const
/** Runs per page; the median one is reported (LIGHTHOUSE_RUNS, default 3). */
export const LIGHTHOUSE_RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3) || 3)
export const LIGHTHOUSE_PAGES = [
  { name: 'home', path: '', signedIn: false },
  { name: 'packages', path: '/packages', signedIn: false },
  { name: 'analysis', path: '/analysis', signedIn: true },
  { name: 'exams', path: '/exams', signedIn: true },
] as const

export interface LighthouseBenchResult {
  readonly page: string
  /** Scores 0–1 in CATEGORIES order; null where Lighthouse gave none. */
  readonly scores: ReadonlyArray<number | null>
  /** The weighted audits that lost points (performance: metrics scoring under 0.9). */
  readonly misses: readonly string[]
  /** Where the run ended when that is not the page asked for (a redirect), or a runtime error. */
  readonly note?: string
}

const PASSWORD = 'Bench-Lighthouse-42'

function cookiesOf(res: Response, jar: Map<string, string>) {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';')
    const eq = pair!.indexOf('=')
    const name = pair!.slice(0, eq).trim()
    const value = pair!.slice(eq + 1).trim()
    if (/max-age=0\b/i.test(line) || value === '') jar.delete(name)
    else jar.set(name, value)
  }
}

async function activationCode(outbox: string, email: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    let files: string[] = []
    try {
      files = readdirSync(outbox)
        .filter((f) => f.endsWith('.eml'))
        .toSorted()
        .toReversed()
    } catch {
      // not written yet
    }
    for (const file of files) {
      const mail = await simpleParser(readFileSync(path.join(outbox, file)))
      const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(',') : (mail.to?.text ?? '')
      if (!to.toLowerCase().includes(email)) continue
      const code = /\b(\d{6})\b/.exec(mail.text ?? '')?.[1]
      if (code) return code
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`no activation code in ${outbox} for ${email}`)
}

/** A subscribed teacher on `server`, made through HTTP; returns the web session's Cookie header. */
export async function subscribedTeacherCookie(server: AppServer): Promise<string> {
  const base = server.url
  const email = `lighthouse-${Date.now().toString(36)}@school.example`
  const json = { 'content-type': 'application/json', 'accept-language': 'en', 'x-forwarded-for': '10.55.0.1' }
  const registered = await fetch(`${base}/api/v1/auth/register`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({
      username: 'Lighthouse Teacher',
      email,
      phone: '0551234567',
      password: PASSWORD,
      password_confirmation: PASSWORD,
      terms: true,
    }),
  })
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}: ${await registered.text()}`)
  const code = await activationCode(path.join(server.dataDir, 'outbox'), email)
  const activated = await fetch(`${base}/api/v1/auth/activate`, { method: 'POST', headers: json, body: JSON.stringify({ email, code }) })
  if (activated.status !== 200) throw new Error(`activate answered ${activated.status}: ${await activated.text()}`)

  const jar = new Map<string, string>()
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
  /** A form posted the way the browser posts it (same origin), redirects not followed. */
  const post = async (url: string, fields: Record<string, string>) => {
    const res = await fetch(new URL(url, base), {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: base, cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '10.55.0.1' },
      body: new URLSearchParams(fields).toString(),
    })
    cookiesOf(res, jar)
    return res
  }
  const get = async (url: string) => {
    const res = await fetch(new URL(url, base), { redirect: 'manual', headers: { cookie: cookie() } })
    cookiesOf(res, jar)
    return res
  }
  const locationOf = (res: Response, step: string, pattern: RegExp) => {
    const location = res.headers.get('location') ?? ''
    if (res.status < 300 || res.status >= 400 || !pattern.test(location))
      throw new Error(`${step}: expected a redirect to ${pattern}, got ${res.status} ${location}`)
    return location
  }

  locationOf(await post('/en/login', { email, password: PASSWORD }), 'login', /\/en\/?$/)
  const checkoutPage = await get('/en/checkout/1')
  if (checkoutPage.status !== 200) throw new Error(`checkout page answered ${checkoutPage.status}`)
  const method = /name="method"[^>]*value="([^"]+)"/.exec(await checkoutPage.text())?.[1] ?? 'mada'
  const payUrl = locationOf(await post('/en/checkout/1', { method }), 'checkout', /sandbox-pay\?id=sbx_/)
  locationOf(
    await post(payUrl, { intent: 'card', number: '4111 1111 1111 1111', name: 'LIGHTHOUSE TEACHER', expiry: '12/30', cvc: '123' }),
    'card',
    /sandbox-pay\?id=/,
  )
  const callback = locationOf(await post(payUrl, { intent: 'confirm' }), '3-D Secure', /payments\/callback/)
  locationOf(await get(callback), 'callback', /payments\/result\//)
  const analysis = await get('/en/analysis')
  if (analysis.status !== 200)
    throw new Error(`the subscribed teacher's /en/analysis answered ${analysis.status} ${analysis.headers.get('location') ?? ''}`)
  return cookie()
}

export async function benchLighthouse(server: AppServer): Promise<LighthouseBenchResult[]> {
  let lighthouse: typeof import('lighthouse').default
  let launch: typeof import('chrome-launcher').launch
  let computeMedianRun: typeof import('lighthouse/core/lib/median-run.js').computeMedianRun
  let filterToValidRuns: typeof import('lighthouse/core/lib/median-run.js').filterToValidRuns
  try {
    lighthouse = (await import('lighthouse')).default
    ;({ computeMedianRun, filterToValidRuns } = await import('lighthouse/core/lib/median-run.js'))
    launch = (await import('chrome-launcher')).launch
  } catch (error) {
    throw new Error(`Lighthouse cannot be loaded on Node ${process.versions.node}: ${(error as Error).message}`, { cause: error })
  }
  const cookie = await subscribedTeacherCookie(server)
  const chrome = await launch({
    chromePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
    logLevel: 'silent',
  })
  const results: LighthouseBenchResult[] = []
  try {
    for (const lang of ['ar', 'en'] as const) {
      for (const page of LIGHTHOUSE_PAGES) {
        const pagePath = `/${lang}${page.path}`
        const url = `${server.url}${pagePath}`
        try {
          const once = async () => {
            const run = await lighthouse(url, {
              port: chrome.port,
              output: 'json',
              logLevel: 'error',
              onlyCategories: [...CATEGORIES],
              ...(page.signedIn && { extraHeaders: { Cookie: cookie } }),
            })
            if (!run) throw new Error('no result')
            return run.lhr
          }
          // Lighthouse's own advice against its variance: several runs, the median one (closest to
          // the median FCP and time to interactive, its computeMedianRun). A run whose trace
          // Lighthouse could not read (NO_NAVSTART and the like, now and then on this machine) does
          // not count and is run again, up to twice the runs asked for in all.
          const runs: Array<Awaited<ReturnType<typeof once>>> = []
          const validRuns = () => filterToValidRuns(runs.filter((r) => !r.runtimeError))
          while (validRuns().length < LIGHTHOUSE_RUNS && runs.length < 2 * LIGHTHOUSE_RUNS) runs.push(await once())
          const valid = validRuns()
          const lhr = (valid.length ? computeMedianRun(valid) : runs.at(-1)!) as (typeof runs)[number]
          const landed = new URL(lhr.finalDisplayedUrl).pathname
          const notes = [
            lhr.runtimeError ? `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` : '',
            landed !== pagePath ? `ended at ${landed}` : '',
          ].filter(Boolean)
          const misses = CATEGORIES.flatMap((c) =>
            (lhr.categories[c]?.auditRefs ?? [])
              .filter((ref) => ref.weight > 0)
              .filter((ref) => {
                const score = lhr.audits[ref.id]?.score
                return typeof score === 'number' && score < (c === 'performance' ? 0.9 : 1)
              })
              .map((ref) => ref.id),
          )
          // The console's errors, briefly: they are the app's own, not the page's markup.
          const consoleErrors =
            (
              lhr.audits['errors-in-console']?.details as
                { items?: Array<{ source?: string; description?: string; sourceLocation?: { url?: string } }> } | undefined
            )?.items ?? []
          for (const item of consoleErrors.slice(0, 2))
            notes.push(
              `console ${item.source ?? ''}: ${(item.description ?? '').replace(/\s+/g, ' ').slice(0, 120)}${item.sourceLocation?.url ? ` at ${new URL(item.sourceLocation.url).pathname}` : ''}`,
            )
          const issues = (lhr.audits['inspector-issues']?.details as { items?: Array<{ issueType?: string }> } | undefined)?.items ?? []
          if (issues.length) notes.push(`DevTools issues: ${issues.map((i) => i.issueType ?? '?').join(', ')}`)
          results.push({
            page: pagePath,
            scores: CATEGORIES.map((c) => lhr.categories[c]?.score ?? null),
            misses,
            ...(notes.length && { note: notes.join('; ') }),
          })
        } catch (error) {
          results.push({ page: pagePath, scores: CATEGORIES.map(() => null), misses: [], note: (error as Error).message.split('\n')[0] })
        }
      }
    }
  } finally {
    chrome.kill()
  }
  return results
}

export const LIGHTHOUSE_CATEGORIES = CATEGORIES
