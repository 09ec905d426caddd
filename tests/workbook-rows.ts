// Reads a fixture workbook with the project's own reader, as an upload would be read (the one
// place to change should the tests need another way in).
import { readFileSync } from 'node:fs'
import { readSheet } from '#app/platform/workbook-reading/read-workbook.server.ts'
import type { ReadSheetResult } from '#app/platform/xlsx/types.ts'

/** The rows of a workbook's preferred sheet (else its first sheet), numbered as Excel shows them. */
export function readWorkbookRows(file: string | Uint8Array, preferredSheets: readonly string[]): ReadSheetResult {
  const data = typeof file === 'string' ? readFileSync(file) : file
  return readSheet(data, { preferredSheets, maxUncompressedBytes: 200 * 1024 * 1024, maxRows: 500_000, timeBudgetMs: 30_000 })
}
