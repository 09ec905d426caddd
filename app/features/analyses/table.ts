import type { MergedRange } from '#app/platform/workbook-reading/grid.ts'
import { isExcelDate, type CellValue, type SheetRow } from '#app/platform/xlsx/types.ts'
import { fromExcelSerial } from './dates.ts'
import { cleanText, hasArabic, normalizeLabel } from './normalize.ts'

/**
 * Finds a table in one sheet by its header words, never by position (docs/noor-layouts.md,
 * "Finding a table"): the header row is the first row, within the first 40, holding every
 * required column; a header matches when it is an accepted text or contains one as whole words
 * (the longest accepted text winning, so `جيد جدا` is not `جيد`); columns come in any order,
 * with spacer columns and merged headers between them; label/value pairs above the header row
 * form the title block; lines under the table after a blank row (signatures, print date) are
 * not data.
 */

export interface ColumnSpec {
  /** Accepted header texts, compared after normalisation and lower-casing. */
  readonly headers: readonly string[]
  readonly required: boolean
}

export interface TableSpec<K extends string, L extends string> {
  readonly columns: Readonly<Record<K, ColumnSpec>>
  /** Title-block labels: key → accepted label texts (a label matches the whole cell). */
  readonly titleLabels: Readonly<Record<L, readonly string[]>>
  /** The header row must be at or above this Excel row (40). */
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
  /** The rows below the header row that hold at least one value, up to the table's footer. */
  readonly rows: readonly SheetRow[]
}

export interface TableNotFound<K extends string> {
  readonly found: false
  /** The required columns missing from the row that came closest (all of them when none matched). */
  readonly missing: readonly K[]
  /** The row that came closest (Excel's number), when any row held at least one required header. */
  readonly closestRow?: number
  /** The required columns that row does hold. */
  readonly matched?: readonly K[]
}

export type TableLookup<K extends string, L extends string> = LocatedTable<K, L> | TableNotFound<K>

export const defaultHeaderWithin = 40

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

/** A header or label as compared: normalised, lower-cased, `_` read as a space. */
export function headerLabel(value: CellValue | undefined): string {
  if (typeof value !== 'string') return ''
  const label = normalizeLabel(value)
  return label.includes('_') ? label.replace(/_+/g, ' ').replace(/ {2,}/g, ' ').trim() : label
}

/** Accepted texts of several keys, compared whole or as whole words inside a longer header. */
export class HeaderWords<K extends string> {
  private readonly exact = new Map<string, K>()
  /** Longest first, so the longest contained text wins. */
  private readonly words: Array<{ readonly padded: string; readonly key: K }> = []
  private readonly cache = new Map<string, K | null>()

  constructor(lists: Readonly<Record<K, readonly string[]>>, what: string) {
    for (const key of Object.keys(lists) as K[]) {
      for (const text of lists[key]) {
        const label = headerLabel(text)
        const other = this.exact.get(label)
        if (other !== undefined && other !== key) throw new Error(`${what} "${text}" is accepted for both ${other} and ${key}`)
        this.exact.set(label, key)
        this.words.push({ padded: ` ${label} `, key })
      }
    }
    this.words.sort((a, b) => b.padded.length - a.padded.length)
  }

  /** The key whose text is the whole label. */
  whole(label: string): K | undefined {
    return this.exact.get(label)
  }

  /** The key of a header cell: its whole text, else the longest accepted text it contains as words. */
  match(value: CellValue | undefined): K | undefined {
    const label = headerLabel(value)
    if (label === '') return undefined
    let key = this.cache.get(label)
    if (key === undefined) {
      key = this.exact.get(label) ?? null
      if (key === null) {
        const padded = ` ${label
          .replace(/[():/\\|-]/g, ' ')
          .replace(/ {2,}/g, ' ')
          .trim()} `
        key = this.words.find((word) => padded.includes(word.padded))?.key ?? null
      }
      if (this.cache.size > 10_000) this.cache.clear()
      this.cache.set(label, key)
    }
    return key ?? undefined
  }
}

interface HeaderMatch<K extends string> {
  readonly columns: Partial<Record<K, number>>
  readonly requiredFound: number
  readonly arabic: number
  readonly matched: number
}

function matchHeaders<K extends string>(row: SheetRow, headers: HeaderWords<K>, required: ReadonlySet<K>): HeaderMatch<K> {
  const columns: Partial<Record<K, number>> = {}
  let requiredFound = 0
  let arabic = 0
  let matched = 0
  row.cells.forEach((cell, index) => {
    const key = headers.match(cell)
    if (key === undefined || columns[key] !== undefined) return // the first column with a header wins
    columns[key] = index
    matched++
    if (required.has(key)) requiredFound++
    if (typeof cell === 'string' && hasArabic(cell)) arabic++
  })
  return { columns, requiredFound, arabic, matched }
}

// ---- the title block ------------------------------------------------------------------------

const latinWords = /[a-z][a-z .'&-]*/g

/** A title cell as a label: without `:`, and without an English translation beside Arabic words. */
function titleLabel(value: CellValue | undefined): string {
  let label = headerLabel(value).replace(/:/g, ' ')
  if (hasArabic(label)) label = label.replace(latinWords, ' ').replace(/[()/\\|]/g, ' ')
  return label.replace(/ {2,}/g, ' ').trim()
}

const isColonCell = (value: CellValue | undefined) => typeof value === 'string' && /^\s*[:：]\s*$/.test(value)

function titleValue(value: CellValue | undefined): string {
  return isExcelDate(value ?? null) ? cellText(value) : cleanText(cellText(value))
}

/**
 * The title block: `label: value` in one cell; or the label, an optional `:` cell, and the value
 * in the nearest non-empty cell either side (the side of the `:` when there is one; to the right
 * on a tie, as the sample is written). Merged cells hold their value in their first cell, so
 * they need nothing more here.
 */
export function readTitle<L extends string>(rows: readonly SheetRow[], labels: HeaderWords<L>): Partial<Record<L, string>> {
  const title: Partial<Record<L, string>> = {}
  const labelOf = (cell: CellValue | undefined) => (typeof cell === 'string' ? labels.whole(titleLabel(cell)) : undefined)
  for (const { cells } of rows) {
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[i]
      if (typeof cell !== 'string') continue
      const written = cleanText(cell)
      const colon = written.search(/[:：]/)
      const key = labelOf(cell) ?? (colon > 0 ? labels.whole(titleLabel(written.slice(0, colon))) : undefined)
      if (key === undefined || title[key] !== undefined) continue
      // `label : value` in one cell (the value as written) …
      if (colon !== -1 && labels.whole(titleLabel(written.slice(0, colon))) === key) {
        const inline = written.slice(colon + 1).trim()
        if (inline) {
          title[key] = inline
          continue
        }
      }
      // … or the value in a cell of its own.
      const value = nearestValue(cells, i, (c) => labelOf(c) !== undefined)
      if (value !== undefined) {
        const text = titleValue(value)
        if (text) title[key] = text
      }
    }
  }
  return title
}

function nearestValue(cells: readonly CellValue[], at: number, isLabel: (cell: CellValue | undefined) => boolean): CellValue | undefined {
  const scan = (step: 1 | -1) => {
    let j = at + step
    let colon = false
    while (j >= 0 && j < cells.length && (isBlankCell(cells[j]) || isColonCell(cells[j]))) {
      if (isColonCell(cells[j])) colon = true
      j += step
    }
    const found = j >= 0 && j < cells.length && !isLabel(cells[j])
    return { found, distance: Math.abs(j - at), colon, value: found ? cells[j] : undefined }
  }
  const right = scan(1)
  const left = scan(-1)
  if (right.colon !== left.colon) return right.colon ? right.value : left.value
  if (right.found && left.found) return right.distance <= left.distance ? right.value : left.value
  return right.found ? right.value : left.value
}

// ---- the table ------------------------------------------------------------------------------

/**
 * Data cells under a header merged over several columns may sit in any of its columns: moves
 * the first value found in the header's span into the header's own column.
 */
function spansOf<K extends string>(
  columns: Partial<Record<K, number>>,
  headerRow: number,
  merges: readonly MergedRange[],
): Array<[number, number]> {
  const spans: Array<[number, number]> = []
  for (const column of Object.values(columns) as number[]) {
    const merge = merges.find((m) => m.firstRow <= headerRow && m.lastRow >= headerRow && m.firstColumn === column && m.lastColumn > column)
    if (merge) spans.push([column, merge.lastColumn])
  }
  return spans
}

function gatherSpans(row: SheetRow, spans: ReadonlyArray<[number, number]>): SheetRow {
  let cells: CellValue[] | null = null
  for (const [first, last] of spans) {
    if (!isBlankCell(row.cells[first])) continue
    for (let c = first + 1; c <= last; c++) {
      if (isBlankCell(row.cells[c])) continue
      cells ??= [...row.cells]
      cells[first] = row.cells[c] ?? null
      break
    }
  }
  return cells ? { row: row.row, cells } : row
}

/** Finds the header row, maps the columns, reads the title block and returns the data rows. */
export function locateTable<K extends string, L extends string>(
  rows: readonly SheetRow[],
  spec: TableSpec<K, L>,
  merges: readonly MergedRange[] = [],
): TableLookup<K, L> {
  const keys = Object.keys(spec.columns) as K[]
  const required = new Set(keys.filter((key) => spec.columns[key].required))
  const headers = headerWordsOf(spec)
  const within = spec.headerWithin ?? defaultHeaderWithin

  let best: HeaderMatch<K> | undefined
  let bestRow = 0
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
    if (!best || match.requiredFound > best.requiredFound) {
      best = match
      bestRow = row.row
    }
  }

  if (headerIndex === -1 || !best) {
    const found: Partial<Record<K, number>> = best?.columns ?? {}
    const missing = keys.filter((key) => required.has(key) && found[key] === undefined)
    const matched = keys.filter((key) => required.has(key) && found[key] !== undefined)
    return matched.length ? { found: false, missing, closestRow: bestRow, matched } : { found: false, missing }
  }

  const header = rows[headerIndex] as SheetRow
  const spans = spansOf(best.columns, header.row, merges)
  const located = Object.values(best.columns) as number[]
  const data: SheetRow[] = []
  let previous = header.row
  for (let i = headerIndex + 1; i < rows.length; i++) {
    const row = rows[i] as SheetRow
    // A line after a blank row that fills fewer than two of the table's columns is the footer
    // (the school leader's name, the print date, the page number): the table ends there.
    if (row.row > previous + 1 && located.filter((c) => !isBlankCell(row.cells[c])).length < Math.min(2, located.length)) break
    previous = row.row
    if (row.cells.some((cell) => !isBlankCell(cell))) data.push(spans.length ? gatherSpans(row, spans) : row)
  }
  return {
    found: true,
    headerRow: header.row,
    columns: best.columns,
    headerLanguage: best.arabic * 2 >= best.matched ? 'ar' : 'en',
    title: readTitle(rows.slice(0, headerIndex), titleWordsOf(spec)),
    rows: data,
  }
}

const headerWordsCache = new WeakMap<object, HeaderWords<string>>()
const titleWordsCache = new WeakMap<object, HeaderWords<string>>()

function headerWordsOf<K extends string, L extends string>(spec: TableSpec<K, L>): HeaderWords<K> {
  let words = headerWordsCache.get(spec.columns)
  if (!words) {
    const keys = Object.keys(spec.columns) as K[]
    words = new HeaderWords(
      Object.fromEntries(keys.map((key) => [key, spec.columns[key].headers])) as Record<K, readonly string[]>,
      'Header',
    )
    headerWordsCache.set(spec.columns, words)
  }
  return words as HeaderWords<K>
}

function titleWordsOf<K extends string, L extends string>(spec: TableSpec<K, L>): HeaderWords<L> {
  let words = titleWordsCache.get(spec.titleLabels)
  if (!words) {
    words = new HeaderWords(spec.titleLabels, 'Title label')
    titleWordsCache.set(spec.titleLabels, words)
  }
  return words as HeaderWords<L>
}
