/**
 * The one shape every uploaded file is read into, whatever its container (.xlsx, .xls, .csv):
 * sheets of rows of cell values, with their merged ranges. Everything above this line (finding
 * tables, title blocks, layouts, figures) is the same for every container. Kept free of Node
 * imports so domain code can use it.
 */
import type { SheetRow } from '#app/platform/xlsx/types.ts'

export type { CellValue, ExcelDate, SheetRow } from '#app/platform/xlsx/types.ts'

/** A block of merged cells: rows as Excel shows them (1-based), columns 0-based (0 = A), both ends included. */
export interface MergedRange {
  readonly firstRow: number
  readonly lastRow: number
  readonly firstColumn: number
  readonly lastColumn: number
}

export interface SheetGrid {
  /** The sheet's name as written in the workbook; null for a CSV file, which has no sheets. */
  readonly name: string | null
  /** Rows holding at least one value, in order; see SheetRow. */
  readonly rows: readonly SheetRow[]
  readonly merges: readonly MergedRange[]
}

export type WorkbookContainer = 'xlsx' | 'xls' | 'csv'

export interface WorkbookGrid {
  readonly container: WorkbookContainer
  /** Worksheets in workbook order (chart and macro sheets left out). */
  readonly sheets: readonly SheetGrid[]
}

/** The longest CSV line accepted: a row of Noor's reports is under 1 KB; a longer line is not a table. */
export const CSV_MAX_LINE_BYTES = 1 << 20

export interface ReadWorkbookOptions {
  /** Refuse a zip before inflating when its uncompressed total exceeds this; for .xls and .csv, the decoded size. */
  readonly maxUncompressedBytes: number
  /** Refuse the file when all its sheets together hold more rows than this. */
  readonly maxRows: number
  /** Refuse the file when it has more worksheets than this. */
  readonly maxSheets: number
  /** Give up (error code `timeout`) after this many milliseconds of work. */
  readonly timeBudgetMs: number
}
