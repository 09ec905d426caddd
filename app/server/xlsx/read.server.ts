import { inflateRawSync } from 'node:zlib'
import { XlsxError, type CellValue, type ExcelDate, type ReadSheetOptions, type ReadSheetResult, type SheetRow } from './types.ts'

// A narrow .xlsx reader for uploads: one sheet's values, nothing else (no formulas, no styles
// beyond "is this number a date", no DOM). Uploads are hostile until proven otherwise, so the zip
// directory is checked before anything is inflated, inflation is capped at the declared sizes,
// XML with a DTD is refused (no entity ever expands) and the sheet is scanned byte by byte over
// the inflated buffer, with the row limit and the clock checked as it goes.

/** Fixed limits of the zip guard; the uncompressed total, rows and time come from the options. */
export const XLSX_READ_LIMITS = {
  /** Entries in the zip directory (a workbook has tens). */
  maxEntries: 10_000,
  /** Uncompressed:compressed ratio allowed for entries above `ratioFloorBytes`. */
  maxCompressionRatio: 200,
  ratioFloorBytes: 1 << 20,
} as const

const MAX_EXCEL_ROW = 1_048_576
const MAX_EXCEL_COLUMN = 16_384
/** How many tags are scanned between two looks at the clock (a power of two; well under 1 ms of work). */
const CLOCK_EVERY = 8192

/**
 * Reads the preferred sheet (else the first) of an .xlsx file into rows of values.
 * Synchronous and CPU-bound: run it in a worker for uploads (see worker-pool.server.ts).
 * Throws `XlsxError` (`format`, `encrypted`, `too_large`, `too_many_rows`, `timeout`).
 */
export function readSheet(data: Uint8Array, options: ReadSheetOptions): ReadSheetResult {
  const clock = new Clock(options.timeBudgetMs)
  try {
    return readWorkbook(Buffer.from(data.buffer, data.byteOffset, data.byteLength), options, clock)
  } catch (error) {
    if (error instanceof XlsxError) throw error
    // A corrupt file can trip anything below (a bad offset, an invalid deflate stream): it is
    // still a file we cannot read, never a server error.
    throw new XlsxError('format', error instanceof Error ? error.message : 'unreadable')
  }
}

class Clock {
  private readonly deadline: number
  constructor(budgetMs: number) {
    this.deadline = performance.now() + budgetMs
  }
  check() {
    if (performance.now() > this.deadline) throw new XlsxError('timeout')
  }
}

function readWorkbook(buf: Buffer, options: ReadSheetOptions, clock: Clock): ReadSheetResult {
  sniffContainer(buf)
  const zip = openZip(buf, options.maxUncompressedBytes)
  const part = (path: string) => zip.get(path.toLowerCase())
  const inflate = (entry: ZipEntry) => {
    const out = inflateEntry(buf, entry)
    clock.check()
    return out
  }
  const xmlPart = (path: string): string | undefined => {
    const entry = part(path)
    if (!entry) return undefined
    const bytes = inflate(entry)
    refuseDtd(bytes)
    return decodeXmlBytes(bytes)
  }

  // The package's own relationships name the workbook part; Excel always puts it at xl/workbook.xml.
  const rootRels = parseRels(xmlPart('_rels/.rels'), '', clock)
  const officeDocument = rootRels.find((r) => r.type.endsWith('/officeDocument') && part(r.target))
  const workbookPath = officeDocument?.target ?? 'xl/workbook.xml'
  const workbookXml = xmlPart(workbookPath)
  if (workbookXml === undefined) throw new XlsxError('format', 'no xl/workbook.xml: not an Office Open XML workbook')
  const workbookDir = workbookPath.slice(0, workbookPath.lastIndexOf('/') + 1)
  const relsPath = `${workbookDir}_rels/${workbookPath.slice(workbookDir.length)}.rels`
  const rels = parseRels(xmlPart(relsPath), workbookDir, clock)
  const workbook = parseWorkbook(workbookXml, clock)

  const relById = new Map(rels.map((r) => [r.id, r]))
  const sheets = workbook.sheets.flatMap((s) => {
    const rel = relById.get(s.relId)
    // Chartsheets, dialog sheets and macro sheets have no cells to read.
    if (!rel || /\/(chartsheet|dialogsheet|xlMacrosheet|xlIntlMacrosheet)$/.test(rel.type) || !part(rel.target)) return []
    return [{ name: s.name, path: rel.target }]
  })
  const sheet = chooseSheet(sheets, options.preferredSheets ?? [])
  if (!sheet) throw new XlsxError('format', 'the workbook has no worksheet')

  const stylesPath = rels.find((r) => r.type.endsWith('/styles'))?.target ?? `${workbookDir}styles.xml`
  const stringsPath = rels.find((r) => r.type.endsWith('/sharedStrings'))?.target ?? `${workbookDir}sharedStrings.xml`
  const stylesXml = xmlPart(stylesPath)
  const dateStyles = stylesXml === undefined ? new Uint8Array(0) : parseDateStyles(stylesXml, clock)

  const stringsEntry = part(stringsPath)
  let sharedStrings: string[] = []
  if (stringsEntry) {
    const bytes = inflate(stringsEntry)
    refuseDtd(bytes)
    sharedStrings = scanSharedStrings(bytes, clock)
  }

  const sheetBytes = inflate(part(sheet.path)!)
  refuseDtd(sheetBytes)
  const rows = scanSheet(sheetBytes, { sharedStrings, dateStyles, date1904: workbook.date1904, maxRows: options.maxRows, clock })
  return { sheetName: sheet.name, rows }
}

function chooseSheet<T extends { name: string }>(sheets: readonly T[], preferred: readonly string[]): T | undefined {
  for (const name of preferred) {
    const exact = sheets.find((s) => s.name === name)
    if (exact) return exact
    const loose = sheets.find((s) => s.name.trim().toLowerCase() === name.trim().toLowerCase())
    if (loose) return loose
  }
  return sheets[0]
}

// ---- container ----------------------------------------------------------------------------

const OLE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]

/** Refuses what is not a zip; an OLE file is an .xls, or an encrypted .xlsx when it holds the encryption streams. */
function sniffContainer(buf: Buffer) {
  if (buf.length >= 512 && OLE_SIGNATURE.every((byte, i) => buf[i] === byte)) {
    const names = oleStreamNames(buf)
    const isEncrypted = names
      ? names.includes('EncryptedPackage') || names.includes('EncryptionInfo')
      : buf.includes(Buffer.from('EncryptedPackage', 'utf16le'))
    if (isEncrypted) throw new XlsxError('encrypted', 'a password-protected workbook')
    throw new XlsxError('format', 'an OLE compound file (.xls or another Office 97–2003 document)')
  }
  const isZip = buf.length >= 22 && buf[0] === 0x50 && buf[1] === 0x4b && ((buf[2] === 3 && buf[3] === 4) || (buf[2] === 5 && buf[3] === 6))
  if (!isZip) throw new XlsxError('format', 'not a zip file')
}

/** The names in an OLE compound file's directory, or null when the structure does not add up. */
function oleStreamNames(buf: Buffer): string[] | null {
  try {
    return oleDirectoryNames(buf)
  } catch {
    return null
  }
}

function oleDirectoryNames(buf: Buffer): string[] | null {
  const sectorShift = buf.readUInt16LE(30)
  if (sectorShift !== 9 && sectorShift !== 12) return null
  const sectorSize = 1 << sectorShift
  const sectorCount = Math.floor((buf.length - 512) / sectorSize)
  const sectorOffset = (sector: number) => 512 + sector * sectorSize
  // The FAT's own sectors: the first 109 are listed in the header, the rest in the DIFAT chain.
  const fatSectors: number[] = []
  for (let i = 0; i < 109; i++) fatSectors.push(buf.readUInt32LE(76 + i * 4))
  let difat = buf.readUInt32LE(68)
  for (let hops = 0; difat < sectorCount && hops < sectorCount; hops++) {
    const base = sectorOffset(difat)
    for (let i = 0; i < sectorSize / 4 - 1; i++) fatSectors.push(buf.readUInt32LE(base + i * 4))
    difat = buf.readUInt32LE(base + sectorSize - 4)
  }
  const entriesPerSector = sectorSize / 4
  const next = (sector: number): number => {
    const fatSector = fatSectors[Math.floor(sector / entriesPerSector)]
    if (fatSector === undefined || fatSector >= sectorCount) return -1
    return buf.readUInt32LE(sectorOffset(fatSector) + (sector % entriesPerSector) * 4)
  }
  const names: string[] = []
  let sector = buf.readUInt32LE(48)
  for (let hops = 0; sector < sectorCount; hops++) {
    if (hops > sectorCount) return null
    const base = sectorOffset(sector)
    for (let e = 0; e < sectorSize / 128; e++) {
      const entry = base + e * 128
      const nameBytes = buf.readUInt16LE(entry + 64)
      if (nameBytes >= 2 && nameBytes <= 64) names.push(buf.toString('utf16le', entry, entry + nameBytes - 2))
    }
    sector = next(sector)
  }
  return names.length > 0 ? names : null
}

interface ZipEntry {
  readonly name: string
  readonly flags: number
  readonly method: number
  readonly compressedSize: number
  readonly size: number
  readonly localOffset: number
}

/** Reads and checks the central directory; nothing is inflated here. Keys are lower-case names. */
function openZip(buf: Buffer, maxUncompressedBytes: number): Map<string, ZipEntry> {
  const eocd = findEndOfCentralDirectory(buf)
  if (eocd < 0) throw new XlsxError('format', 'not a zip file or a truncated one (no end of central directory)')
  const disk = buf.readUInt16LE(eocd + 4)
  const cdDisk = buf.readUInt16LE(eocd + 6)
  const count = buf.readUInt16LE(eocd + 10)
  const cdSize = buf.readUInt32LE(eocd + 12)
  const cdOffset = buf.readUInt32LE(eocd + 16)
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) throw new XlsxError('too_large', 'zip64 archive')
  if (disk !== 0 || cdDisk !== 0) throw new XlsxError('format', 'multi-volume zip')
  if (count > XLSX_READ_LIMITS.maxEntries) throw new XlsxError('too_large', `${count} zip entries`)
  if (cdOffset + cdSize > eocd) throw new XlsxError('format', 'truncated zip (central directory out of bounds)')

  const entries = new Map<string, ZipEntry>()
  let total = 0
  let p = cdOffset
  const end = cdOffset + cdSize
  for (let i = 0; i < count; i++) {
    if (p + 46 > end || buf.readUInt32LE(p) !== 0x02014b50) throw new XlsxError('format', 'broken zip central directory')
    const flags = buf.readUInt16LE(p + 8)
    const method = buf.readUInt16LE(p + 10)
    const compressedSize = buf.readUInt32LE(p + 20)
    const size = buf.readUInt32LE(p + 24)
    const nameLength = buf.readUInt16LE(p + 28)
    const extraLength = buf.readUInt16LE(p + 30)
    const commentLength = buf.readUInt16LE(p + 32)
    const localOffset = buf.readUInt32LE(p + 42)
    if (p + 46 + nameLength > end) throw new XlsxError('format', 'broken zip central directory')
    if (size === 0xffffffff || compressedSize === 0xffffffff || localOffset === 0xffffffff) throw new XlsxError('too_large', 'zip64 entry')
    const rawName = buf.toString(flags & 0x800 ? 'utf8' : 'latin1', p + 46, p + 46 + nameLength)
    const name = rawName.replaceAll('\\', '/').replace(/^\/+/, '')
    p += 46 + nameLength + extraLength + commentLength

    total += size
    if (size > maxUncompressedBytes || total > maxUncompressedBytes)
      throw new XlsxError('too_large', `more than ${maxUncompressedBytes} bytes uncompressed`)
    if (size > XLSX_READ_LIMITS.ratioFloorBytes && size > compressedSize * XLSX_READ_LIMITS.maxCompressionRatio)
      throw new XlsxError('too_large', `${name} compresses more than ${XLSX_READ_LIMITS.maxCompressionRatio}:1`)
    if (name.endsWith('/')) continue
    const key = name.toLowerCase()
    // Two entries with one name: which one a program reads differs, so nobody gets to choose.
    if (entries.has(key)) throw new XlsxError('format', `duplicate zip entry ${name}`)
    entries.set(key, { name, flags, method, compressedSize, size, localOffset })
  }
  return entries
}

function findEndOfCentralDirectory(buf: Buffer): number {
  const lowest = Math.max(0, buf.length - 22 - 0xffff)
  for (let i = buf.length - 22; i >= lowest; i--) {
    if (buf[i] === 0x50 && buf[i + 1] === 0x4b && buf[i + 2] === 5 && buf[i + 3] === 6) {
      // The comment must end where the file ends, else this is a stray signature in the comment.
      if (i + 22 + buf.readUInt16LE(i + 20) <= buf.length) return i
    }
  }
  return -1
}

/** The entry's bytes, never more than the directory declared (a lying directory ends here). */
function inflateEntry(buf: Buffer, entry: ZipEntry): Buffer {
  if (entry.flags & 1) throw new XlsxError('encrypted', `${entry.name} is encrypted`)
  const local = entry.localOffset
  if (local + 30 > buf.length || buf.readUInt32LE(local) !== 0x04034b50) throw new XlsxError('format', `broken zip entry ${entry.name}`)
  const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28)
  const end = start + entry.compressedSize
  if (end > buf.length) throw new XlsxError('format', `truncated zip entry ${entry.name}`)
  const compressed = buf.subarray(start, end)
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.size) throw new XlsxError('format', `stored entry ${entry.name} with two sizes`)
    return compressed
  }
  if (entry.method !== 8) throw new XlsxError('format', `zip compression method ${entry.method}`)
  let out: Buffer
  try {
    // One output chunk of the declared size: no concatenation copy, and one byte more than
    // declared is already a lie.
    const limit = entry.size + 1
    out = inflateRawSync(compressed, { maxOutputLength: limit, chunkSize: Math.max(64, limit) })
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError)
      throw new XlsxError('too_large', `${entry.name} inflates beyond its declared ${entry.size} bytes`)
    throw new XlsxError('format', `${entry.name}: ${(error as Error).message}`)
  }
  if (out.length !== entry.size) throw new XlsxError('format', `${entry.name} is shorter than declared`)
  return out
}

// ---- XML basics -----------------------------------------------------------------------------

const LT = 0x3c
const GT = 0x3e
const SLASH = 0x2f
const BANG = 0x21
const QMARK = 0x3f
const COLON = 0x3a
const EQ = 0x3d
const DQUOTE = 0x22
const SQUOTE = 0x27

/**
 * No DOCTYPE, no ENTITY, nothing `<!` but comments and CDATA: without a DTD no entity can be
 * declared, so none can expand (billion laughs, external entities).
 */
function refuseDtd(bytes: Buffer) {
  // `!` is rare in a sheet, and a one-byte search runs at memchr speed.
  for (let i = bytes.indexOf(BANG); i !== -1; i = bytes.indexOf(BANG, i + 1)) {
    if (bytes[i - 1] !== LT) continue
    const isComment = bytes[i + 1] === 0x2d && bytes[i + 2] === 0x2d
    if (!isComment && bytes.toString('latin1', i + 1, i + 8) !== '[CDATA[') throw new XlsxError('format', 'XML with a DTD or entity declaration')
  }
}

function decodeXmlBytes(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.toString('utf16le', 2)
  if (bytes[0] === 0xfe && bytes[1] === 0xff) throw new XlsxError('format', 'UTF-16BE XML')
  return bytes.toString('utf8')
}

const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos));/g
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
const OOXML_ESCAPE = /_x([0-9A-Fa-f]{4})_/g

function codePoint(cp: number): string {
  return cp > 0 && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff) ? String.fromCodePoint(cp) : '\uFFFD'
}

/** The five XML entities and character references, then Excel's `_xHHHH_` escapes. */
export function decodeXmlText(text: string): string {
  let s = text
  if (s.includes('&'))
    s = s.replace(ENTITY, (_m, dec?: string, hex?: string, name?: string) =>
      name ? NAMED[name]! : codePoint(dec ? Number.parseInt(dec, 10) : Number.parseInt(hex!, 16)),
    )
  if (s.includes('_x')) s = s.replace(OOXML_ESCAPE, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
  return s
}

interface Tag {
  readonly name: string
  readonly isClose: boolean
  readonly attrs: ReadonlyMap<string, string>
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d

/**
 * Tags of a small part (workbook, relationships, styles): local names, attributes decoded.
 * Scanned by hand in one pass (no backtracking regex an attacker could make quadratic).
 */
function* tagsOf(xml: string, clock: Clock): Generator<Tag> {
  const n = xml.length
  let count = 0
  for (let i = xml.indexOf('<'); i !== -1; i = xml.indexOf('<', i)) {
    if ((++count & (CLOCK_EVERY - 1)) === 0) clock.check()
    const first = xml.charCodeAt(i + 1)
    if (first === BANG || first === QMARK) {
      const marker = first === QMARK ? '?>' : xml.startsWith('<!--', i) ? '-->' : ']]>'
      const close = xml.indexOf(marker, i + 2)
      if (close === -1) throw new XlsxError('format', 'truncated XML')
      i = close + marker.length
      continue
    }
    const isClose = first === SLASH
    let j = isClose ? i + 2 : i + 1
    const nameStart = j
    while (j < n && !isSpace(xml.charCodeAt(j)) && xml.charCodeAt(j) !== GT && xml.charCodeAt(j) !== SLASH) j++
    const qualified = xml.slice(nameStart, j)
    const attrs = new Map<string, string>()
    for (;;) {
      while (j < n && isSpace(xml.charCodeAt(j))) j++
      if (j >= n) throw new XlsxError('format', 'truncated XML')
      const c = xml.charCodeAt(j)
      if (c === GT) break
      if (c === SLASH) {
        j++
        continue
      }
      const attrStart = j
      while (j < n && !isSpace(xml.charCodeAt(j)) && xml.charCodeAt(j) !== EQ && xml.charCodeAt(j) !== GT) j++
      const attrName = xml.slice(attrStart, j)
      while (j < n && isSpace(xml.charCodeAt(j))) j++
      if (xml.charCodeAt(j) !== EQ) throw new XlsxError('format', 'malformed XML attribute')
      j++
      while (j < n && isSpace(xml.charCodeAt(j))) j++
      const quote = xml[j]
      if (quote !== '"' && quote !== "'") throw new XlsxError('format', 'malformed XML attribute')
      const valueEnd = xml.indexOf(quote, j + 1)
      if (valueEnd === -1) throw new XlsxError('format', 'truncated XML')
      const value = decodeXmlText(xml.slice(j + 1, valueEnd))
      j = valueEnd + 1
      attrs.set(attrName, value)
      const colon = attrName.indexOf(':')
      if (colon >= 0 && !attrs.has(attrName.slice(colon + 1))) attrs.set(attrName.slice(colon + 1), value)
    }
    i = j + 1
    yield { name: qualified.slice(qualified.indexOf(':') + 1), isClose, attrs }
  }
}

// ---- workbook, relationships, styles ------------------------------------------------------------

interface Rel {
  readonly id: string
  readonly type: string
  /** Part name from the package root, without a leading slash. */
  readonly target: string
}

function parseRels(xml: string | undefined, baseDir: string, clock: Clock): Rel[] {
  if (xml === undefined) return []
  const rels: Rel[] = []
  for (const tag of tagsOf(xml, clock)) {
    if (tag.isClose || tag.name !== 'Relationship' || tag.attrs.get('TargetMode') === 'External') continue
    const target = tag.attrs.get('Target')
    if (!target) continue
    rels.push({ id: tag.attrs.get('Id') ?? '', type: tag.attrs.get('Type') ?? '', target: resolvePartName(baseDir, target) })
  }
  return rels
}

function resolvePartName(baseDir: string, target: string): string {
  const path = target.startsWith('/') ? target.slice(1) : baseDir + target
  const parts: string[] = []
  for (const segment of path.split('/')) {
    if (segment === '..') parts.pop()
    else if (segment !== '.' && segment !== '') parts.push(segment)
  }
  return parts.join('/')
}

function parseWorkbook(xml: string, clock: Clock): { sheets: Array<{ name: string; relId: string }>; date1904: boolean } {
  const sheets: Array<{ name: string; relId: string }> = []
  let date1904 = false
  for (const tag of tagsOf(xml, clock)) {
    if (tag.isClose) continue
    if (tag.name === 'workbookPr') {
      const value = tag.attrs.get('date1904')
      date1904 = value === '1' || value === 'true'
    } else if (tag.name === 'sheet') {
      const relId = [...tag.attrs].find(([key]) => key.endsWith(':id'))?.[1]
      const name = tag.attrs.get('name')
      if (relId && name !== undefined) sheets.push({ name, relId })
    }
  }
  return { sheets, date1904 }
}

/** Built-in number formats that show a date or time (ECMA-376 18.8.30). */
const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47])

/** Whether a format code shows a date: d, m or y outside quoted text, brackets and escapes. */
export function isDateFormatCode(code: string): boolean {
  // Excel keeps codes under 256 characters; a longer one is not a date format worth a scan.
  if (code.length > 1024) return false
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\\./g, '')
    .replace(/[_*]./g, '')
  return /[dmy]/i.test(bare)
}

/** Per cellXfs index, 1 when the style shows numbers as dates. */
function parseDateStyles(xml: string, clock: Clock): Uint8Array {
  const customFormats = new Map<number, string>()
  const xfFormats: number[] = []
  let inCellXfs = false
  for (const tag of tagsOf(xml, clock)) {
    if (tag.name === 'cellXfs') inCellXfs = !tag.isClose
    else if (tag.isClose) continue
    else if (tag.name === 'numFmt') {
      const id = Number(tag.attrs.get('numFmtId'))
      if (Number.isInteger(id)) customFormats.set(id, tag.attrs.get('formatCode') ?? '')
    } else if (tag.name === 'xf' && inCellXfs) {
      xfFormats.push(Number(tag.attrs.get('numFmtId') ?? 0))
    }
  }
  const dates = new Uint8Array(xfFormats.length)
  xfFormats.forEach((id, i) => {
    const custom = customFormats.get(id)
    dates[i] = (custom === undefined ? BUILTIN_DATE_FORMATS.has(id) : isDateFormatCode(custom)) ? 1 : 0
  })
  return dates
}

// ---- byte scanners ----------------------------------------------------------------------------

/**
 * The text of a text node starting at `start`: up to the next tag, with CDATA sections and
 * comments inside it handled. Sets `textEnd` to the `<` of the tag that ends it.
 */
let textEnd = 0
function readText(b: Buffer, start: number): string {
  let i = b.indexOf(LT, start)
  if (i === -1) throw new XlsxError('format', 'truncated XML')
  if (b[i + 1] !== BANG) {
    textEnd = i
    return decodeXmlText(b.toString('utf8', start, i))
  }
  // Rare: a CDATA section or a comment in the text (Excel writes neither).
  let text = decodeXmlText(b.toString('utf8', start, i))
  for (;;) {
    if (b[i + 1] !== BANG) break
    if (b[i + 2] === 0x2d) {
      const close = b.indexOf('-->', i)
      if (close === -1) throw new XlsxError('format', 'truncated XML')
      i = close + 3
    } else {
      const close = b.indexOf(']]>', i)
      if (close === -1) throw new XlsxError('format', 'truncated XML')
      text += b.toString('utf8', i + 9, close)
      i = close + 3
    }
    const next = b.indexOf(LT, i)
    if (next === -1) throw new XlsxError('format', 'truncated XML')
    text += decodeXmlText(b.toString('utf8', i, next))
    i = next
  }
  textEnd = i
  return text
}

/** Index of the `>` that ends the tag whose name ends at `i`, quotes respected. */
function tagEndFrom(b: Buffer, i: number): number {
  const n = b.length
  let quote = 0
  for (; i < n; i++) {
    const ch = b[i]!
    if (quote) {
      if (ch === quote) quote = 0
    } else if (ch === GT) return i
    else if (ch === DQUOTE || ch === SQUOTE) quote = ch
  }
  throw new XlsxError('format', 'truncated XML')
}

/** Skips `<!-- -->`, `<![CDATA[ ]]>` or `<? ?>` at `i`; returns the index after it. */
function skipSpecial(b: Buffer, i: number): number {
  const marker = b[i + 1] === QMARK ? '?>' : b[i + 2] === 0x2d ? '-->' : ']]>'
  const close = b.indexOf(marker, i + 2)
  if (close === -1) throw new XlsxError('format', 'truncated XML')
  return close + marker.length
}

function scanSharedStrings(b: Buffer, clock: Clock): string[] {
  const strings: string[] = []
  const n = b.length
  let i = 0
  let current: string | null = null
  let inPhonetic = false
  let work = 0
  for (;;) {
    while (i < n && b[i] !== LT) i++
    if (i >= n) break
    if ((++work & (CLOCK_EVERY - 1)) === 0) clock.check()
    const first = b[i + 1]
    if (first === BANG || first === QMARK) {
      i = skipSpecial(b, i)
      continue
    }
    const isClose = first === SLASH
    let j = isClose ? i + 2 : i + 1
    let local = j
    for (; j < n; j++) {
      const ch = b[j]!
      if (ch === GT || ch === SLASH || ch <= 32) break
      if (ch === COLON) local = j + 1
    }
    const len = j - local
    const end = tagEndFrom(b, j)
    const isEmpty = b[end - 1] === SLASH
    i = end + 1
    if (len === 2 && b[local] === 0x73 && b[local + 1] === 0x69) {
      // <si>
      if (isClose) {
        strings.push(current ?? '')
        current = null
      } else if (isEmpty) strings.push('')
      else current = ''
    } else if (len === 3 && b[local] === 0x72 && b[local + 1] === 0x50 && b[local + 2] === 0x68) {
      // <rPh>: phonetic reading (East Asian), not part of the value.
      inPhonetic = !isClose && !isEmpty
    } else if (len === 1 && b[local] === 0x74 && !isClose && !isEmpty && current !== null && !inPhonetic) {
      current += readText(b, i)
      i = textEnd
    }
  }
  return strings
}

// Cell types, from the `t` attribute.
const T_NUMBER = 0
const T_SHARED = 1
const T_INLINE = 2
const T_STRING = 3
const T_BOOL = 4
const T_ERROR = 5
const T_ISO_DATE = 6

function cellType(b: Buffer, s: number, e: number): number {
  const len = e - s
  const c = b[s]
  if (len === 1) {
    if (c === 0x73) return T_SHARED // s
    if (c === 0x62) return T_BOOL // b
    if (c === 0x65) return T_ERROR // e
    if (c === 0x64) return T_ISO_DATE // d
    return T_NUMBER
  }
  if (len === 3 && c === 0x73 && b[s + 1] === 0x74 && b[s + 2] === 0x72) return T_STRING // str
  if (len === 9 && c === 0x69) return T_INLINE // inlineStr
  return T_NUMBER
}

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16]

/** A number from ASCII bytes; the exact fast path for up to 15 digits, `Number` otherwise. NaN when not a number. */
function numberAt(b: Buffer, s: number, e: number): number {
  let k = s
  const isNegative = b[k] === 0x2d
  if (isNegative) k++
  let mantissa = 0
  let digits = 0
  let fraction = -1
  for (; k < e; k++) {
    const ch = b[k]!
    if (ch >= 0x30 && ch <= 0x39) {
      mantissa = mantissa * 10 + (ch - 0x30)
      digits++
    } else if (ch === 0x2e && fraction < 0) fraction = digits
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

interface SheetContext {
  readonly sharedStrings: readonly string[]
  readonly dateStyles: Uint8Array
  readonly date1904: boolean
  readonly maxRows: number
  readonly clock: Clock
}

/**
 * The rows of a worksheet, scanned over its bytes: only `<row>`, `<c>`, `<v>`, `<is>`/`<t>`
 * matter, everything else is stepped over. Empty rows are skipped and do not count against
 * `maxRows`; rows and cells without `r` follow the previous one.
 */
function scanSheet(b: Buffer, ctx: SheetContext): SheetRow[] {
  const { sharedStrings, dateStyles, maxRows, clock } = ctx
  const dateOffset = ctx.date1904 ? 1462 : 0
  const dates = new Map<number, ExcelDate>()
  const n = b.length
  const rows: SheetRow[] = []
  // Cell slots, gaps included, cost memory whether they hold a value or not: a sheet of
  // `<c r="XFD1">` cells would otherwise ask for 16,384 slots per 40 bytes.
  let slotBudget = 1_048_576 + Math.floor(n / 4)
  let work = 0

  let inSheetData = false
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
    if (rows.length >= maxRows) throw new XlsxError('too_many_rows', `more than ${maxRows} rows`)
    rows.push({ row: rowNumber, cells })
  }

  const valueText = () => vText ?? decodeXmlText(b.toString('utf8', vStart, vEnd))
  const valueNumber = () => {
    if (vText === null) return numberAt(b, vStart, vEnd)
    const number = vText.trim() === '' ? Number.NaN : Number(vText)
    return Number.isFinite(number) ? number : Number.NaN
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

  const dateOf = (serial: number): ExcelDate => {
    const key = serial + dateOffset
    let date = dates.get(key)
    if (!date) {
      date = Object.freeze({ kind: 'date' as const, serial: key })
      dates.set(key, date)
    }
    return date
  }

  let i = 0
  for (;;) {
    while (i < n && b[i] !== LT) i++
    if (i >= n) break
    if ((++work & (CLOCK_EVERY - 1)) === 0) clock.check()
    const first = b[i + 1]
    if (first === BANG || first === QMARK) {
      i = skipSpecial(b, i)
      continue
    }
    const isClose = first === SLASH
    let j = isClose ? i + 2 : i + 1
    let local = j
    for (; j < n; j++) {
      const ch = b[j]!
      if (ch === GT || ch === SLASH || ch <= 32) break
      if (ch === COLON) local = j + 1
    }
    const len = j - local
    const c0 = b[local]

    if (!inSheetData) {
      const end = tagEndFrom(b, j)
      i = end + 1
      if (len === 9 && !isClose && b.toString('latin1', local, j) === 'sheetData') {
        if (b[end - 1] === SLASH) break
        inSheetData = true
      }
      continue
    }

    if (len === 1 && c0 === 0x63) {
      // <c>
      if (isClose) {
        i = tagEndFrom(b, j) + 1
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
        while (k < n && b[k]! <= 32) k++
        const ch = b[k]
        if (ch === GT) break
        if (ch === SLASH) {
          isEmpty = true
          k++
          break
        }
        if (k >= n) throw new XlsxError('format', 'truncated XML')
        const nameStart = k
        while (k < n && b[k] !== EQ && b[k]! > 32) k++
        const nameLength = k - nameStart
        const name = b[nameStart]
        while (k < n && b[k] !== DQUOTE && b[k] !== SQUOTE) k++
        const quote = b[k]
        const valueStart = ++k
        while (k < n && b[k] !== quote) k++
        if (k >= n) throw new XlsxError('format', 'truncated XML')
        const valueEnd = k++
        if (nameLength !== 1) continue
        if (name === 0x72) {
          // r="AB12": the letters give the column.
          let col = 0
          let p = valueStart
          for (; p < valueEnd; p++) {
            const letter = b[p]! & 0xdf
            if (letter < 0x41 || letter > 0x5a) break
            col = col * 26 + (letter - 0x40)
          }
          if (col > MAX_EXCEL_COLUMN) throw new XlsxError('format', 'a cell beyond column XFD')
          if (p > valueStart) refColumn = col - 1
        } else if (name === 0x74) {
          type = cellType(b, valueStart, valueEnd)
        } else if (name === 0x73) {
          const style = numberAt(b, valueStart, valueEnd)
          isDateStyle = dateStyles[style] === 1
        }
      }
      if (b[k] !== GT) throw new XlsxError('format', 'malformed cell tag')
      i = k + 1
      column = refColumn >= 0 ? refColumn : column + 1
      if (column >= MAX_EXCEL_COLUMN) throw new XlsxError('format', 'a cell beyond column XFD')
      inCell = !isEmpty
      inInline = false
      inPhonetic = false
      continue
    }

    if (len === 1 && c0 === 0x76) {
      // <v>: the value is the text up to the next tag.
      const end = tagEndFrom(b, j)
      i = end + 1
      if (isClose || !inCell || b[end - 1] === SLASH) continue
      let p = i
      while (p < n && b[p] !== LT) p++
      if (p >= n) throw new XlsxError('format', 'truncated XML')
      if (b[p + 1] === BANG) {
        // CDATA or a comment inside the value (Excel writes neither): the slow road.
        vText = readText(b, i)
        vStart = i
        vEnd = i
        i = textEnd
        continue
      }
      vStart = i
      vEnd = p
      i = p
      continue
    }

    if (len === 3 && c0 === 0x72 && b[local + 1] === 0x6f && b[local + 2] === 0x77) {
      // <row>
      const end = tagEndFrom(b, j)
      i = end + 1
      if (isClose) {
        if (inCell) endCell()
        if (inRow) endRow()
        continue
      }
      if (inCell) endCell()
      if (inRow) endRow()
      let next = rowNumber + 1
      const r = attributeValueRange(b, j, end, 0x72)
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

    if (inCell && len === 2 && c0 === 0x69 && b[local + 1] === 0x73) {
      // <is>: an inline string.
      i = tagEndFrom(b, j) + 1
      inInline = !isClose
      if (!isClose && inlineText === null) inlineText = ''
      continue
    }
    if (inInline && len === 3 && c0 === 0x72 && b[local + 1] === 0x50 && b[local + 2] === 0x68) {
      const end = tagEndFrom(b, j)
      i = end + 1
      inPhonetic = !isClose && b[end - 1] !== SLASH
      continue
    }
    if (inInline && len === 1 && c0 === 0x74) {
      const end = tagEndFrom(b, j)
      i = end + 1
      if (isClose || b[end - 1] === SLASH || inPhonetic) continue
      inlineText += readText(b, i)
      i = textEnd
      continue
    }

    if (isClose && len === 9 && b.toString('latin1', local, j) === 'sheetData') {
      if (inCell) endCell()
      if (inRow) endRow()
      return rows
    }
    // Anything else (<f>, <extLst>, rich-text properties): step over the tag.
    i = tagEndFrom(b, j) + 1
  }
  if (inSheetData) throw new XlsxError('format', 'truncated worksheet')
  return rows
}

/** The value range of a one-letter attribute inside a tag, or null. */
function attributeValueRange(b: Buffer, from: number, to: number, letter: number): [number, number] | null {
  let k = from
  while (k < to) {
    while (k < to && b[k]! <= 32) k++
    const nameStart = k
    while (k < to && b[k] !== EQ && b[k]! > 32 && b[k] !== SLASH) k++
    const nameLength = k - nameStart
    while (k < to && b[k] !== DQUOTE && b[k] !== SQUOTE) k++
    if (k >= to) return null
    const quote = b[k]
    const valueStart = ++k
    while (k < to && b[k] !== quote) k++
    if (nameLength === 1 && b[nameStart] === letter) return [valueStart, k]
    k++
  }
  return null
}
