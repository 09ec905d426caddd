// Test-only: reads a fixture workbook into the reader's SheetRow contract with SheetJS, until the
// project's own reader (app/server/xlsx/read.server.ts) is in; then switch this one file to it.
import { readFileSync } from 'node:fs'
import * as XLSX from '@e965/xlsx'
import type { CellValue, SheetRow } from '#app/server/xlsx/types.ts'

const preferredSheets = ['الغياب', 'Absence']
const excelEpochMs = Date.UTC(1899, 11, 30)

function cellValue(cell: XLSX.CellObject | undefined): CellValue {
  if (!cell) return null
  switch (cell.t) {
    case 's':
      return typeof cell.v === 'string' ? cell.v : String(cell.v ?? '')
    case 'b':
      return Boolean(cell.v)
    case 'n': {
      const value = Number(cell.v)
      return typeof cell.z === 'string' && XLSX.SSF.is_date(cell.z) ? { kind: 'date', serial: value } : value
    }
    case 'd':
      return cell.v instanceof Date ? { kind: 'date', serial: (cell.v.getTime() - excelEpochMs) / 86_400_000 } : null
    default:
      return null
  }
}

/** The rows of a workbook's absence sheet (else its first sheet), numbered as Excel shows them. */
export function readTestRows(file: string, preferred: readonly string[] = preferredSheets): { sheetName: string; rows: SheetRow[] } {
  const workbook = XLSX.read(readFileSync(file), { type: 'buffer', cellNF: true, cellDates: false })
  const sheetName = preferred.find((name) => workbook.SheetNames.includes(name)) ?? workbook.SheetNames[0]
  const sheet = sheetName === undefined ? undefined : workbook.Sheets[sheetName]
  if (!sheet || sheetName === undefined || !sheet['!ref']) return { sheetName: sheetName ?? '', rows: [] }
  const range = XLSX.utils.decode_range(sheet['!ref'])
  const rows: SheetRow[] = []
  for (let r = range.s.r; r <= range.e.r; r++) {
    const cells: CellValue[] = []
    for (let c = 0; c <= range.e.c; c++) cells.push(cellValue(sheet[XLSX.utils.encode_cell({ r, c })] as XLSX.CellObject | undefined))
    while (cells.length > 0 && cells.at(-1) === null) cells.pop()
    if (cells.length > 0) rows.push({ row: r + 1, cells })
  }
  return { sheetName, rows }
}
