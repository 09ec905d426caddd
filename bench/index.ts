// `npm run bench`: the project's speed figures, printed as a table.
import { benchAuth } from './auth.ts'
import { benchBilling } from './billing.ts'
import { benchAbsence, benchSearchUnderLoad } from './absence.ts'
import { benchExams, benchPrintUnderLoad } from './exams.ts'
import { benchGrades } from './grades.ts'
import { benchLetters } from './letters.ts'
import { benchXlsx } from './xlsx.ts'
import { benchContainers, containerRows } from './containers.ts'
import { benchNoor, noorRows } from './noor.ts'
import { availableParallelism, loadavg } from 'node:os'
import { startServer, type ServerProcess as AppServer } from '#tests/support/server-process.ts'
import { benchBundle } from './bundle.ts'
import { median } from './measure.ts'
import { benchLighthouse, LIGHTHOUSE_CATEGORIES, LIGHTHOUSE_RUNS } from './lighthouse.ts'
import { benchSsrOn, type SsrBenchResult } from './ssr.ts'
import { benchReadyToClick, readyRows } from './ready-to-click.ts'

const rows: Array<[string, string]> = []
const verdictOf = (ok: boolean) => (ok ? 'meets goal' : 'MISSES goal')
const auth = await benchAuth()
rows.push([`argon2id hash (m=19456, t=2, p=1), median of 15`, `${auth.hashMedianMs.toFixed(1)} ms`])
rows.push([
  `login through /api/v1/auth/login (${auth.database}, 8 concurrent, ${auth.logins} requests, ${auth.loginsOk} ok)`,
  `${auth.loginsPerSecond.toFixed(1)} /s`,
])

const billing = await benchBilling()
rows.push([
  `settlePayment: fetch, checks, paid + subscription + invoice + notification (${billing.database}), median of 30`,
  `${billing.settleMedianMs.toFixed(1)} ms`,
])
rows.push([`invoice PDF (typst, warm), median of 30`, `${billing.pdfMedianMs.toFixed(1)} ms`])

const mb = (bytes: number) => (bytes < 1 << 20 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / (1 << 20)).toFixed(1)} MB`)
const ms = (value: number) => `${Math.round(value).toLocaleString('en')} ms`
const xlsx = await benchXlsx()
for (const x of xlsx) {
  const size = `${x.rows.toLocaleString('en')} rows, ${mb(x.fileBytes)} .xlsx, ${mb(x.sheetBytes)} sheet XML`
  rows.push([
    `xlsx ${size}: readSheet, median of ${x.runs - 1} warm (first ${ms(x.ours.firstMs)})`,
    `${ms(x.ours.medianMs)}, peak +${x.ours.peakMb.toFixed(0)} MB${x.sheetBytes >= 1 << 20 ? ` (${(x.ours.peakMb / (x.sheetBytes / (1 << 20))).toFixed(1)}× the sheet)` : ''}`,
  ])
  rows.push([
    `xlsx ${size}: SheetJS read, median of ${x.runs - 1} warm (first ${ms(x.sheetjs.firstMs)})`,
    `${ms(x.sheetjs.medianMs)}, peak +${x.sheetjs.peakMb.toFixed(0)} MB`,
  ])
  rows.push([`xlsx ${size}: SheetJS time / readSheet time`, `${(x.sheetjs.medianMs / x.ours.medianMs).toFixed(1)}×`])
}

rows.push(...containerRows(await benchContainers()))
rows.push(...noorRows(await benchNoor()))

for (const a of await benchAbsence()) {
  const size = `${a.rows.toLocaleString('en')} rows`
  const sheetjs = xlsx.find((x) => x.rows === a.rows)?.sheetjs.medianMs ?? Number.NaN
  rows.push([
    `absence upload → stored report, ${size} (${a.database}), median (first ${ms(a.firstMs)})`,
    `${ms(a.medianMs)}, ${a.peakMb === null ? 'peak not measurable beside PGlite (see the xlsx rows)' : `peak +${a.peakMb.toFixed(0)} MB (${(a.peakMb / (a.sheetBytes / (1 << 20))).toFixed(1)}× the sheet)`}, stored ${mb(a.storedBytes)}`,
  ])
  rows.push([`absence upload → stored report / SheetJS read alone, ${size} (goal ≤ 1.0, aim 0.5)`, `${(a.medianMs / sheetjs).toFixed(2)}`])
}

try {
  const s = await benchSearchUnderLoad()
  const slowest = (list: number[]) => Math.max(...list)
  const searchMedian = median(s.searchMs)
  rows.push([
    `absence upload over HTTP, ${s.rows.toLocaleString('en')} rows (${mb(s.fileBytes)}, ${s.database}), /healthz and another teacher's profile probed every 50 ms (goal: others < 200 ms)`,
    `${ms(s.uploadMs)}; slowest /healthz ${ms(slowest(s.uploadHealthzMs))}, profile ${ms(slowest(s.uploadProfileMs))} of ${s.uploadHealthzMs.length} probes, ${verdictOf(s.uploadStatus === 201 && slowest(s.uploadHealthzMs) < 200 && slowest(s.uploadProfileMs) < 200)}`,
  ])
  rows.push([
    `student search on it, one at a time, median of ${s.searchMs.length} (goal ≤ 50 ms)`,
    `${ms(searchMedian)} (slowest ${ms(slowest(s.searchMs))}), ${s.searchesFound.every(Boolean) ? 'every student found' : 'SOME NOT FOUND'}, ${verdictOf(searchMedian <= 50)}`,
  ])
  rows.push([
    `eight searches at once: the slowest, and /healthz during them (goal < 100 ms)`,
    `${ms(slowest(s.concurrentSearchMs))}; slowest /healthz ${ms(slowest(s.concurrentHealthzMs))} of ${s.concurrentHealthzMs.length} probes, ${verdictOf(slowest(s.concurrentHealthzMs) < 100)}`,
  ])
} catch (error) {
  rows.push(['absence upload and searches over HTTP, 100,000 rows', `error: ${(error as Error).message.split('\n')[0]}`])
}

try {
  const { measureUploadMemory } = await import('#tests/upload-memory.ts')
  const { startMb, uploads } = await measureUploadMemory()
  const worst = uploads.reduce((a, b) => (b.peakMb > a.peakMb ? b : a))
  rows.push([
    `upload memory: the built server (PGlite) idle, then the peak of the whole process during each of ${uploads.length} uploads (the bad-file corpus, 100,000 and 320,000 daily rows) (goal < 512 MB)`,
    `idle ${startMb} MB; highest ${worst.peakMb} MB (${worst.name}), ${verdictOf(uploads.every((u) => u.peakMb < 512 && u.status === u.expected))}`,
  ])
  for (const u of uploads.filter((upload) => upload.bytes > 1 << 20))
    rows.push([
      `upload memory: ${u.name} (${mb(u.bytes)}, answered ${u.status})`,
      `${u.beforeMb} MB before, peak ${u.peakMb} MB, ${ms(u.ms)}`,
    ])
} catch (error) {
  rows.push(['upload memory of the built server', `error: ${(error as Error).message.split('\n')[0]}`])
}

for (const g of await benchGrades()) {
  const size = `${g.rows.toLocaleString('en')} rows, ${mb(g.fileBytes)} .xlsx, ${mb(g.sheetBytes)} sheet XML`
  rows.push([
    `grades ${size}: readSheet + analyseGrades, median of ${g.runs - 1} warm (first ${ms(g.ours.firstMs)})`,
    `${ms(g.ours.medianMs)} (analysis ${ms(g.ours.analyseMs ?? 0)}), peak +${g.ours.peakMb.toFixed(0)} MB`,
  ])
  rows.push([
    `grades ${size}: SheetJS read alone, median of ${g.runs - 1} warm (first ${ms(g.sheetjs.firstMs)})`,
    `${ms(g.sheetjs.medianMs)}, peak +${g.sheetjs.peakMb.toFixed(0)} MB`,
  ])
  rows.push([
    `grades ${size}: (read + analysis) / SheetJS read alone`,
    `${(g.ours.medianMs / g.sheetjs.medianMs).toFixed(2)} time, ${(g.ours.peakMb / g.sheetjs.peakMb).toFixed(2)} memory`,
  ])
}

const exams = await benchExams()
rows.push([`test PDF, 30 questions of every type, Arabic (typst, warm), median of 9 (${exams.test.pages} pages)`, ms(exams.test.medianMs)])
rows.push([`its answer key, median of 9 (${exams.key.pages} pages)`, ms(exams.key.medianMs)])
rows.push([`two shuffled versions with their keys in one PDF, median of 9 (${exams.versions.pages} pages)`, ms(exams.versions.medianMs)])
try {
  const letters = await benchLetters()
  const kbOf = (bytes: number) => `${Math.round(bytes / 1024)} KB`
  rows.push([
    `follow-up letter PDF, one student, Arabic with a logo, in a render process, median of 9 warm (first ${ms(letters.one.firstMs)})`,
    `${ms(letters.one.medianMs)}, ${kbOf(letters.one.bytes)}`,
  ])
  rows.push([
    `follow-up letters PDF, ${letters.many.count} students in one file (${letters.many.count} pages), median of 3 warm (first ${ms(letters.many.firstMs)})`,
    `${ms(letters.many.medianMs)}, ${kbOf(letters.many.bytes)}`,
  ])
} catch (error) {
  rows.push(['follow-up letters PDF', `error: ${(error as Error).message.split('\n')[0]}`])
}
try {
  const p = await benchPrintUnderLoad()
  const slowest = (list: number[]) => Math.max(...list)
  const isMet = p.status === 200 && p.renderMs < 10_000 && slowest(p.healthzMs) < 200 && slowest(p.profileMs) < 200
  rows.push([
    `largest accepted test, 4 versions with keys, over HTTP in a render process (${p.database}; ${p.pages} pages, ${mb(p.bytes)}, process peak ${p.renderPeakRssMb} MB, render CPU ${ms(p.renderCpuMs)}) (goal < 10 s, others < 200 ms)`,
    `${ms(p.renderMs)}; slowest /healthz ${ms(slowest(p.healthzMs))}, profile ${ms(slowest(p.profileMs))} of ${p.healthzMs.length} probes, ${verdictOf(isMet)}`,
  ])
} catch (error) {
  rows.push(['largest accepted test, 4 versions with keys, over HTTP', `error: ${(error as Error).message.split('\n')[0]}`])
}

// Speed budgets over HTTP (issue #8), on the built server (`node server.js`): each part in its
// own try, so one failing prints its error row and the others still run.
const failure = (error: unknown) => `error: ${(error as Error).message.split('\n')[0]}`
const verdict = verdictOf
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
rows.push([`load average (1 min) before the HTTP benchmarks, on ${availableParallelism()} cores`, loadavg()[0]!.toFixed(1)])
const ssrRows = (r: SsrBenchResult) => {
  const load = (f: SsrBenchResult['app']) =>
    `${f.requestsPerSecond.toFixed(0)} req/s, p50 ${ms(f.p50Ms)}, p99 ${ms(f.p99Ms)}${f.non2xx || f.errors ? ` (${f.non2xx} non-2xx, ${f.errors} errors/timeouts)` : ''}`
  rows.push([
    `SSR /ar through the app (built server, ${r.database}), a guest (guest page cache), 50 connections, 10 s, ${kb(r.appHtmlBytes)} HTML`,
    load(r.app),
  ])
  rows.push([`SSR /ar through the app (${r.database}), every request rendered (router, loaders, React)`, load(r.rendered)])
  rows.push([
    `SSR the same tree through react-dom/server alone (node:http, renderToPipeableStream), ${kb(r.baselineHtmlBytes)} HTML`,
    load(r.baseline),
  ])
  const ratio = r.app.requestsPerSecond / r.baseline.requestsPerSecond
  const renderedRatio = r.rendered.requestsPerSecond / r.baseline.requestsPerSecond
  rows.push([
    `SSR /ar app req/s / react-dom/server alone (${r.database}) (goal ≥ 70%)`,
    `${(ratio * 100).toFixed(0)}%, ${verdict(ratio >= 0.7)}`,
  ])
  rows.push([`SSR /ar app p99 latency (${r.database}) (goal ≤ 50 ms)`, `${ms(r.app.p99Ms)}, ${verdict(r.app.p99Ms <= 50)}`])
  rows.push([
    `  the same, every request rendered: req/s ratio, p99 (not a goal: the signed-in pages' cost)`,
    `${(renderedRatio * 100).toFixed(0)}%, ${ms(r.rendered.p99Ms)}`,
  ])
}
let shared: AppServer | undefined
try {
  shared = await startServer({ name: 'bench', database: 'pglite', hostname: '127.0.0.1', snapshot: true })
} catch (error) {
  rows.push(['built server for the HTTP benchmarks (PGlite)', failure(error)])
}
try {
  if (shared) {
    try {
      ssrRows(await benchSsrOn({ shared }))
    } catch (error) {
      rows.push(['SSR /ar (PGlite)', failure(error)])
    }
  }
  if (process.env.DATABASE_URL) {
    try {
      ssrRows(await benchSsrOn({ database: 'postgres' }))
    } catch (error) {
      rows.push(['SSR /ar (PostgreSQL)', failure(error)])
    }
  }
  if (shared) {
    try {
      for (const b of await benchBundle(shared))
        rows.push([
          `JS per page, brotli, modules in its HTML (goal ≤ 100 KB): ${b.page} (${b.jsFiles} files)`,
          `${kb(b.jsBrotliBytes)} (${kb(b.jsRawBytes)} raw; CSS ${kb(b.cssBrotliBytes)}), ${verdict(b.jsBrotliBytes <= 100 * 1024)}`,
        ])
    } catch (error) {
      rows.push(['JS per page, brotli', failure(error)])
    }
    try {
      const pages = await benchLighthouse(shared)
      rows.push([
        `Lighthouse mobile (Chromium, simulated throttling), median of ${LIGHTHOUSE_RUNS} runs: ${LIGHTHOUSE_CATEGORIES.join(' / ')} (goal ≥ 0.98 / 1 / 1 / 1)`,
        '',
      ])
      for (const p of pages) {
        const scores = p.scores.map((s) => (s === null ? '–' : s.toFixed(2))).join(' / ')
        const extra = [p.misses.length ? `lost on ${p.misses.join(', ')}` : '', p.note ?? ''].filter(Boolean).join('; ')
        rows.push([`  ${p.page}`, `${scores}${extra ? ` (${extra})` : ''}`])
      }
    } catch (error) {
      rows.push(['Lighthouse mobile', `not run: ${failure(error)}`])
    }
  }
} finally {
  await shared?.stop()
}

// Painting first against loading the modules at once, on a throttled phone (decision 016): its
// own two servers, PAINT_FIRST=always and never.
try {
  rows.push(...readyRows(await benchReadyToClick()))
} catch (error) {
  rows.push(['first paint and ready to answer a tap, on a phone', failure(error)])
}

const width = Math.max(...rows.map(([k]) => k.length))
console.log(`\n${'measure'.padEnd(width)}  value`)
console.log(`${'-'.repeat(width)}  ${'-'.repeat(12)}`)
for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`)
