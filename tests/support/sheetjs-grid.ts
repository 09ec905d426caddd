// A second reader for tests: SheetJS reading a file into the cell-grid contract, so the
// analyses can be checked on a container independently of the project's own reader.
import { readFileSync } from 'node:fs'
import XLSX from '@e965/xlsx'
import type { CellValue, SheetGrid, SheetRow, WorkbookGrid } from '#app/server/workbook-reading/grid.ts'

export function sheetJsGrid(file: string): WorkbookGrid {
  const bytes = readFileSync(file)
  const isCsv = file.endsWith('.csv')
  const source = isCsv ? decodeCsv(bytes) : bytes
  const workbook = isCsv
    ? XLSX.read(source as string, { type: 'string', FS: (source as string).split('\n')[0]?.includes(';') ? ';' : ',', raw: true })
    : XLSX.read(source, { type: 'buffer', dense: true, raw: false })
  const sheets: SheetGrid[] = workbook.SheetNames.map((name) => {
    const sheet = workbook.Sheets[name] as XLSX.WorkSheet
    const dense = (sheet['!data'] ?? []) as (XLSX.CellObject | undefined)[][]
    const rows: SheetRow[] = []
    const range = sheet['!ref'] ? XLSX.utils.decode_range(sheet['!ref']) : null
    if (range) {
      for (let r = range.s.r; r <= range.e.r; r++) {
        const cells: CellValue[] = []
        let hasValue = false
        for (let c = 0; c <= range.e.c; c++) {
          const cell = dense[r]?.[c] ?? (sheet[XLSX.utils.encode_cell({ r, c })] as XLSX.CellObject | undefined)
          const value = cellValue(cell, isCsv)
          cells[c] = value
          if (value !== null && !(typeof value === 'string' && value.trim() === '')) hasValue = true
        }
        while (cells.length && cells[cells.length - 1] === null) cells.pop()
        if (hasValue) rows.push({ row: r + 1, cells })
      }
    }
    const merges = (sheet['!merges'] ?? []).map((m) => ({ firstRow: m.s.r + 1, lastRow: m.e.r + 1, firstColumn: m.s.c, lastColumn: m.e.c }))
    return { name: isCsv ? null : name, rows, merges }
  })
  return { container: isCsv ? 'csv' : file.endsWith('.xls') ? 'xls' : 'xlsx', sheets }
}

function decodeCsv(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '')
  } catch {
    return new TextDecoder('windows-1256').decode(bytes)
  }
}

function cellValue(cell: XLSX.CellObject | undefined, isCsv: boolean): CellValue {
  if (!cell || cell.v === undefined || cell.v === null) return null
  if (isCsv) return String(cell.w ?? cell.v)
  if (cell.t === 'n' && cell.z && XLSX.SSF.is_date(cell.z)) return { kind: 'date', serial: cell.v as number }
  if (cell.t === 'n') return cell.v as number
  if (cell.t === 'b') return cell.v as boolean
  if (cell.t === 'e') return null
  return String(cell.v)
}
