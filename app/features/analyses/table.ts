import { isExcelDate, type CellValue, type SheetRow } from '#app/server/xlsx/types.ts'
import { fromExcelSerial } from './dates.ts'
import { cleanText, hasArabic, normalizeLabel } from './normalize.ts'

/**
 * Finds the sample's table in a sheet (absence.md, "Table"): the header row is the first row,
 * within the first 30, holding every required column; columns come in any order and extra ones
 * are ignored; label/value pairs above it form the title block.
 */

export interface ColumnSpec {
  /** Accepted header texts, compared after normalisation and lower-casing. */
  readonly headers: readonly string[]
  readonly required: boolean
}

export interface TableSpec<K extends string, L extends string> {
  readonly columns: Readonly<Record<K, ColumnSpec>>
  /** Title-block labels: key → accepted label texts. */
  readonly titleLabels: Readonly<Record<L, readonly string[]>>
  /** The header row must be at or above this Excel row (30). */
  readonly headerWithin?: number
}

export interface LocatedTable<K extends string, L extends string> {
  readonly found: true
  /** The header row's number as Excel shows it. */
  readonly headerRow: number
  /** Column index (0 = A) of each column found; optional columns may be absent. */
  readonly columns: Readonly<Partial<Record<K, number>>>
  /** The language the headers are written in (Arabic when most matched headers are). */
  readonly headerLanguage: 'ar' | 'en'
  readonly title: Readonly<Partial<Record<L, string>>>
  /** The rows below the header row that hold at least one value. */
  readonly rows: readonly SheetRow[]
}

export interface TableNotFound<K extends string> {
  readonly found: false
  /** The required columns missing from the row that came closest (all of them when none matched). */
  readonly missing: readonly K[]
}

export type TableLookup<K extends string, L extends string> = LocatedTable<K, L> | TableNotFound<K>

export const defaultHeaderWithin = 30

/** A cell as text: strings as written, numbers in plain digits, Excel dates as ISO `YYYY-MM-DD`, empty as ''. */
export function cellText(value: CellValue | undefined): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return fromExcelSerial(value.serial)?.date ?? ''
}

/** Whether a cell holds nothing (missing, null or only white space). */
export function isBlankCell(value: CellValue | undefined): boolean {
  if (value === null || value === undefined) return true
  return typeof value === 'string' && value.trim() === ''
}

function invert<K extends string>(lists: Readonly<Record<K, readonly string[]>>, what: string): Map<string, K> {
  const out = new Map<string, K>()
  for (const key of Object.keys(lists) as K[]) {
    for (const text of lists[key]) {
      const label = normalizeLabel(text)
      const other = out.get(label)
      if (other !== undefined && other !== key) throw new Error(`${what} "${text}" is accepted for both ${other} and ${key}`)
      out.set(label, key)
    }
  }
  return out
}

function headerLabel(value: CellValue | undefined): string {
  return typeof value === 'string' ? normalizeLabel(value) : ''
}

interface HeaderMatch<K extends string> {
  readonly columns: Partial<Record<K, number>>
  readonly requiredFound: number
  readonly arabic: number
  readonly matched: number
}

function matchHeaders<K extends string>(row: SheetRow, headers: Map<string, K>, required: ReadonlySet<K>): HeaderMatch<K> {
  const columns: Partial<Record<K, number>> = {}
  let requiredFound = 0
  let arabic = 0
  let matched = 0
  row.cells.forEach((cell, index) => {
    const key = headers.get(headerLabel(cell))
    if (key === undefined || columns[key] !== undefined) return // the first column with a header wins
    columns[key] = index
    matched++
    if (required.has(key)) requiredFound++
    if (typeof cell === 'string' && hasArabic(cell)) arabic++
  })
  return { columns, requiredFound, arabic, matched }
}

function titleValue(value: CellValue | undefined): string {
  return isExcelDate(value ?? null) ? cellText(value) : cleanText(cellText(value))
}

function readTitle<L extends string>(rows: readonly SheetRow[], labels: Map<string, L>): Partial<Record<L, string>> {
  const title: Partial<Record<L, string>> = {}
  const isLabel = (cell: CellValue | undefined) => labels.has(headerLabel(cell).replace(/ ?:$/, ''))
  for (const { cells } of rows) {
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[i]
      if (typeof cell !== 'string') continue
      const text = normalizeLabel(cell)
      const colon = text.indexOf(':')
      const key = labels.get(colon === -1 ? text : text.slice(0, colon).trim())
      if (key === undefined || title[key] !== undefined) continue
      // `label : value` in one cell (the value as written) …
      const written = cleanText(cell)
      const inline = colon === -1 ? '' : written.slice(written.indexOf(':') + 1).trim()
      if (inline) {
        title[key] = inline
        continue
      }
      // … or the label in one cell and the value in the next one that holds something.
      let j = i + 1
      while (j < cells.length && isBlankCell(cells[j])) j++
      if (j < cells.length && !isLabel(cells[j])) {
        const value = titleValue(cells[j])
        if (value) title[key] = value
      }
    }
  }
  return title
}

/** Finds the header row, maps the columns, reads the title block and returns the data rows. */
export function locateTable<K extends string, L extends string>(rows: readonly SheetRow[], spec: TableSpec<K, L>): TableLookup<K, L> {
  const keys = Object.keys(spec.columns) as K[]
  const required = new Set(keys.filter((key) => spec.columns[key].required))
  const headers = invert(
    Object.fromEntries(keys.map((key) => [key, spec.columns[key].headers])) as Record<K, readonly string[]>,
    'Header',
  )
  const within = spec.headerWithin ?? defaultHeaderWithin

  let best: HeaderMatch<K> | undefined
  let headerIndex = -1
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as SheetRow
    if (row.row > within) break
    const match = matchHeaders(row, headers, required)
    if (match.requiredFound === required.size) {
      best = match
      headerIndex = i
      break
    }
    if (!best || match.requiredFound > best.requiredFound) best = match
  }

  if (headerIndex === -1 || !best) {
    const found: Partial<Record<K, number>> = best?.columns ?? {}
    return { found: false, missing: keys.filter((key) => required.has(key) && found[key] === undefined) }
  }

  const header = rows[headerIndex] as SheetRow
  const data: SheetRow[] = []
  for (let i = headerIndex + 1; i < rows.length; i++) {
    const row = rows[i] as SheetRow
    if (row.cells.some((cell) => !isBlankCell(cell))) data.push(row)
  }
  return {
    found: true,
    headerRow: header.row,
    columns: best.columns,
    headerLanguage: best.arabic * 2 >= best.matched ? 'ar' : 'en',
    title: readTitle(rows.slice(0, headerIndex), invert(spec.titleLabels, 'Title label')),
    rows: data,
  }
}
