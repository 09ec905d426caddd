// Reading an uploaded workbook: app/platform/workbook-reading/read-workbook.server.ts against SheetJS (@e965/xlsx, a
// dev dependency used here and in tests only) on sample-layout attendance workbooks. Each
// measurement runs in its own process, so its peak memory (Linux's VmHWM − RSS before the first read)
// is its own. Figures, not assertions.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { absenceWorkbook } from '#tests/support/absence-workbook.ts'
import { measureInChild, timeRuns, type Timing } from './measure.ts'

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

interface Measurement extends Timing {
  readonly rowsRead: number
}

const self = fileURLToPath(import.meta.url)

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
        ours: measureInChild<Measurement>(self, ['hallil', file, String(runs)], 'xlsx (hallil)'),
        sheetjs: measureInChild<Measurement>(self, ['sheetjs', file, String(runs)], 'xlsx (sheetjs)'),
      })
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return results
}

/** In the child: read the file `runs` times with one library and print the figures as JSON. */
async function measure(library: Library, file: string, runs: number) {
  const data = readFileSync(file)
  const read: () => number =
    library === 'hallil'
      ? await (async () => {
          const { readSheet } = await import('#app/platform/workbook-reading/read-workbook.server.ts')
          const options = {
            preferredSheets: ['الغياب', 'Absence'],
            maxUncompressedBytes: 200 << 20,
            maxRows: 500_000,
            timeBudgetMs: 60_000,
          }
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
  let rowsRead = 0
  const timing = timeRuns(() => {
    rowsRead = read()
  }, runs)
  const result: Measurement = { ...timing, rowsRead }
  console.log(JSON.stringify(result))
}

if (process.argv[2] === '--measure' && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await measure(process.argv[3] as Library, process.argv[4]!, Number(process.argv[5]))
}
