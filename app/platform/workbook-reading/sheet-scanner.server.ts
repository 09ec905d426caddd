import { XlsxError, type CellValue, type ExcelDate, type SheetRow } from '#app/platform/xlsx/types.ts'
import type { Clock } from './clock.ts'
import type { MergedRange } from './grid.ts'
import {
  attributeValueRange,
  BANG,
  COLON,
  DQUOTE,
  EQ,
  GT,
  LT,
  readText,
  SLASH,
  SPACE,
  SQUOTE,
  TagScanner,
  decodeXmlText,
} from './xml-tokens.server.ts'

// A worksheet's rows and merged ranges, scanned over its bytes: only `<row>`, `<c>`, `<v>`,
// `<is>`/`<t>` and `<mergeCell>` matter, everything else is stepped over.

export const MAX_EXCEL_ROW = 1_048_576
export const MAX_EXCEL_COLUMN = 16_384
/** Merged ranges kept over a whole workbook: Noor's reports have tens per sheet; more is a file built to fill memory. */
export const MAX_MERGES = 200_000

// Cell types, from the `t` attribute.
const T_NUMBER = 0
const T_SHARED = 1
const T_INLINE = 2
const T_STRING = 3
const T_BOOL = 4
const T_ERROR = 5
const T_ISO_DATE = 6

const CH_A = 0x41
const CH_Z = 0x5a
const CH_0 = 0x30
const CH_9 = 0x39
const CH_DOT = 0x2e
const CH_MINUS = 0x2d
const CH_b = 0x62
const CH_c = 0x63
const CH_d = 0x64
const CH_e = 0x65
const CH_i = 0x69
const CH_r = 0x72
const CH_s = 0x73
const CH_t = 0x74
const CH_v = 0x76
const UPPER_CASE = 0xdf

function cellType(b: Buffer, s: number, e: number): number {
  const len = e - s
  const c = b[s]
  if (len === 1) {
    if (c === CH_s) return T_SHARED
    if (c === CH_b) return T_BOOL
    if (c === CH_e) return T_ERROR
    if (c === CH_d) return T_ISO_DATE
    return T_NUMBER
  }
  if (len === 3 && c === CH_s && b[s + 1] === CH_t && b[s + 2] === CH_r) return T_STRING // str
  if (len === 9 && c === CH_i) return T_INLINE // inlineStr
  return T_NUMBER
}

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16]

/** A number from ASCII bytes; the exact fast path for up to 15 digits, `Number` otherwise. NaN when not a number. */
function numberAt(b: Buffer, s: number, e: number): number {
  let k = s
  const isNegative = b[k] === CH_MINUS
  if (isNegative) k++
  let mantissa = 0
  let digits = 0
  let fraction = -1
  for (; k < e; k++) {
    const ch = b[k]!
    if (ch >= CH_0 && ch <= CH_9) {
      mantissa = mantissa * 10 + (ch - CH_0)
      digits++
    } else if (ch === CH_DOT && fraction < 0) fraction = digits
    else break
  }
  if (k === e && digits > 0 && digits <= 15) {
    // m / 10^k with m < 2^53 and k ≤ 22 is one correctly rounded operation: equal to parsing.
    const value = fraction < 0 ? mantissa : mantissa / POW10[digits - fraction]!
    return isNegative ? -value : value
  }
  const text = b.toString('latin1', s, e).trim()
  if (text === '') return Number.NaN
  const value = Number(text)
  return Number.isFinite(value) ? value : Number.NaN
}

function isoDateSerial(text: string): number {
  const t = text.trim()
  if (!/^\d{4}-\d\d-\d\d(?:T\d\d:\d\d(?::\d\d(?:\.\d+)?)?)?(?:Z|[+-]\d\d:\d\d)?$/.test(t)) return Number.NaN
  const zoned = /T/.test(t) && !/(?:Z|[+-]\d\d:\d\d)$/.test(t) ? `${t}Z` : t
  return Date.parse(zoned) / 86_400_000 + 25_569
}

/** `AB12` → [row 12, column 27 (0-based)], or null. */
function cellReference(b: Buffer, s: number, e: number): [number, number] | null {
  let col = 0
  let p = s
  for (; p < e; p++) {
    const letter = b[p]! & UPPER_CASE
    if (letter < CH_A || letter > CH_Z) break
    col = col * 26 + (letter - 0x40)
    if (col > MAX_EXCEL_COLUMN) return null
  }
  if (p === s || p === e) return null
  const row = numberAt(b, p, e)
  if (!Number.isInteger(row) || row < 1 || row > MAX_EXCEL_ROW) return null
  return [row, col - 1]
}

/** What the scan shares across a workbook's sheets: rows and merged ranges count for the whole file. */
export interface ScanBudget {
  /** Rows with data already read in earlier sheets. */
  rowsRead: number
  readonly maxRows: number
  merges: number
}

export interface SheetContext {
  readonly sharedStrings: readonly string[]
  readonly dateStyles: Uint8Array
  readonly date1904: boolean
  readonly budget: ScanBudget
  readonly clock: Clock
}

export interface ScannedSheet {
  readonly rows: SheetRow[]
  readonly merges: MergedRange[]
}

/** A worksheet scanned piece by piece as it is inflated: only the piece at hand is in memory. */
export interface SheetScanner {
  /**
   * Scans the next piece of the worksheet's XML. Every piece but the last must end right after
   * a row's closing tag (`</row>`, see `lastRowEnd`): a row, its cells and their values are
   * never cut in two.
   */
  feed(piece: Buffer): void
  /** The rows and merged ranges, once the last piece is in. */
  end(): ScannedSheet
}

/**
 * The rows of a worksheet: empty rows are skipped and do not count against `maxRows`; rows and
 * cells without `r` follow the previous one. Then its merged ranges (they follow `<sheetData>`).
 */
export function scanSheet(b: Buffer, ctx: SheetContext): ScannedSheet {
  const scanner = createSheetScanner(ctx)
  scanner.feed(b)
  return scanner.end()
}

/** Where the last `</row>` (or `</x:row>`) of `b` ends, or -1: a place a worksheet may be cut. */
export function lastRowEnd(b: Buffer): number {
  for (let i = b.lastIndexOf('row>'); i > 0; i = b.lastIndexOf('row>', i - 1)) {
    let k = i - 1
    if (b[k] === COLON) {
      k--
      while (k > 0 && b[k] !== SLASH && b[k] !== LT && b[k]! > SPACE) k--
    }
    if (b[k] === SLASH && b[k - 1] === LT) return i + 4
  }
  return -1
}

export function createSheetScanner(ctx: SheetContext): SheetScanner {
  const { sharedStrings, dateStyles, budget } = ctx
  const dateOffset = ctx.date1904 ? 1462 : 0
  const dates = new Map<number, ExcelDate>()
  const rows: SheetRow[] = []
  const merges: MergedRange[] = []
  /** The piece being scanned, for the value readers below. */
  let buf: Buffer = Buffer.alloc(0)
  // Cell slots, gaps included, cost memory whether they hold a value or not: a sheet of
  // `<c r="XFD1">` cells would otherwise ask for 16,384 slots per 40 bytes (a quarter of each
  // piece's bytes is added as it comes).
  let slotBudget = 1_048_576

  let inSheetData = false
  let isSheetDataDone = false
  let inRow = false
  let rowNumber = 0
  let cells: CellValue[] = []
  let hasData = false
  let column = -1

  let inCell = false
  let type = T_NUMBER
  let isDateStyle = false
  let vStart = -1
  let vEnd = -1
  /** Set instead of the byte range when the value needed decoding (CDATA). */
  let vText: string | null = null
  let inlineText: string | null = null
  let inInline = false
  let inPhonetic = false

  const endRow = () => {
    inRow = false
    if (!hasData) return
    if (budget.rowsRead >= budget.maxRows) throw new XlsxError('too_many_rows', `more than ${budget.maxRows} rows`)
    budget.rowsRead++
    rows.push({ row: rowNumber, cells: cells.slice() })
  }

  const valueText = () => vText ?? decodeXmlText(buf.toString('utf8', vStart, vEnd))
  const valueNumber = () => {
    if (vText === null) return numberAt(buf, vStart, vEnd)
    const number = vText.trim() === '' ? Number.NaN : Number(vText)
    return Number.isFinite(number) ? number : Number.NaN
  }

  const dateOf = (serial: number): ExcelDate => {
    const key = serial + dateOffset
    let date = dates.get(key)
    if (!date) {
      date = Object.freeze({ kind: 'date' as const, serial: key })
      dates.set(key, date)
    }
    return date
  }

  const endCell = () => {
    inCell = false
    let value: CellValue = null
    switch (type) {
      case T_SHARED: {
        if (vStart < 0) break
        value = sharedStrings[valueNumber()] ?? null
        break
      }
      case T_INLINE:
        value = inlineText ?? (vStart >= 0 ? valueText() : null)
        break
      case T_STRING:
        value = vStart >= 0 ? valueText() : null
        break
      case T_BOOL: {
        if (vStart < 0) break
        const text = valueText().trim()
        value = text === '1' || text === 'true'
        break
      }
      case T_ERROR:
        break
      case T_ISO_DATE: {
        if (vStart < 0) break
        const text = valueText()
        const serial = isoDateSerial(text)
        value = Number.isNaN(serial) ? text : dateOf(serial - dateOffset)
        break
      }
      default: {
        if (vStart < 0) break
        const number = valueNumber()
        if (Number.isNaN(number)) break
        value = isDateStyle ? dateOf(number) : number
      }
    }
    if (value === null) return
    if (column < cells.length) {
      cells[column] = value
    } else {
      slotBudget -= column + 1 - cells.length
      if (slotBudget < 0) throw new XlsxError('too_large', 'too many cells')
      while (cells.length < column) cells.push(null)
      cells.push(value)
    }
    if (value !== '') hasData = true
  }

  const endSheetData = () => {
    if (inCell) endCell()
    if (inRow) endRow()
    inSheetData = false
    isSheetDataDone = true
  }

  function feed(piece: Buffer) {
    const b = piece
    buf = piece
    const n = b.length
    const tags = new TagScanner(b, ctx.clock)
    slotBudget += Math.floor(n / 4)
    while (tags.next()) {
      const j = tags.nameEnd
      const local = tags.localStart
      const len = j - local
      const isClose = tags.isClose
      const c0 = b[local]

      if (!inSheetData) {
        const end = tags.tagEnd()
        tags.pos = end + 1
        if (isClose) continue
        if (!isSheetDataDone && tags.is('sheetData')) {
          if (b[end - 1] === SLASH) isSheetDataDone = true
          else inSheetData = true
        } else if (isSheetDataDone && tags.is('mergeCell')) {
          const ref = attributeValueRange(b, j, end, 'ref')
          if (!ref) continue
          const colon = b.indexOf(':', ref[0])
          const first = cellReference(b, ref[0], colon >= 0 && colon < ref[1] ? colon : ref[1])
          const last = colon >= 0 && colon < ref[1] ? cellReference(b, colon + 1, ref[1]) : first
          if (!first || !last) continue
          if (++budget.merges > MAX_MERGES) throw new XlsxError('too_large', `more than ${MAX_MERGES} merged ranges`)
          merges.push({
            firstRow: Math.min(first[0], last[0]),
            lastRow: Math.max(first[0], last[0]),
            firstColumn: Math.min(first[1], last[1]),
            lastColumn: Math.max(first[1], last[1]),
          })
        }
        continue
      }

      if (len === 1 && c0 === CH_c) {
        // <c>
        if (isClose) {
          tags.pos = tags.tagEnd() + 1
          if (inCell) endCell()
          continue
        }
        if (!inRow) throw new XlsxError('format', 'a cell outside a row')
        if (inCell) endCell()
        type = T_NUMBER
        isDateStyle = false
        vStart = -1
        vEnd = -1
        vText = null
        inlineText = null
        let refColumn = -1
        // Attributes: r (reference), t (type), s (style index).
        let k = j
        let isEmpty = false
        for (;;) {
          while (k < n && b[k]! <= SPACE) k++
          const ch = b[k]
          if (ch === GT) break
          if (ch === SLASH) {
            isEmpty = true
            k++
            break
          }
          if (k >= n) throw new XlsxError('format', 'truncated XML')
          const nameStart = k
          while (k < n && b[k] !== EQ && b[k]! > SPACE) k++
          const nameLength = k - nameStart
          const name = b[nameStart]
          while (k < n && b[k] !== DQUOTE && b[k] !== SQUOTE) k++
          const quote = b[k]
          const valueStart = ++k
          while (k < n && b[k] !== quote) k++
          if (k >= n) throw new XlsxError('format', 'truncated XML')
          const valueEnd = k++
          if (nameLength !== 1) continue
          if (name === CH_r) {
            // r="AB12": the letters give the column.
            let col = 0
            let p = valueStart
            for (; p < valueEnd; p++) {
              const letter = b[p]! & UPPER_CASE
              if (letter < CH_A || letter > CH_Z) break
              col = col * 26 + (letter - 0x40)
            }
            if (col > MAX_EXCEL_COLUMN) throw new XlsxError('format', 'a cell beyond column XFD')
            if (p > valueStart) refColumn = col - 1
          } else if (name === CH_t) {
            type = cellType(b, valueStart, valueEnd)
          } else if (name === CH_s) {
            const style = numberAt(b, valueStart, valueEnd)
            isDateStyle = dateStyles[style] === 1
          }
        }
        if (b[k] !== GT) throw new XlsxError('format', 'malformed cell tag')
        tags.pos = k + 1
        column = refColumn >= 0 ? refColumn : column + 1
        if (column >= MAX_EXCEL_COLUMN) throw new XlsxError('format', 'a cell beyond column XFD')
        inCell = !isEmpty
        inInline = false
        inPhonetic = false
        continue
      }

      if (len === 1 && c0 === CH_v) {
        // <v>: the value is the text up to the next tag.
        const end = tags.tagEnd()
        const i = end + 1
        tags.pos = i
        if (isClose || !inCell || b[end - 1] === SLASH) continue
        let p = i
        while (p < n && b[p] !== LT) p++
        if (p >= n) throw new XlsxError('format', 'truncated XML')
        if (b[p + 1] === BANG) {
          // CDATA or a comment inside the value (Excel writes neither): the slow road.
          const { text, end: textEnd } = readText(b, i)
          vText = text
          vStart = i
          vEnd = i
          tags.pos = textEnd
          continue
        }
        vStart = i
        vEnd = p
        tags.pos = p
        continue
      }

      if (len === 3 && c0 === CH_r && b[local + 1] === 0x6f && b[local + 2] === 0x77) {
        // <row>
        const end = tags.tagEnd()
        tags.pos = end + 1
        if (isClose) {
          if (inCell) endCell()
          if (inRow) endRow()
          continue
        }
        if (inCell) endCell()
        if (inRow) endRow()
        let next = rowNumber + 1
        const r = attributeValueRange(b, j, end, 'r')
        if (r) {
          const parsed = numberAt(b, r[0], r[1])
          if (!Number.isInteger(parsed) || parsed < 1 || parsed > MAX_EXCEL_ROW) throw new XlsxError('format', 'a row number out of range')
          next = parsed
        }
        if (next > MAX_EXCEL_ROW) throw new XlsxError('format', 'more rows than Excel allows')
        rowNumber = next
        column = -1
        if (b[end - 1] === SLASH) continue
        inRow = true
        cells = []
        hasData = false
        continue
      }

      if (inCell && len === 2 && c0 === CH_i && b[local + 1] === CH_s) {
        // <is>: an inline string.
        tags.pos = tags.tagEnd() + 1
        inInline = !isClose
        if (!isClose && inlineText === null) inlineText = ''
        continue
      }
      if (inInline && len === 3 && c0 === CH_r && b[local + 1] === 0x50 && b[local + 2] === 0x68) {
        // <rPh>: a phonetic reading, not part of the value.
        const end = tags.tagEnd()
        tags.pos = end + 1
        inPhonetic = !isClose && b[end - 1] !== SLASH
        continue
      }
      if (inInline && len === 1 && c0 === CH_t) {
        const end = tags.tagEnd()
        tags.pos = end + 1
        if (isClose || b[end - 1] === SLASH || inPhonetic) continue
        const { text, end: textEnd } = readText(b, tags.pos)
        inlineText += text
        tags.pos = textEnd
        continue
      }

      if (isClose && tags.is('sheetData')) {
        tags.pos = tags.tagEnd() + 1
        endSheetData()
        continue
      }
      // Anything else (<f>, <extLst>, rich-text properties): step over the tag.
      tags.pos = tags.tagEnd() + 1
    }
  }

  return {
    feed,
    end() {
      if (inSheetData) throw new XlsxError('format', 'truncated worksheet')
      return { rows, merges }
    },
  }
}
