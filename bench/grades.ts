// The grades analysis (grades.md): reading a sample-layout grades workbook with
// app/server/xlsx/read.server.ts and analysing it, against SheetJS (@e965/xlsx) merely reading
// the same file. Each measurement runs in its own process, so its peak memory (maxRSS − RSS
// before the first run) is its own. Figures, not assertions.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { gradesWorkbook } from './grades-workbook.ts'

const SIZES = [10_000, 100_000]
const RUNS: Record<number, number> = { 10_000: 7, 100_000: 5 }
type Job = 'analyse' | 'sheetjs'

export interface GradesBenchResult {
  readonly rows: number
  readonly fileBytes: number
  readonly sheetBytes: number
  readonly runs: number
  /** readSheet + analyseGrades. */
  readonly ours: Measurement
  /** SheetJS's read alone. */
  readonly sheetjs: Measurement
}

interface Measurement {
  /** Median of the runs after the first (warm). */
  readonly medianMs: number
  readonly firstMs: number
  /** Peak resident memory above what the process held before the first run. */
  readonly peakMb: number
  /** Of the analysis's median run: the part spent in analyseGrades. */
  readonly analyseMs?: number
}

const median = (xs: number[]) => xs.toSorted((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0
const self = fileURLToPath(import.meta.url)
const root = path.dirname(path.dirname(self))

export async function benchGrades(): Promise<GradesBenchResult[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'hallil-bench-grades-'))
  const results: GradesBenchResult[] = []
  try {
    for (const rows of SIZES) {
      const workbook = gradesWorkbook({ rows })
      const file = path.join(dir, `grades-${rows}.xlsx`)
      writeFileSync(file, workbook.data)
      const runs = RUNS[rows] ?? 3
      results.push({
        rows,
        fileBytes: workbook.data.length,
        sheetBytes: workbook.sheetBytes,
        runs,
        ours: measureInChild('analyse', file, runs),
        sheetjs: measureInChild('sheetjs', file, runs),
      })
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return results
}

function measureInChild(job: Job, file: string, runs: number): Measurement {
  const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', self, '--measure', job, file, String(runs)], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  })
  if (child.status !== 0) throw new Error(`grades bench (${job}) failed: ${child.stderr}`)
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Measurement
}

/** In the child: run the job `runs` times on the file and print the figures as JSON. */
async function measure(job: Job, file: string, runs: number) {
  const data = readFileSync(file)
  let analyseMs = 0
  const run: () => void =
    job === 'analyse'
      ? await (async () => {
          const { readSheet } = await import('#app/server/xlsx/read.server.ts')
          const { analyseGrades, gradesSheetNames } = await import('#app/features/grades/index.ts')
          const options = { preferredSheets: gradesSheetNames, maxUncompressedBytes: 200 << 20, maxRows: 500_000, timeBudgetMs: 60_000 }
          return () => {
            const sheet = readSheet(data, options)
            const t0 = performance.now()
            analyseGrades(sheet.rows, { sheetName: sheet.sheetName })
            analyseMs = performance.now() - t0
          }
        })()
      : await (async () => {
          const XLSX = await import('@e965/xlsx')
          return () => {
            XLSX.read(data, { type: 'buffer' })
          }
        })()
  const gc = (globalThis as { gc?: () => void }).gc
  gc?.()
  const before = process.memoryUsage().rss
  let t0 = performance.now()
  run()
  const firstMs = performance.now() - t0
  const peakMb = (process.resourceUsage().maxRSS * 1024 - before) / (1 << 20)
  const times: { total: number; analyse: number }[] = []
  for (let i = 1; i < runs; i++) {
    t0 = performance.now()
    run()
    times.push({ total: performance.now() - t0, analyse: analyseMs })
  }
  const middle = times.toSorted((a, b) => a.total - b.total)[Math.floor(times.length / 2)]
  const result: Measurement = {
    medianMs: middle ? median(times.map((t) => t.total)) : firstMs,
    firstMs,
    peakMb: Math.max(0, peakMb),
    ...(job === 'analyse' && { analyseMs: middle?.analyse ?? analyseMs }),
  }
  console.log(JSON.stringify(result))
}

if (process.argv[2] === '--measure' && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await measure(process.argv[3] as Job, process.argv[4]!, Number(process.argv[5]))
}
