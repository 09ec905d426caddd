/**
 * The contract between the workbook reader, the writer and the analyses that
 * consume their rows. Kept free of Node imports so domain code can use it.
 */

/** A cell whose number is formatted as a date in the workbook (Excel serial, 1900 system). */
export interface ExcelDate {
  readonly kind: 'date'
  /** Days since 1899-12-30, as stored by Excel (fraction = time of day). */
  readonly serial: number
}

export type CellValue = string | number | boolean | ExcelDate | null

export interface SheetRow {
  /** The row number as Excel shows it (1-based). */
  readonly row: number
  /** Cells by column, index 0 = column A; trailing empties may be absent. */
  readonly cells: readonly CellValue[]
}

export interface ReadSheetOptions {
  /** Sheet names to prefer, in order; the first sheet otherwise. */
  readonly preferredSheets?: readonly string[]
  /** Refuse the file before inflating when its uncompressed total exceeds this. */
  readonly maxUncompressedBytes: number
  /** Refuse the file when the sheet holds more rows than this (header and title block included). */
  readonly maxRows: number
  /** Give up (error code `timeout`) after this many milliseconds of work. */
  readonly timeBudgetMs: number
}

export interface ReadSheetResult {
  readonly sheetName: string
  readonly rows: readonly SheetRow[]
}

export const XLSX_ERROR_CODES = [
  /** Not a workbook we can read: not a zip, an OLE or text file; broken container, DTD, binary bytes in a CSV, no sheet. */
  'format',
  /** An encrypted (password-protected) workbook. */
  'encrypted',
  /** Uncompressed total, entry count or compression ratio over the limits (zip bomb guard); for .xls and .csv, the decoded size. */
  'too_large',
  /** More rows than maxRows (all sheets together). */
  'too_many_rows',
  /** More worksheets than maxSheets. */
  'too_many_sheets',
  /** A CSV line longer than CSV_MAX_LINE_BYTES. */
  'line_too_long',
  /** A CSV file mixing UTF-8 with another encoding (bytes invalid in UTF-8 beside valid UTF-8 Arabic). */
  'mixed_encoding',
  /** The time budget ran out. */
  'timeout',
] as const

/** Why a file could not be read; the same codes for every container (.xlsx, .xls, .csv). */
export type XlsxErrorCode = (typeof XLSX_ERROR_CODES)[number]

export class XlsxError extends Error {
  readonly code: XlsxErrorCode
  constructor(code: XlsxErrorCode, detail?: string) {
    super(detail ? `${code}: ${detail}` : code)
    this.name = 'XlsxError'
    this.code = code
  }
}

export function isExcelDate(value: CellValue): value is ExcelDate {
  return typeof value === 'object' && value !== null && value.kind === 'date'
}
