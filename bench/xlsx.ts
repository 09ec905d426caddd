// Reading an uploaded workbook: app/server/xlsx/read.server.ts against SheetJS (@e965/xlsx, a
// dev dependency used here and in tests only) on sample-layout attendance workbooks. Each
// measurement runs in its own process, so its peak memory (maxRSS − RSS before the first read)
// is its own. Figures, not assertions.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { absenceWorkbook } from './absence-workbook.ts'

const SIZES = [1_000, 10_000, 100_000]
const RUNS: Record<number, number> = { 1_000: 15, 10_000: 7, 100_000: 5 }
type Library = 'hallil' | 'sheetjs'

export interface XlsxBenchResult {
  readonly rows: number
  readonly fileBytes: number
  readonly sheetBytes: number
  readonly runs: number
  readonly ours: Measurement
  readonly sheetjs: Measurement
}

interface Measurement {
  /** Median of the runs after the first (warm). */
  readonly medianMs: number
  readonly firstMs: number
  /** Peak resident memory above what the process held before reading. */
  readonly peakMb: number
  readonly rowsRead: number
}

const median = (xs: number[]) => xs.toSorted((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0
const self = fileURLToPath(import.meta.url)
const root = path.dirname(path.dirname(self))

export async function benchXlsx(): Promise<XlsxBenchResult[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'hallil-bench-xlsx-'))
  const results: XlsxBenchResult[] = []
  try {
    for (const rows of SIZES) {
      const workbook = absenceWorkbook({ rows })
      const file = path.join(dir, `absence-${rows}.xlsx`)
      writeFileSync(file, workbook.data)
      const runs = RUNS[rows] ?? 3
      results.push({
        rows,
        fileBytes: workbook.data.length,
        sheetBytes: workbook.sheetBytes,
        runs,
        ours: measureInChild('hallil', file, runs),
        sheetjs: measureInChild('sheetjs', file, runs),
      })
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return results
}

function measureInChild(library: Library, file: string, runs: number): Measurement {
  const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', self, '--measure', library, file, String(runs)], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  })
  if (child.status !== 0) throw new Error(`xlsx bench (${library}) failed: ${child.stderr}`)
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Measurement
}

/** In the child: read the file `runs` times with one library and print the figures as JSON. */
async function measure(library: Library, file: string, runs: number) {
  const data = readFileSync(file)
  const read: () => number =
    library === 'hallil'
      ? await (async () => {
          const { readSheet } = await import('#app/server/xlsx/read.server.ts')
          const options = { preferredSheets: ['الغياب', 'Absence'], maxUncompressedBytes: 200 << 20, maxRows: 500_000, timeBudgetMs: 60_000 }
          return () => readSheet(data, options).rows.length
        })()
      : await (async () => {
          const XLSX = await import('@e965/xlsx')
          return () => {
            const workbook = XLSX.read(data, { type: 'buffer' })
            const sheet = workbook.Sheets[workbook.SheetNames[0]!]!
            return XLSX.utils.decode_range(sheet['!ref'] ?? 'A1').e.r + 1
          }
        })()
  const gc = (globalThis as { gc?: () => void }).gc
  gc?.()
  const before = process.memoryUsage().rss
  let t0 = performance.now()
  const rowsRead = read()
  const firstMs = performance.now() - t0
  const peakMb = (process.resourceUsage().maxRSS * 1024 - before) / (1 << 20)
  const times: number[] = []
  for (let i = 1; i < runs; i++) {
    t0 = performance.now()
    read()
    times.push(performance.now() - t0)
  }
  const result: Measurement = { medianMs: times.length ? median(times) : firstMs, firstMs, peakMb: Math.max(0, peakMb), rowsRead }
  console.log(JSON.stringify(result))
}

if (process.argv[2] === '--measure' && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await measure(process.argv[3] as Library, process.argv[4]!, Number(process.argv[5]))
}
