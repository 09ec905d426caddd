import { crc32, deflateRawSync } from 'node:zlib'
import type { ExcelDate } from './types.ts'

// A small Office Open XML (.xlsx) writer: exports and sample files need values, a handful of
// number formats, right-to-left sheets, widths, frozen header rows and merges, not a spreadsheet
// library. The zip container is written here too (deflate from node:zlib), so nothing is added
// to the production dependencies. Kept free of Node streams: a workbook is built in memory.

export type XlsxCellStyle = 'header' | 'title' | 'percent' | 'percent1' | 'integer' | 'decimal2' | 'date' | 'bold'

/**
 * A value to write. A `Date` is written as the calendar day and time it holds in UTC (build
 * date-only values with `Date.UTC`); an `ExcelDate` is written as its serial. Both get the date
 * format unless another style is given.
 */
export type XlsxValue = string | number | boolean | Date | ExcelDate | null | undefined

export type XlsxCell = XlsxValue | { readonly value: XlsxValue; readonly style?: XlsxCellStyle }

export interface XlsxColumn {
  /** Width in characters of the default font, as Excel measures it. */
  readonly width?: number
}

export interface XlsxSheet {
  /** Sanitised for Excel (no `[]:*?/\`, at most 31 characters) and made unique in the workbook. */
  readonly name: string
  readonly rightToLeft?: boolean
  /** By column, index 0 = column A; a hole keeps the default width. */
  readonly columns?: readonly (XlsxColumn | undefined)[]
  /** By row, index 0 = row 1; `null`/`undefined` cells are left empty. */
  readonly rows: readonly (readonly XlsxCell[] | undefined)[]
  /** The number of top rows that stay in view when scrolling (the header row and what is above it). */
  readonly freezeRows?: number
  /** Merged ranges in A1 notation, e.g. `A1:D1`; they must not overlap. */
  readonly merges?: readonly string[]
}

export interface XlsxWorkbook {
  readonly sheets: readonly XlsxSheet[]
  /** The author shown in the file's properties. */
  readonly creator?: string
  /** Created/modified time in the properties and zip entries; now by default. */
  readonly created?: Date
}

const MAX_ROWS = 1_048_576
const MAX_COLUMNS = 16_384
const MAX_CELL_TEXT = 32_767
const MS_PER_DAY = 86_400_000
/** 1899-12-30, day zero of Excel's 1900 date system once its phantom 29 February 1900 is skipped. */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30)
/** 1900-03-01: earlier serials are shifted by the phantom leap day, so they are refused. */
const FIRST_SAFE_SERIAL = 61

/** The Excel serial (1900 date system) of a UTC instant: whole days plus the time as a fraction. */
export function toExcelSerial(date: Date): number {
  const ms = date.getTime()
  if (!Number.isFinite(ms)) throw new RangeError('Invalid date')
  const serial = (ms - EXCEL_EPOCH_MS) / MS_PER_DAY
  if (serial < FIRST_SAFE_SERIAL) throw new RangeError(`Dates before 1900-03-01 are not supported (${date.toISOString()})`)
  return serial
}

/** `A`, `B`, … `Z`, `AA`, … for a zero-based column index. */
export function columnName(index: number): string {
  let name = ''
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name
  return name
}

// ---- styles -------------------------------------------------------------------------------

// cellXfs, in this order: index = the `s` attribute of a cell.
const styleIndex: Record<XlsxCellStyle, number> = {
  header: 1,
  title: 2,
  percent: 3,
  percent1: 4,
  integer: 5,
  decimal2: 6,
  date: 7,
  bold: 8,
}

// Built-in formats 3 (#,##0), 4 (#,##0.00) and 10 (0.00%) need no declaration; custom ones start at 164.
const stylesXml = xmlDoc(
  '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
    '<numFmts count="2"><numFmt numFmtId="164" formatCode="0.0%"/><numFmt numFmtId="165" formatCode="yyyy-mm-dd"/></numFmts>' +
    '<fonts count="3">' +
    '<font><sz val="11"/><name val="Arial"/><family val="2"/></font>' +
    '<font><b/><sz val="11"/><name val="Arial"/><family val="2"/></font>' +
    '<font><b/><sz val="14"/><name val="Arial"/><family val="2"/></font>' +
    '</fonts>' +
    '<fills count="3">' +
    '<fill><patternFill patternType="none"/></fill>' +
    '<fill><patternFill patternType="gray125"/></fill>' +
    '<fill><patternFill patternType="solid"><fgColor rgb="FFDCEBE8"/><bgColor indexed="64"/></patternFill></fill>' +
    '</fills>' +
    '<borders count="2">' +
    '<border><left/><right/><top/><bottom/><diagonal/></border>' +
    '<border><left/><right/><top/><bottom style="thin"><color rgb="FF7A8C88"/></bottom><diagonal/></border>' +
    '</borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    '<cellXfs count="9">' +
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
    '<xf numFmtId="0" fontId="1" fillId="2" borderId="1" xfId="0" applyFont="1" applyFill="1" applyBorder="1" applyAlignment="1">' +
    '<alignment horizontal="center" vertical="center" wrapText="1"/></xf>' +
    '<xf numFmtId="0" fontId="2" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
    '<xf numFmtId="10" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
    '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
    '<xf numFmtId="3" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
    '<xf numFmtId="4" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
    '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" applyAlignment="1">' +
    '<alignment horizontal="center"/></xf>' +
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
    '</cellXfs>' +
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
    '</styleSheet>',
)

// ---- text ---------------------------------------------------------------------------------

// Characters XML 1.0 cannot carry (C0 controls except tab and line feed, and the carriage return,
// which an XML reader would turn into a line feed), lone surrogates and the two non-characters.
// Cell text keeps them as Excel's escapes; sheet names and the creator drop them.
// oxlint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE_TEXT = /[\u0000-\u0008\u000B-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

function cleanText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(UNSAFE_TEXT, '')
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'))
}

/**
 * Cell text: cut to Excel's limit, a literal `_xHHHH_` protected (readers decode it as an
 * escape), and what XML cannot carry written as that escape, as Excel writes it. Nothing is
 * dropped: dropping `\u0001` from `\u0001=1+1` would hand a reader text that starts like a
 * formula. A CRLF is one line break, written as LF like Excel's own.
 */
function cellText(text: string): string {
  let plain = text.replace(/\r\n/g, '\n')
  if (plain.length > MAX_CELL_TEXT) {
    plain = plain.slice(0, MAX_CELL_TEXT)
    if (/[\uD800-\uDBFF]$/.test(plain)) plain = plain.slice(0, -1)
  }
  return plain
    .replace(/_(x[0-9A-Fa-f]{4}_)/g, '_x005F_$1')
    .replace(UNSAFE_TEXT, (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`)
}

function textElement(text: string): string {
  const preserve = /^\s|\s$|\n|\t| {2}/.test(text) ? ' xml:space="preserve"' : ''
  return `<t${preserve}>${escapeXml(text)}</t>`
}

function xmlDoc(body: string): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${body}`
}

// ---- sheet names --------------------------------------------------------------------------

function sheetNames(requested: readonly string[]): string[] {
  const taken = new Set<string>()
  return requested.map((raw, i) => {
    const base =
      Array.from(
        cleanText(raw)
          .replace(/[\n\t[\]:*?/\\]/g, ' ')
          .replace(/\s+/g, ' ')
          .trim()
          .replace(/^'+|'+$/g, ''),
      )
        .slice(0, 31)
        .join('')
        .trim() || `Sheet${i + 1}`
    let name = base
    // Excel compares sheet names without regard to case and reserves "History".
    for (let n = 2; taken.has(name.toLowerCase()) || name.toLowerCase() === 'history'; n++) {
      const suffix = ` (${n})`
      name =
        Array.from(base)
          .slice(0, 31 - suffix.length)
          .join('')
          .trimEnd() + suffix
    }
    taken.add(name.toLowerCase())
    return name
  })
}

// ---- worksheets ---------------------------------------------------------------------------

class SharedStrings {
  private readonly index = new Map<string, number>()
  readonly items: string[] = []
  count = 0

  add(text: string): number {
    this.count++
    let i = this.index.get(text)
    if (i === undefined) {
      i = this.items.length
      this.index.set(text, i)
      this.items.push(text)
    }
    return i
  }

  toXml(): string {
    const parts = this.items.map((text) => `<si>${textElement(text)}</si>`)
    return xmlDoc(
      `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${this.count}" uniqueCount="${this.items.length}">${parts.join('')}</sst>`,
    )
  }
}

function isExcelDateValue(value: unknown): value is ExcelDate {
  return typeof value === 'object' && value !== null && !(value instanceof Date) && (value as ExcelDate).kind === 'date'
}

function unpack(cell: XlsxCell): { value: XlsxValue; style: XlsxCellStyle | undefined } {
  if (cell !== null && typeof cell === 'object' && !(cell instanceof Date) && !isExcelDateValue(cell)) {
    return { value: cell.value, style: cell.style }
  }
  return { value: cell, style: undefined }
}

function cellXml(ref: string, cell: XlsxCell, strings: SharedStrings): string {
  const { value, style } = unpack(cell)
  const isDate = value instanceof Date || isExcelDateValue(value)
  const styleId = style ? styleIndex[style] : isDate ? styleIndex.date : 0
  const s = styleId ? ` s="${styleId}"` : ''
  if (value === null || value === undefined) return styleId ? `<c r="${ref}"${s}/>` : ''
  if (typeof value === 'string') {
    const text = cellText(value)
    return `<c r="${ref}"${s} t="s"><v>${strings.add(text)}</v></c>`
  }
  if (typeof value === 'boolean') return `<c r="${ref}"${s} t="b"><v>${value ? 1 : 0}</v></c>`
  let number: number
  if (value instanceof Date) number = toExcelSerial(value)
  else if (typeof value === 'number') number = value
  else number = value.serial
  if (!Number.isFinite(number)) throw new RangeError(`Cell ${ref}: ${number} is not a finite number`)
  return `<c r="${ref}"${s}><v>${Object.is(number, -0) ? 0 : number}</v></c>`
}

type Range = { top: number; left: number; bottom: number; right: number }

function parseRef(ref: string): { row: number; col: number } {
  const match = /^([A-Z]{1,3})([1-9]\d{0,6})$/.exec(ref)
  if (!match) throw new RangeError(`Not a cell reference: ${ref}`)
  let col = 0
  for (const ch of match[1] as string) col = col * 26 + (ch.charCodeAt(0) - 64)
  const row = Number(match[2])
  if (col > MAX_COLUMNS || row > MAX_ROWS) throw new RangeError(`Outside the sheet: ${ref}`)
  return { row: row - 1, col: col - 1 }
}

function parseMerges(sheet: string, merges: readonly string[]): Range[] {
  const ranges: Range[] = []
  for (const merge of merges) {
    const [from, to, extra] = merge.toUpperCase().split(':')
    if (!from || !to || extra !== undefined) throw new RangeError(`Sheet ${sheet}: not a range: ${merge}`)
    const a = parseRef(from)
    const b = parseRef(to)
    const range = {
      top: Math.min(a.row, b.row),
      left: Math.min(a.col, b.col),
      bottom: Math.max(a.row, b.row),
      right: Math.max(a.col, b.col),
    }
    if (range.top === range.bottom && range.left === range.right) continue
    const clash = ranges.find((r) => r.left <= range.right && range.left <= r.right && r.top <= range.bottom && range.top <= r.bottom)
    // Excel "repairs" a workbook with overlapping merges by dropping them all.
    if (clash) throw new RangeError(`Sheet ${sheet}: merged range ${merge} overlaps another`)
    ranges.push(range)
  }
  return ranges
}

const rangeRef = (r: Range) => `${columnName(r.left)}${r.top + 1}:${columnName(r.right)}${r.bottom + 1}`

function worksheetXml(sheet: XlsxSheet, name: string, isFirst: boolean, strings: SharedStrings): string {
  if (sheet.rows.length > MAX_ROWS) throw new RangeError(`Sheet ${name}: more than ${MAX_ROWS} rows`)
  const merges = parseMerges(name, sheet.merges ?? [])
  let lastRow = -1
  let lastCol = -1
  const rowParts: string[] = []
  sheet.rows.forEach((row, r) => {
    if (!row) return
    if (row.length > MAX_COLUMNS) throw new RangeError(`Sheet ${name}: row ${r + 1} has more than ${MAX_COLUMNS} cells`)
    const cells: string[] = []
    for (let c = 0; c < row.length; c++) {
      const xml = cellXml(`${columnName(c)}${r + 1}`, row[c], strings)
      if (!xml) continue
      cells.push(xml)
      lastCol = Math.max(lastCol, c)
    }
    if (!cells.length) return
    lastRow = r
    rowParts.push(`<row r="${r + 1}">${cells.join('')}</row>`)
  })
  for (const m of merges) {
    lastRow = Math.max(lastRow, m.bottom)
    lastCol = Math.max(lastCol, m.right)
  }
  const dimension = lastRow < 0 ? 'A1' : `A1:${columnName(Math.max(lastCol, 0))}${lastRow + 1}`

  const freeze = Math.max(0, Math.floor(sheet.freezeRows ?? 0))
  if (freeze >= MAX_ROWS) throw new RangeError(`Sheet ${name}: cannot freeze ${freeze} rows`)
  const viewAttrs = `${isFirst ? ' tabSelected="1"' : ''}${sheet.rightToLeft ? ' rightToLeft="1"' : ''} workbookViewId="0"`
  const view = freeze
    ? `<sheetView${viewAttrs}><pane ySplit="${freeze}" topLeftCell="A${freeze + 1}" activePane="bottomLeft" state="frozen"/>` +
      `<selection pane="bottomLeft" activeCell="A${freeze + 1}" sqref="A${freeze + 1}"/></sheetView>`
    : `<sheetView${viewAttrs}/>`

  const cols = (sheet.columns ?? []).flatMap((col, i) => {
    if (i >= MAX_COLUMNS || col?.width === undefined) return []
    if (!Number.isFinite(col.width) || col.width < 0) throw new RangeError(`Sheet ${name}: bad width for column ${columnName(i)}`)
    const width = Math.min(255, Math.round(col.width * 100) / 100)
    return [`<col min="${i + 1}" max="${i + 1}" width="${width}" customWidth="1"/>`]
  })

  return xmlDoc(
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
      `<dimension ref="${dimension}"/>` +
      `<sheetViews>${view}</sheetViews>` +
      '<sheetFormatPr defaultRowHeight="15"/>' +
      (cols.length ? `<cols>${cols.join('')}</cols>` : '') +
      (rowParts.length ? `<sheetData>${rowParts.join('')}</sheetData>` : '<sheetData/>') +
      (merges.length
        ? `<mergeCells count="${merges.length}">${merges.map((m) => `<mergeCell ref="${rangeRef(m)}"/>`).join('')}</mergeCells>`
        : '') +
      '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>' +
      '</worksheet>',
  )
}

// ---- package parts ------------------------------------------------------------------------

function w3cdtf(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z')
}

function packageParts(workbook: XlsxWorkbook, created: Date): { path: string; xml: string }[] {
  if (!workbook.sheets.length) throw new RangeError('A workbook needs at least one sheet')
  const names = sheetNames(workbook.sheets.map((s) => s.name))
  const strings = new SharedStrings()
  const sheets = workbook.sheets.map((sheet, i) => ({
    path: `xl/worksheets/sheet${i + 1}.xml`,
    xml: worksheetXml(sheet, names[i] as string, i === 0, strings),
  }))
  const creator = escapeXml(cleanText(workbook.creator ?? 'Hallil'))
  const n = sheets.length
  const rel = (id: string, type: string, target: string) => `<Relationship Id="${id}" Type="${type}" Target="${target}"/>`
  const officeRel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
  const contentType = (part: string, type: string) => `<Override PartName="/${part}" ContentType="${type}"/>`
  const sml = 'application/vnd.openxmlformats-officedocument.spreadsheetml'

  return [
    {
      path: '[Content_Types].xml',
      xml: xmlDoc(
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
          '<Default Extension="xml" ContentType="application/xml"/>' +
          contentType('xl/workbook.xml', `${sml}.sheet.main+xml`) +
          sheets.map((s) => contentType(s.path, `${sml}.worksheet+xml`)).join('') +
          contentType('xl/styles.xml', `${sml}.styles+xml`) +
          contentType('xl/sharedStrings.xml', `${sml}.sharedStrings+xml`) +
          contentType('docProps/core.xml', 'application/vnd.openxmlformats-package.core-properties+xml') +
          contentType('docProps/app.xml', 'application/vnd.openxmlformats-officedocument.extended-properties+xml') +
          '</Types>',
      ),
    },
    {
      path: '_rels/.rels',
      xml: xmlDoc(
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
          rel('rId1', `${officeRel}/officeDocument`, 'xl/workbook.xml') +
          rel('rId2', 'http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties', 'docProps/core.xml') +
          rel('rId3', `${officeRel}/extended-properties`, 'docProps/app.xml') +
          '</Relationships>',
      ),
    },
    {
      path: 'docProps/app.xml',
      xml: xmlDoc(
        '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">' +
          '<Application>Hallil</Application><DocSecurity>0</DocSecurity><ScaleCrop>false</ScaleCrop>' +
          '</Properties>',
      ),
    },
    {
      path: 'docProps/core.xml',
      xml: xmlDoc(
        '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
          `<dc:creator>${creator}</dc:creator><cp:lastModifiedBy>${creator}</cp:lastModifiedBy>` +
          `<dcterms:created xsi:type="dcterms:W3CDTF">${w3cdtf(created)}</dcterms:created>` +
          `<dcterms:modified xsi:type="dcterms:W3CDTF">${w3cdtf(created)}</dcterms:modified>` +
          '</cp:coreProperties>',
      ),
    },
    {
      path: 'xl/workbook.xml',
      xml: xmlDoc(
        `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${officeRel}">` +
          '<workbookPr/><bookViews><workbookView activeTab="0"/></bookViews>' +
          `<sheets>${names.map((name, i) => `<sheet name="${escapeXml(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets>` +
          '</workbook>',
      ),
    },
    {
      path: 'xl/_rels/workbook.xml.rels',
      xml: xmlDoc(
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
          sheets.map((s, i) => rel(`rId${i + 1}`, `${officeRel}/worksheet`, `worksheets/sheet${i + 1}.xml`)).join('') +
          rel(`rId${n + 1}`, `${officeRel}/styles`, 'styles.xml') +
          rel(`rId${n + 2}`, `${officeRel}/sharedStrings`, 'sharedStrings.xml') +
          '</Relationships>',
      ),
    },
    { path: 'xl/styles.xml', xml: stylesXml },
    ...sheets,
    // Written last: the worksheets above filled it.
    { path: 'xl/sharedStrings.xml', xml: strings.toXml() },
  ]
}

// ---- zip ----------------------------------------------------------------------------------

function dosDateTime(date: Date): { time: number; date: number } {
  // Zip stores local wall-clock time without a zone; UTC keeps the output independent of the host.
  const year = Math.min(2107, Math.max(1980, date.getUTCFullYear()))
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  }
}

/** A zip archive of deflated entries (no zip64: a workbook this writer makes stays far below 4 GB). */
export function writeZip(entries: readonly { path: string; data: Uint8Array }[], modified: Date): Uint8Array {
  if (entries.length > 0xffff) throw new RangeError('Too many zip entries')
  const { time, date } = dosDateTime(modified)
  const chunks: Uint8Array[] = []
  const central: Uint8Array[] = []
  let offset = 0
  for (const entry of entries) {
    const name = Buffer.from(entry.path, 'utf8')
    const compressed = deflateRawSync(entry.data, { level: 6 })
    const crc = crc32(entry.data)
    if (entry.data.length > 0xfffffffe || offset > 0xfffffffe) throw new RangeError('Workbook too large for a zip without zip64')
    const isUtf8 = /[^\x20-\x7e]/.test(entry.path)
    const flags = isUtf8 ? 0x0800 : 0

    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4) // version needed: 2.0 (deflate)
    local.writeUInt16LE(flags, 6)
    local.writeUInt16LE(8, 8) // method: deflate
    local.writeUInt16LE(time, 10)
    local.writeUInt16LE(date, 12)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(compressed.length, 18)
    local.writeUInt32LE(entry.data.length, 22)
    local.writeUInt16LE(name.length, 26)
    local.writeUInt16LE(0, 28) // extra field length

    const header = Buffer.alloc(46)
    header.writeUInt32LE(0x02014b50, 0)
    header.writeUInt16LE(20, 4) // version made by: 2.0, MS-DOS attributes
    header.writeUInt16LE(20, 6)
    header.writeUInt16LE(flags, 8)
    header.writeUInt16LE(8, 10)
    header.writeUInt16LE(time, 12)
    header.writeUInt16LE(date, 14)
    header.writeUInt32LE(crc, 16)
    header.writeUInt32LE(compressed.length, 20)
    header.writeUInt32LE(entry.data.length, 24)
    header.writeUInt16LE(name.length, 28)
    // extra length, comment length, disk number, internal and external attributes: zero
    header.writeUInt32LE(offset, 42)

    chunks.push(local, name, compressed)
    central.push(header, name)
    offset += local.length + name.length + compressed.length
  }
  const centralSize = central.reduce((sum, c) => sum + c.length, 0)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(centralSize, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...chunks, ...central, end])
}

/** The workbook as the bytes of an .xlsx file. */
export function writeWorkbook(workbook: XlsxWorkbook): Uint8Array {
  const created = workbook.created ?? new Date()
  const parts = packageParts(workbook, created)
  return writeZip(
    parts.map((p) => ({ path: p.path, data: Buffer.from(p.xml, 'utf8') })),
    created,
  )
}
