import { read as readWithSheetJs, SSF } from '@e965/xlsx'
import { XlsxError, type CellValue, type ExcelDate, type SheetRow } from '#app/platform/xlsx/types.ts'
import { CLOCK_EVERY, type Clock } from './clock.ts'
import type { MergedRange, ReadWorkbookOptions, SheetGrid } from './grid.ts'
import { openOle, type OleFile } from './ole.server.ts'

// Excel 97–2003 (.xls, BIFF8), as Noor's report viewer saves it, read through SheetJS. SheetJS
// only ever sees the Workbook stream we took out of the compound file ourselves (chains
// checked, size capped); before it does, the stream's global records are walked here to count
// the worksheets, find encryption and check each sheet's claimed size, so a file built to make
// a parser allocate is refused first.

/** BIFF8's own bounds: 65,536 rows by 256 columns; a DIMENSIONS record claiming more is forged. */
const BIFF8_MAX_ROWS = 65_536
const BIFF8_MAX_COLUMNS = 256

const RECORD_BOF = 0x0809
const RECORD_EOF = 0x000a
const RECORD_FILEPASS = 0x002f
const RECORD_BOUNDSHEET = 0x0085
const RECORD_DIMENSIONS = 0x0200
const SHEET_TYPE_WORKSHEET = 0

/** Days between the 1900 and 1904 date systems' day zero. */
const DATE_1904_OFFSET = 1462

export function readXls(buf: Buffer, options: ReadWorkbookOptions, clock: Clock): SheetGrid[] {
  const ole = openOle(buf)
  if (ole.entries.some((e) => e.name === 'EncryptedPackage' || e.name === 'EncryptionInfo'))
    throw new XlsxError('encrypted', 'a password-protected workbook')
  const stream = workbookStream(ole, options.maxUncompressedBytes)
  clock.check()
  const worksheets = checkGlobals(stream, options, clock)

  const sheetRows = Math.min(options.maxRows, BIFF8_MAX_ROWS) + 1
  let workbook: ReturnType<typeof readWithSheetJs>
  try {
    workbook = readWithSheetJs(stream, {
      type: 'buffer',
      dense: true,
      sheetRows,
      cellNF: true,
      cellDates: false,
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
      cellText: false,
      sheetStubs: false,
      bookVBA: false,
      WTF: false,
    })
  } catch (error) {
    if (error instanceof XlsxError) throw error
    const message = error instanceof Error ? error.message : ''
    if (/password|encrypt/i.test(message)) throw new XlsxError('encrypted', 'a password-protected workbook')
    // SheetJS's own words are left out: they can quote a sheet's name, and report cards name
    // their sheets after students.
    throw new XlsxError('format', 'an .xls SheetJS cannot read')
  }
  clock.check()
  if (workbook.SheetNames.length > 0 && worksheets === 0) throw new XlsxError('format', 'the workbook has no worksheet')

  const dateOffset = workbook.Workbook?.WBProps?.date1904 ? DATE_1904_OFFSET : 0
  const dateFormats = new Map<string, boolean>()
  const isDateFormat = (format: unknown): boolean => {
    if (typeof format !== 'string') return false
    let isDate = dateFormats.get(format)
    if (isDate === undefined) {
      isDate = Boolean(SSF.is_date(format))
      dateFormats.set(format, isDate)
    }
    return isDate
  }

  const sheets: SheetGrid[] = []
  let rowsRead = 0
  let work = 0
  for (const name of workbook.SheetNames) {
    const sheet = workbook.Sheets[name] as (Record<string, unknown> & { '!data'?: unknown[][] }) | undefined
    // Chart, macro and dialog sheets carry a type and no cells worth reading.
    if (!sheet || sheet['!type'] !== undefined) continue
    const fullRef = typeof sheet['!fullref'] === 'string' ? sheet['!fullref'] : undefined
    // SheetJS stopped at sheetRows: the sheet has more rows than the limit lets through.
    if (fullRef && lastRowOf(fullRef) > sheetRows) throw new XlsxError('too_many_rows', `more than ${options.maxRows} rows`)
    const rows: SheetRow[] = []
    const data = sheet['!data'] ?? []
    data.forEach((cellsIn, r) => {
      if ((++work & (CLOCK_EVERY - 1)) === 0) clock.check()
      if (!Array.isArray(cellsIn)) return
      const cells: CellValue[] = []
      let hasData = false
      cellsIn.forEach((cell: unknown, c) => {
        const value = cellValue(cell as SheetJsCell | undefined, isDateFormat, dateOffset)
        if (value === null) return
        while (cells.length < c) cells.push(null)
        cells.push(value)
        if (value !== '') hasData = true
      })
      if (!hasData) return
      if (rowsRead >= options.maxRows) throw new XlsxError('too_many_rows', `more than ${options.maxRows} rows`)
      rowsRead++
      rows.push({ row: r + 1, cells })
    })
    const merges: MergedRange[] = ((sheet['!merges'] as SheetJsRange[] | undefined) ?? []).map((m) => ({
      firstRow: m.s.r + 1,
      lastRow: m.e.r + 1,
      firstColumn: m.s.c,
      lastColumn: m.e.c,
    }))
    sheets.push({ name, rows, merges })
  }
  if (sheets.length === 0) throw new XlsxError('format', 'the workbook has no worksheet')
  return sheets
}

interface SheetJsCell {
  readonly t?: string
  readonly v?: unknown
  readonly z?: unknown
}
interface SheetJsRange {
  readonly s: { readonly r: number; readonly c: number }
  readonly e: { readonly r: number; readonly c: number }
}

/** A cell as the .xlsx reader gives it: strings as written, numbers with a date format as dates, errors and blanks as null. */
function cellValue(cell: SheetJsCell | undefined, isDateFormat: (format: unknown) => boolean, dateOffset: number): CellValue {
  if (!cell) return null
  switch (cell.t) {
    case 's':
      return typeof cell.v === 'string' ? cell.v : null
    case 'b':
      return cell.v === true
    case 'n': {
      const number = cell.v
      if (typeof number !== 'number' || !Number.isFinite(number)) return null
      if (!isDateFormat(cell.z)) return number
      const date: ExcelDate = { kind: 'date', serial: number + dateOffset }
      return date
    }
    default:
      return null
  }
}

function lastRowOf(ref: string): number {
  const match = /(\d+)$/.exec(ref)
  return match ? Number(match[1]) : 0
}

function workbookStream(ole: OleFile, maxBytes: number): Buffer {
  const entry = ole.entries.find((e) => e.name === 'Workbook') ?? ole.entries.find((e) => e.name === 'Book')
  if (!entry) throw new XlsxError('format', 'an OLE compound file without a workbook (not an .xls)')
  return ole.stream(entry, maxBytes)
}

/**
 * Walks the workbook globals: encryption (FILEPASS), the worksheets (BOUNDSHEET) against
 * maxSheets, and each worksheet's DIMENSIONS against what BIFF8 can hold. Returns the number
 * of worksheets.
 */
function checkGlobals(stream: Buffer, options: ReadWorkbookOptions, clock: Clock): number {
  if (stream.length < 4 || stream.readUInt16LE(0) !== RECORD_BOF) throw new XlsxError('format', 'a workbook stream without a BOF record')
  const sheetOffsets: number[] = []
  let work = 0
  let pos = 0
  for (;;) {
    if (pos + 4 > stream.length) throw new XlsxError('format', 'truncated .xls globals')
    if ((++work & (CLOCK_EVERY - 1)) === 0) clock.check()
    const type = stream.readUInt16LE(pos)
    const size = stream.readUInt16LE(pos + 2)
    const body = pos + 4
    if (body + size > stream.length) throw new XlsxError('format', 'truncated .xls record')
    if (type === RECORD_EOF) break
    if (type === RECORD_FILEPASS) throw new XlsxError('encrypted', 'a password-protected .xls')
    if (type === RECORD_BOUNDSHEET && size >= 6 && stream[body + 5] === SHEET_TYPE_WORKSHEET) {
      sheetOffsets.push(stream.readUInt32LE(body))
      if (sheetOffsets.length > options.maxSheets) throw new XlsxError('too_many_sheets', `more than ${options.maxSheets} worksheets`)
    }
    pos = body + size
  }
  for (const offset of sheetOffsets) {
    const dimensions = sheetDimensions(stream, offset, clock)
    if (dimensions && (dimensions.rows > BIFF8_MAX_ROWS || dimensions.columns > BIFF8_MAX_COLUMNS))
      throw new XlsxError(
        'format',
        `a sheet claiming ${dimensions.rows} rows and ${dimensions.columns} columns, more than an .xls can hold`,
      )
  }
  return sheetOffsets.length
}

/** The last row and column a worksheet's DIMENSIONS record claims (exclusive), or null when it has none. */
function sheetDimensions(stream: Buffer, offset: number, clock: Clock): { rows: number; columns: number } | null {
  if (offset + 4 > stream.length || stream.readUInt16LE(offset) !== RECORD_BOF)
    throw new XlsxError('format', 'a sheet offset not at a BOF record')
  let pos = offset
  let work = 0
  while (pos + 4 <= stream.length) {
    if ((++work & (CLOCK_EVERY - 1)) === 0) clock.check()
    const type = stream.readUInt16LE(pos)
    const size = stream.readUInt16LE(pos + 2)
    const body = pos + 4
    if (body + size > stream.length) throw new XlsxError('format', 'truncated .xls record')
    if (type === RECORD_DIMENSIONS) {
      // BIFF8: rwMic, rwMac (32 bits), colMic, colMac (16 bits); BIFF5: all 16 bits.
      if (size >= 14) return { rows: stream.readUInt32LE(body + 4), columns: stream.readUInt16LE(body + 10) }
      if (size >= 8) return { rows: stream.readUInt16LE(body + 2), columns: stream.readUInt16LE(body + 6) }
      return null
    }
    if (type === RECORD_EOF) return null
    pos = body + size
  }
  return null
}
