// Reading the 100,000-row daily absence workbook saved as .xls and as CSV: readWorkbook
// (app/platform/workbook-reading) against SheetJS reading the same file, in the same run. The
// files hold the rows of the sample-layout workbook the xlsx rows read. BIFF8 holds 65,536 rows
// a sheet, so the .xls splits the records over two sheets, each with its title block and
// header, as Noor's report viewer does (written by tests/support/workbooks.ts: SheetJS's own
// .xls writer needs gigabytes for this size); the CSV is Windows-1256 with semicolons, as
// Noor's absence report comes. Each measurement runs in its own process.
//
//   npx tsx bench/containers.ts    these rows alone
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import * as XLSX from '@e965/xlsx'
import { readSheet } from '#app/platform/workbook-reading/read-workbook.server.ts'
import { isExcelDate, type CellValue, type SheetRow } from '#app/platform/xlsx/types.ts'
import { buildXls, encodeWindows1256, type XlsCell } from '#tests/support/workbooks.ts'
import { absenceWorkbook } from '#tests/support/absence-workbook.ts'
import { measureInChild, timeRuns, type Timing } from './measure.ts'

const ROWS = 100_000
const RUNS = 5
const XLS_SHEETS = 2
type Library = 'hallil' | 'sheetjs'
type Container = 'xls' | 'csv'

export interface ContainerBenchResult {
  readonly container: Container
  readonly rows: number
  readonly sheets: number
  readonly fileBytes: number
  readonly runs: number
  readonly ours: Measurement
  readonly sheetjs: Measurement
}

interface Measurement extends Timing {
  readonly rowsRead: number
}

const self = fileURLToPath(import.meta.url)

const xlsCell = (cell: CellValue): XlsCell => (isExcelDate(cell) ? { date: cell.serial } : cell)
/** A date as the sample's teachers type it in a CSV. */
const csvText = (cell: CellValue): string => {
  if (cell === null) return ''
  if (isExcelDate(cell)) return new Date(Math.round((cell.serial - 25_569) * 86_400_000)).toISOString().slice(0, 10).replaceAll('-', '/')
  const text = String(cell)
  return /[;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** The sample-layout workbook's rows, saved as .xls (two sheets) and as a Windows-1256 CSV. */
function makeFiles(dir: string): Record<Container, { file: string; bytes: number; sheets: number }> {
  const source = absenceWorkbook({ rows: ROWS })
  const { rows } = readSheet(source.data, {
    preferredSheets: ['الغياب'],
    maxUncompressedBytes: 200 << 20,
    maxRows: 500_000,
    timeBudgetMs: 60_000,
  })
  const header = rows.slice(0, 4)
  const records = rows.slice(4)
  const grid = (part: readonly SheetRow[]) => {
    const out: XlsCell[][] = Array.from({ length: part.at(-1)!.row }, () => [])
    for (const row of part) out[row.row - 1] = row.cells.map(xlsCell)
    return out
  }
  const perSheet = Math.ceil(records.length / XLS_SHEETS)
  const xlsSheets = Array.from({ length: XLS_SHEETS }, (_v, s) => {
    const part = records.slice(s * perSheet, (s + 1) * perSheet).map((r, i) => ({ row: header.at(-1)!.row + 1 + i, cells: r.cells }))
    return { name: `الغياب ${s + 1}`, rows: grid([...header, ...part]) }
  })
  const xls = path.join(dir, 'absence.xls')
  writeFileSync(xls, buildXls(xlsSheets))

  const lines: string[] = []
  for (const row of rows) {
    while (lines.length < row.row - 1) lines.push('')
    lines.push(row.cells.map(csvText).join(';'))
  }
  const csv = path.join(dir, 'absence.csv')
  writeFileSync(csv, encodeWindows1256(`${lines.join('\r\n')}\r\n`))
  return {
    xls: { file: xls, bytes: readFileSync(xls).length, sheets: XLS_SHEETS },
    csv: { file: csv, bytes: readFileSync(csv).length, sheets: 1 },
  }
}

export async function benchContainers(): Promise<ContainerBenchResult[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'hallil-bench-containers-'))
  try {
    const files = makeFiles(dir)
    return (['xls', 'csv'] as const).map((container) => ({
      container,
      rows: ROWS,
      sheets: files[container].sheets,
      fileBytes: files[container].bytes,
      runs: RUNS,
      ours: measureInChild<Measurement>(self, ['hallil', container, files[container].file, String(RUNS)], `${container} (hallil)`),
      sheetjs: measureInChild<Measurement>(self, ['sheetjs', container, files[container].file, String(RUNS)], `${container} (sheetjs)`),
    }))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The table rows of these results, as `npm run bench` prints them. */
export function containerRows(results: readonly ContainerBenchResult[]): Array<[string, string]> {
  const mb = (bytes: number) => `${(bytes / (1 << 20)).toFixed(1)} MB`
  const ms = (value: number) => `${Math.round(value).toLocaleString('en')} ms`
  return results.flatMap((r) => {
    const size = `${r.rows.toLocaleString('en')} rows, ${mb(r.fileBytes)} .${r.container}${r.sheets > 1 ? ` (${r.sheets} sheets)` : ''}`
    return [
      [
        `${size}: readWorkbook, median of ${r.runs - 1} warm (first ${ms(r.ours.firstMs)})`,
        `${ms(r.ours.medianMs)}, peak +${r.ours.peakMb.toFixed(0)} MB`,
      ],
      [
        `${size}: SheetJS read, median of ${r.runs - 1} warm (first ${ms(r.sheetjs.firstMs)})`,
        `${ms(r.sheetjs.medianMs)}, peak +${r.sheetjs.peakMb.toFixed(0)} MB`,
      ],
      [
        `${size}: readWorkbook / SheetJS (time, memory)`,
        `${(r.ours.medianMs / r.sheetjs.medianMs).toFixed(2)}, ${(r.ours.peakMb / Math.max(1, r.sheetjs.peakMb)).toFixed(2)}`,
      ],
    ] satisfies Array<[string, string]>
  })
}

/** In the child: read the file `runs` times with one library and print the figures as JSON. */
async function measure(library: Library, container: Container, file: string, runs: number) {
  const data = readFileSync(file)
  let read: () => number
  if (library === 'hallil') {
    const { readWorkbook } = await import('#app/platform/workbook-reading/read-workbook.server.ts')
    const options = { maxUncompressedBytes: 200 << 20, maxRows: 500_040, maxSheets: 1000, timeBudgetMs: 60_000 }
    read = () => readWorkbook(data, options).sheets.reduce((sum, s) => sum + s.rows.length, 0)
  } else {
    if (container === 'csv') XLSX.set_cptable(await import('@e965/xlsx/dist/cpexcel.full.mjs'))
    const options: XLSX.ParsingOptions =
      container === 'csv' ? { type: 'buffer', dense: true, raw: true, codepage: 1256 } : { type: 'buffer', dense: true }
    read = () => {
      const workbook = XLSX.read(data, options)
      return workbook.SheetNames.reduce(
        (sum, name) => sum + ((workbook.Sheets[name] as { '!data'?: unknown[] })['!data']?.filter(Boolean).length ?? 0),
        0,
      )
    }
  }
  let rowsRead = 0
  const timing = timeRuns(() => {
    rowsRead = read()
  }, runs)
  console.log(JSON.stringify({ ...timing, rowsRead } satisfies Measurement))
}

const isMain = import.meta.url === pathToFileURL(process.argv[1] ?? '').href
if (isMain && process.argv[2] === '--measure') {
  await measure(process.argv[3] as Library, process.argv[4] as Container, process.argv[5]!, Number(process.argv[6]))
} else if (isMain) {
  const rows = containerRows(await benchContainers())
  const width = Math.max(...rows.map(([k]) => k.length))
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`)
}
