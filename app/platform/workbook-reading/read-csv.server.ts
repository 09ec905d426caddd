import { parse } from 'csv-parse/sync'
import { XlsxError, type CellValue, type SheetRow } from '#app/platform/xlsx/types.ts'
import { CLOCK_EVERY, type Clock } from './clock.ts'
import { CSV_MAX_LINE_BYTES, type ReadWorkbookOptions, type SheetGrid } from './grid.ts'

// A CSV file as one sheet of text cells. Noor's report viewer saves CSV with commas or
// semicolons, in UTF-8 (with or without a BOM) or in Windows-1256; values stay as written
// (`123.0` included), the layers above normalise them. The bytes are checked in one pass before
// anything is decoded or parsed: binary content, a line too long, too many lines.

/** Lines looked at to choose the delimiter. */
const DELIMITER_SAMPLE_LINES = 10

const TAB = 0x09
const LF = 0x0a
const CR = 0x0d
const SPACE = 0x20
const CTRL_Z = 0x1a
const UTF8_BOM = [0xef, 0xbb, 0xbf] as const

const utf8 = new TextDecoder('utf-8', { fatal: true })
const windows1256 = new TextDecoder('windows-1256')

export function readCsv(buf: Buffer, options: ReadWorkbookOptions, clock: Clock): SheetGrid {
  if (buf.length > options.maxUncompressedBytes) throw new XlsxError('too_large', `more than ${options.maxUncompressedBytes} bytes`)
  checkBytes(buf, options.maxRows, clock)
  const text = decodeCsv(buf)
  clock.check()
  const delimiter = chooseDelimiter(text)

  const rows: SheetRow[] = []
  let rowNumber = 0
  try {
    parse(text, {
      delimiter,
      bom: false,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      max_record_size: CSV_MAX_LINE_BYTES,
      on_record: (record: string[]) => {
        rowNumber++
        if ((rowNumber & (CLOCK_EVERY - 1)) === 0) clock.check()
        let last = -1
        for (let c = 0; c < record.length; c++) if (record[c] !== '') last = c
        if (last < 0) return null
        if (rows.length >= options.maxRows) throw new XlsxError('too_many_rows', `more than ${options.maxRows} rows`)
        const cells: CellValue[] = []
        for (let c = 0; c <= last; c++) cells.push(record[c] === '' ? null : record[c]!)
        rows.push({ row: rowNumber, cells })
        // Nothing kept by the parser: the rows above are the result.
        return null
      },
    })
  } catch (error) {
    if (error instanceof XlsxError) throw error
    const cause = (error as { cause?: unknown }).cause
    if (cause instanceof XlsxError) throw cause
    const code = (error as { code?: unknown }).code
    if (code === 'CSV_MAX_RECORD_SIZE') throw new XlsxError('line_too_long', `a record longer than ${CSV_MAX_LINE_BYTES} characters`)
    throw new XlsxError('format', `unreadable CSV (${typeof code === 'string' ? code : 'parse error'})`)
  }
  return { name: null, rows, merges: [] }
}

/**
 * One pass over the bytes, before any decoding: control characters other than tab and line
 * ends mean a binary file; a line over CSV_MAX_LINE_BYTES is refused at its end, before any
 * string is made of it; more non-empty lines than maxRows is refused at the first one over.
 */
function checkBytes(b: Buffer, maxRows: number, clock: Clock) {
  if (b.length === 0) throw new XlsxError('format', 'an empty file')
  const n = b.length
  let lineStart = 0
  let lines = 0
  let isLineEmpty = true
  for (let i = 0; i < n; i++) {
    const ch = b[i]!
    if (ch >= SPACE) {
      isLineEmpty = false
      continue
    }
    if (ch === LF) {
      if (i - lineStart > CSV_MAX_LINE_BYTES) throw new XlsxError('line_too_long', `a line longer than ${CSV_MAX_LINE_BYTES} bytes`)
      if (!isLineEmpty && ++lines > maxRows) throw new XlsxError('too_many_rows', `more than ${maxRows} lines`)
      if ((lines & (CLOCK_EVERY - 1)) === 0) clock.check()
      lineStart = i + 1
      isLineEmpty = true
    } else if (ch !== CR && ch !== TAB && !(ch === CTRL_Z && i === n - 1)) {
      throw new XlsxError('format', 'binary content (control characters), not a CSV file')
    }
  }
  if (n - lineStart > CSV_MAX_LINE_BYTES) throw new XlsxError('line_too_long', `a line longer than ${CSV_MAX_LINE_BYTES} bytes`)
  if (!isLineEmpty && ++lines > maxRows) throw new XlsxError('too_many_rows', `more than ${maxRows} lines`)
}

/**
 * UTF-8 when the bytes are valid UTF-8 (a BOM is dropped), else Windows-1256, the encoding
 * Arabic Windows saves CSV in. Bytes invalid in UTF-8 beside valid UTF-8 Arabic mean two files
 * pasted together in two encodings: no decoding reads both, so the file is refused.
 */
export function decodeCsv(b: Buffer): string {
  const hasBom = b[0] === UTF8_BOM[0] && b[1] === UTF8_BOM[1] && b[2] === UTF8_BOM[2]
  const body = hasBom ? b.subarray(3) : b
  try {
    return utf8.decode(body)
  } catch {
    // Not UTF-8: decided below.
  }
  if (hasBom || looksMixed(body)) throw new XlsxError('mixed_encoding', 'UTF-8 text beside bytes that are not UTF-8')
  return windows1256.decode(body)
}

/**
 * Counts two-byte UTF-8 sequences of Arabic letters (lead byte D8–DB, then a continuation
 * byte) against high bytes that fit no UTF-8 sequence. Windows-1256 Arabic makes such a pair
 * only by chance (a letter before `؟` or `؛`), so they stay rare there; a file where they are
 * common also holds UTF-8 Arabic.
 */
function looksMixed(b: Uint8Array): boolean {
  let arabicUtf8 = 0
  let stray = 0
  const n = b.length
  for (let i = 0; i < n; i++) {
    const ch = b[i]!
    if (ch < 0x80) continue
    const next = b[i + 1] ?? 0
    const isContinuation = (next & 0xc0) === 0x80
    if (ch >= 0xd8 && ch <= 0xdb && isContinuation) {
      arabicUtf8++
      i++
    } else if (ch >= 0xc2 && ch <= 0xdf && isContinuation) {
      i++
    } else {
      stray++
    }
  }
  return arabicUtf8 >= 4 && arabicUtf8 * 20 >= stray
}

/** A semicolon when the first lines hold more semicolons than commas outside quotes, else a comma. */
export function chooseDelimiter(text: string): ',' | ';' {
  let commas = 0
  let semicolons = 0
  let lines = 0
  let isQuoted = false
  for (let i = 0; i < text.length && lines < DELIMITER_SAMPLE_LINES; i++) {
    const ch = text.charCodeAt(i)
    if (ch === 0x22) isQuoted = !isQuoted
    else if (isQuoted) continue
    else if (ch === 0x2c) commas++
    else if (ch === 0x3b) semicolons++
    else if (ch === LF) lines++
  }
  return semicolons > commas ? ';' : ','
}
