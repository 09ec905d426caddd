// The grades analysis (docs/grades.md): reading a sample-layout grades workbook with
// app/platform/workbook-reading/read-workbook.server.ts and analysing it, against SheetJS (@e965/xlsx) merely reading
// the same file. Each measurement runs in its own process, so its peak memory (Linux's VmHWM − RSS
// before the first run) is its own. Figures, not assertions.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { gradesWorkbook } from './grades-workbook.ts'
import { measureInChild, timeRuns, type Timing } from './measure.ts'

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

interface Measurement extends Timing {
  /** Of the analysis's median run: the part spent in analyseGrades. */
  readonly analyseMs?: number
}

const self = fileURLToPath(import.meta.url)

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
        ours: measureInChild<Measurement>(self, ['analyse', file, String(runs)], 'grades (analyse)'),
        sheetjs: measureInChild<Measurement>(self, ['sheetjs', file, String(runs)], 'grades (sheetjs)'),
      })
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return results
}

/** In the child: run the job `runs` times on the file and print the figures as JSON. */
async function measure(job: Job, file: string, runs: number) {
  const data = readFileSync(file)
  const run: () => number | void =
    job === 'analyse'
      ? await (async () => {
          const { readSheet } = await import('#app/platform/workbook-reading/read-workbook.server.ts')
          const { analyseGrades, gradesSheetNames } = await import('#app/features/grades/index.ts')
          const options = { preferredSheets: gradesSheetNames, maxUncompressedBytes: 200 << 20, maxRows: 500_000, timeBudgetMs: 60_000 }
          return () => {
            const sheet = readSheet(data, options)
            const t0 = performance.now()
            analyseGrades(sheet.rows, { sheetName: sheet.sheetName })
            return performance.now() - t0
          }
        })()
      : await (async () => {
          const XLSX = await import('@e965/xlsx')
          return () => {
            XLSX.read(data, { type: 'buffer' })
          }
        })()
  const timing = timeRuns(run, runs)
  const result: Measurement = {
    medianMs: timing.medianMs,
    firstMs: timing.firstMs,
    peakMb: timing.peakMb,
    ...(job === 'analyse' && { analyseMs: timing.partMs }),
  }
  console.log(JSON.stringify(result))
}

if (process.argv[2] === '--measure' && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await measure(process.argv[3] as Job, process.argv[4]!, Number(process.argv[5]))
}
