import { XlsxError, type ReadSheetOptions, type ReadSheetResult } from '#app/platform/xlsx/types.ts'
import { Clock } from './clock.ts'
import type { ReadWorkbookOptions, WorkbookGrid } from './grid.ts'
import { isEncryptedPackage, looksLikeOle } from './ole.server.ts'
import { readCsv } from './read-csv.server.ts'
import { openXlsx, readXlsxSheets } from './read-xlsx.server.ts'
import { readXls } from './read-xls.server.ts'
import { looksLikeZip } from './zip.server.ts'

export { CSV_MAX_LINE_BYTES } from './grid.ts'
export { MAX_MERGES } from './sheet-scanner.server.ts'
export { isDateFormatCode } from './workbook-parts.server.ts'
export { XLSX_READ_LIMITS } from './zip.server.ts'

/**
 * Reads an uploaded file into sheets of cell values, whatever its container: the bytes decide
 * (a zip is an .xlsx, an OLE compound file an .xls or an encrypted workbook, text a CSV),
 * never the file's name. Synchronous and CPU-bound: run it in a worker for uploads (see
 * worker-pool.server.ts). Throws `XlsxError`: `format`, `encrypted`, `too_large`,
 * `too_many_rows`, `too_many_sheets`, `line_too_long`, `mixed_encoding`, `timeout`.
 */
export function readWorkbook(data: Uint8Array, options: ReadWorkbookOptions): WorkbookGrid {
  const clock = new Clock(options.timeBudgetMs)
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  return unreadableAsFormat(() => {
    if (looksLikeZip(buf))
      return {
        container: 'xlsx',
        sheets: readXlsxSheets(openXlsx(buf, options.maxUncompressedBytes, clock, options.maxSheets), options.maxRows),
      }
    if (looksLikeOle(buf)) {
      if (isEncryptedPackage(buf)) throw new XlsxError('encrypted', 'a password-protected workbook')
      return { container: 'xls', sheets: readXls(buf, options, clock) }
    }
    // Anything else must be text: the CSV reader refuses binary content.
    return { container: 'csv', sheets: [readCsv(buf, options, clock)] }
  })
}

/**
 * Reads the preferred sheet (else the first) of an .xlsx file into rows of values; other
 * containers are refused with `format`. For callers that want one sheet of the sample layout.
 */
export function readSheet(data: Uint8Array, options: ReadSheetOptions): ReadSheetResult {
  const clock = new Clock(options.timeBudgetMs)
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  return unreadableAsFormat(() => {
    if (looksLikeOle(buf)) {
      if (isEncryptedPackage(buf)) throw new XlsxError('encrypted', 'a password-protected workbook')
      throw new XlsxError('format', 'an OLE compound file (.xls or another Office 97–2003 document)')
    }
    if (!looksLikeZip(buf)) throw new XlsxError('format', 'not a zip file')
    const book = openXlsx(buf, options.maxUncompressedBytes, clock)
    const index = chooseSheet(book.sheets, options.preferredSheets ?? [])
    const { rows } = book.readSheet(index, { rowsRead: 0, maxRows: options.maxRows, merges: 0 })
    return { sheetName: book.sheets[index]!.name, rows }
  })
}

function unreadableAsFormat<T>(read: () => T): T {
  try {
    return read()
  } catch (error) {
    if (error instanceof XlsxError) throw error
    // A corrupt file can trip anything below (a bad offset, an invalid deflate stream): it is
    // still a file we cannot read, never a server error.
    throw new XlsxError('format', error instanceof Error ? error.message : 'unreadable')
  }
}

function chooseSheet(sheets: ReadonlyArray<{ readonly name: string }>, preferred: readonly string[]): number {
  for (const name of preferred) {
    const exact = sheets.findIndex((s) => s.name === name)
    if (exact >= 0) return exact
    const loose = sheets.findIndex((s) => s.name.trim().toLowerCase() === name.trim().toLowerCase())
    if (loose >= 0) return loose
  }
  return 0
}
