import { constants, crc32, deflateRawSync } from 'node:zlib'
import * as XLSX from '@e965/xlsx'

// Builders for the workbook readers' tests and benchmarks: zips (honest or lying), workbooks in the
// layout Excel writes, and OLE compound files. Inputs are generated in code, never committed as
// binaries. Not imported by application code.

export interface ZipEntrySpec {
  readonly name: string
  /** The entry's bytes (a string is UTF-8); compressed here unless `deflated` is given. */
  readonly data?: Uint8Array | string
  /** A raw deflate stream already made (see `deflateStream`); `size` and `crc` come with it. */
  readonly deflated?: { readonly bytes: Uint8Array; readonly size: number; readonly crc: number }
  /** 0 = stored, 8 = deflate (default), anything else is written as is (for refusal tests). */
  readonly method?: number
  /** Declared uncompressed size, to make a directory that lies. */
  readonly declaredSize?: number
  readonly level?: number
}

/** A zip archive (no zip64, no data descriptors), the way Excel writes one. */
export function buildZip(entries: readonly ZipEntrySpec[]): Uint8Array {
  const chunks: Buffer[] = []
  const central: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8')
    const method = entry.method ?? 8
    let body: Uint8Array
    let size: number
    let crc: number
    if (entry.deflated) {
      body = entry.deflated.bytes
      size = entry.deflated.size
      crc = entry.deflated.crc
    } else {
      const raw = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : (entry.data ?? new Uint8Array(0))
      body = method === 8 ? deflateRawSync(raw, { level: entry.level ?? 6 }) : raw
      size = raw.length
      crc = crc32(raw)
    }
    const declared = entry.declaredSize ?? size
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(0x800, 6)
    local.writeUInt16LE(method, 8)
    local.writeUInt32LE(crc >>> 0, 14)
    local.writeUInt32LE(body.length, 18)
    local.writeUInt32LE(declared, 22)
    local.writeUInt16LE(name.length, 26)
    const header = Buffer.alloc(46)
    header.writeUInt32LE(0x02014b50, 0)
    header.writeUInt16LE(20, 4)
    header.writeUInt16LE(20, 6)
    header.writeUInt16LE(0x800, 8)
    header.writeUInt16LE(method, 10)
    header.writeUInt32LE(crc >>> 0, 16)
    header.writeUInt32LE(body.length, 20)
    header.writeUInt32LE(declared, 24)
    header.writeUInt16LE(name.length, 28)
    header.writeUInt32LE(offset, 42)
    chunks.push(local, name, Buffer.from(body.buffer, body.byteOffset, body.byteLength))
    central.push(header, name)
    offset += 30 + name.length + body.length
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

/**
 * Deflates a sequence of pieces without holding them together: each piece is compressed on its
 * own with a full flush (fresh history), and the pieces' streams are concatenated, ending with
 * an empty final block. Lets a test make a 50 MB sheet in a few MB of memory.
 */
export function deflateStream(pieces: Iterable<Uint8Array | string>, level = 6): { bytes: Uint8Array; size: number; crc: number } {
  const out: Buffer[] = []
  let size = 0
  let crc = 0
  for (const piece of pieces) {
    const raw = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece
    out.push(deflateRawSync(raw, { level, finishFlush: constants.Z_FULL_FLUSH }))
    size += raw.length
    crc = crc32(raw, crc)
  }
  out.push(deflateRawSync(Buffer.alloc(0)))
  return { bytes: Buffer.concat(out), size, crc }
}

/** A raw deflate stream of `megabytes` MB of zeros, made of one repeated 1 MB block (about 1 KB each). */
export function zeroBomb(megabytes: number): { bytes: Uint8Array; size: number } {
  const block = deflateRawSync(Buffer.alloc(1 << 20), { level: 9, finishFlush: constants.Z_FULL_FLUSH })
  const parts: Buffer[] = Array.from({ length: megabytes }, () => block)
  parts.push(deflateRawSync(Buffer.alloc(0)))
  return { bytes: Buffer.concat(parts), size: megabytes * (1 << 20) }
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

export const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const OFFICE_CT = 'application/vnd.openxmlformats-officedocument.spreadsheetml'
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'

export interface WorkbookSpec {
  /** Each sheet's `<sheetData>` content (rows), or its whole XML when it starts with `<?xml`/`<worksheet`. */
  readonly sheets: ReadonlyArray<{ readonly name: string; readonly xml?: string; readonly deflated?: ZipEntrySpec['deflated'] }>
  /** Shared strings as plain texts, or the whole sst XML. */
  readonly sharedStrings?: readonly string[] | string
  /** `<numFmt>` codes by id. */
  readonly numFmts?: Readonly<Record<number, string>>
  /** numFmtId of each cellXfs entry (index = `s` of a cell); default [0, 14]. */
  readonly cellXfs?: readonly number[]
  /** Extra or replacing entries (e.g. a hostile styles.xml). */
  readonly extraEntries?: readonly ZipEntrySpec[]
  readonly date1904?: boolean
}

/** The shared strings part as Excel writes it. */
export function sharedStringsXml(strings: readonly string[]): string {
  const items = strings.map((s) => `<si><t${/^\s|\s$/.test(s) ? ' xml:space="preserve"' : ''}>${escapeXml(s)}</t></si>`)
  return `${XML_HEAD}<sst xmlns="${MAIN_NS}" count="${strings.length}" uniqueCount="${strings.length}">${items.join('')}</sst>`
}

export function worksheetXml(sheetData: string): string {
  return (
    `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" ` +
    `mc:Ignorable="x14ac" xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac">` +
    `<sheetViews><sheetView workbookViewId="0" rightToLeft="1"/></sheetViews><sheetFormatPr defaultRowHeight="15"/>` +
    `<sheetData>${sheetData}</sheetData></worksheet>`
  )
}

export function stylesXml(numFmts: Readonly<Record<number, string>> = {}, cellXfs: readonly number[] = [0, 14]): string {
  const fmts = Object.entries(numFmts)
  const fmtXml = fmts.length
    ? `<numFmts count="${fmts.length}">${fmts.map(([id, code]) => `<numFmt numFmtId="${id}" formatCode="${escapeXml(code)}"/>`).join('')}</numFmts>`
    : ''
  return (
    `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">${fmtXml}<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>` +
    `<fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders>` +
    `<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
    `<cellXfs count="${cellXfs.length}">${cellXfs.map((id) => `<xf numFmtId="${id}" fontId="0" fillId="0" borderId="0" xfId="0"${id ? ' applyNumberFormat="1"' : ''}/>`).join('')}</cellXfs>` +
    `<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`
  )
}

/** An .xlsx with the parts and relationships Excel writes. */
export function buildWorkbook(spec: WorkbookSpec): Uint8Array {
  const sheetEntries: ZipEntrySpec[] = spec.sheets.map((sheet, i) => {
    const name = `xl/worksheets/sheet${i + 1}.xml`
    if (sheet.deflated) return { name, deflated: sheet.deflated }
    const xml = sheet.xml ?? ''
    return { name, data: /^\s*<(\?xml|worksheet|\w+:worksheet)/.test(xml) ? xml : worksheetXml(xml) }
  })
  const n = spec.sheets.length
  const workbookXml =
    `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><workbookPr${spec.date1904 ? ' date1904="1"' : ''}/><sheets>` +
    spec.sheets.map((s, i) => `<sheet name="${escapeXml(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('') +
    `</sheets></workbook>`
  const rel = (id: string, type: string, target: string) => `<Relationship Id="${id}" Type="${REL_NS}/${type}" Target="${target}"/>`
  const workbookRels =
    `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
    spec.sheets.map((_s, i) => rel(`rId${i + 1}`, 'worksheet', `worksheets/sheet${i + 1}.xml`)).join('') +
    rel(`rId${n + 1}`, 'styles', 'styles.xml') +
    rel(`rId${n + 2}`, 'sharedStrings', 'sharedStrings.xml') +
    `</Relationships>`
  const strings = spec.sharedStrings ?? []
  const entries: ZipEntrySpec[] = [
    {
      name: '[Content_Types].xml',
      data:
        `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
        `<Default Extension="xml" ContentType="application/xml"/>` +
        `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
        spec.sheets
          .map((_s, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="${OFFICE_CT}.worksheet+xml"/>`)
          .join('') +
        `<Override PartName="/xl/styles.xml" ContentType="${OFFICE_CT}.styles+xml"/>` +
        `<Override PartName="/xl/sharedStrings.xml" ContentType="${OFFICE_CT}.sharedStrings+xml"/></Types>`,
    },
    {
      name: '_rels/.rels',
      data:
        `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    { name: 'xl/workbook.xml', data: workbookXml },
    { name: 'xl/_rels/workbook.xml.rels', data: workbookRels },
    { name: 'xl/styles.xml', data: stylesXml(spec.numFmts, spec.cellXfs) },
    { name: 'xl/sharedStrings.xml', data: typeof strings === 'string' ? strings : sharedStringsXml(strings) },
    ...sheetEntries,
  ]
  const extra = spec.extraEntries ?? []
  const replaced = new Set(extra.map((e) => e.name))
  return buildZip([...entries.filter((e) => !replaced.has(e.name)), ...extra])
}

/**
 * An OLE compound file (the container of .xls and of encrypted .xlsx) whose directory holds
 * the given stream names: a header, one FAT sector and one directory sector.
 */
export function buildOle(streamNames: readonly string[]): Uint8Array {
  const names = ['Root Entry', ...streamNames].slice(0, 4)
  const sector = 512
  const file = Buffer.alloc(512 + 2 * sector)
  file.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], 0)
  file.writeUInt16LE(0x3e, 24)
  file.writeUInt16LE(3, 26)
  file.writeUInt16LE(0xfffe, 28)
  file.writeUInt16LE(9, 30)
  file.writeUInt16LE(6, 32)
  file.writeUInt32LE(1, 44) // FAT sectors
  file.writeUInt32LE(1, 48) // first directory sector
  file.writeUInt32LE(4096, 56)
  file.writeUInt32LE(0xfffffffe, 60)
  file.writeUInt32LE(0xfffffffe, 68)
  for (let i = 0; i < 109; i++) file.writeUInt32LE(i === 0 ? 0 : 0xffffffff, 76 + i * 4)
  const fat = 512
  for (let i = 0; i < 128; i++) file.writeUInt32LE(0xffffffff, fat + i * 4)
  file.writeUInt32LE(0xfffffffd, fat) // sector 0 is the FAT
  file.writeUInt32LE(0xfffffffe, fat + 4) // sector 1 (directory) ends its chain
  const dir = 512 + sector
  names.forEach((name, i) => {
    const entry = dir + i * 128
    const encoded = Buffer.from(`${name}\0`, 'utf16le')
    encoded.copy(file, entry)
    file.writeUInt16LE(encoded.length, entry + 64)
    file[entry + 66] = i === 0 ? 5 : 2
    file.writeUInt32LE(0xffffffff, entry + 68)
    file.writeUInt32LE(0xffffffff, entry + 72)
    file.writeUInt32LE(i === 0 && names.length > 1 ? 1 : 0xffffffff, entry + 76)
    file.writeUInt32LE(0xfffffffe, entry + 116)
  })
  return file
}

// ---- legacy and text containers (.xls, .csv) ---------------------------------------------------

export interface SheetSpec {
  readonly name: string
  /** Rows from row 1, cells from column A; a Date is written as a date cell. */
  readonly rows: ReadonlyArray<ReadonlyArray<string | number | boolean | Date | null>>
  /** Merged ranges, 0-based as SheetJS writes them. */
  readonly merges?: ReadonlyArray<{ s: { r: number; c: number }; e: { r: number; c: number } }>
}

/** A workbook of the given sheets written by SheetJS as .xls (BIFF8, as Excel 97–2003 saves it) or .xlsx. */
export function sheetJsWorkbook(
  sheets: readonly SheetSpec[],
  bookType: 'biff8' | 'xlsx',
  options: { date1904?: boolean } = {},
): Uint8Array {
  const book = XLSX.utils.book_new()
  for (const sheet of sheets) {
    const ws = XLSX.utils.aoa_to_sheet(
      sheet.rows.map((r) => [...r]),
      { cellDates: true },
    )
    if (sheet.merges) ws['!merges'] = sheet.merges.map((m) => ({ s: { ...m.s }, e: { ...m.e } }))
    XLSX.utils.book_append_sheet(book, ws, sheet.name)
  }
  if (options.date1904) book.Workbook = { ...book.Workbook, WBProps: { date1904: true } }
  return new Uint8Array(XLSX.write(book, { type: 'buffer', bookType }) as Buffer)
}

const OLE_SECTOR = 512

/** The first sector and size of a stream in an OLE file written with 512-byte sectors and a one-sector directory chain start. */
export function oleStream(file: Uint8Array, name: string): { start: number; size: number } {
  const buf = Buffer.from(file.buffer, file.byteOffset, file.byteLength)
  const directory = (buf.readUInt32LE(48) + 1) * OLE_SECTOR
  for (let at = directory; at < directory + OLE_SECTOR; at += 128) {
    const length = buf.readUInt16LE(at + 64)
    if (length >= 2 && buf.toString('utf16le', at, at + length - 2) === name)
      return { start: buf.readUInt32LE(at + 116), size: buf.readUInt32LE(at + 120) }
  }
  throw new Error(`no stream ${name}`)
}

/** A copy of the OLE file with one FAT entry (the sector after `sector` in its chain) replaced. */
export function withFatEntry(file: Uint8Array, sector: number, next: number): Uint8Array {
  const copy = Buffer.from(file)
  const perSector = OLE_SECTOR / 4
  const fatSector = copy.readUInt32LE(76 + Math.floor(sector / perSector) * 4)
  copy.writeUInt32LE(next >>> 0, (fatSector + 1) * OLE_SECTOR + (sector % perSector) * 4)
  return copy
}

/** A copy of the .xls whose first worksheet's DIMENSIONS record claims `rows` rows and `columns` columns. */
export function withDimensions(file: Uint8Array, rows: number, columns: number): Uint8Array {
  const copy = Buffer.from(file)
  // DIMENSIONS: type 0x0200, 14 bytes (first row, last row + 1, first column, last column + 1, reserved).
  const at = copy.indexOf(Buffer.from([0x00, 0x02, 0x0e, 0x00]))
  if (at < 0) throw new Error('no DIMENSIONS record')
  copy.writeUInt32LE(rows >>> 0, at + 8)
  copy.writeUInt16LE(columns, at + 14)
  return copy
}

let windows1256Bytes: Map<number, number> | undefined
/** Text in Windows-1256, the encoding Arabic Windows saves CSV in (Node decodes it but has no encoder). */
export function encodeWindows1256(text: string): Uint8Array {
  if (!windows1256Bytes) {
    const decoder = new TextDecoder('windows-1256')
    windows1256Bytes = new Map(Array.from({ length: 256 }, (_v, byte) => [decoder.decode(Uint8Array.of(byte)).charCodeAt(0), byte]))
  }
  const out = new Uint8Array(text.length)
  for (let i = 0; i < text.length; i++) {
    const byte = windows1256Bytes.get(text.charCodeAt(i))
    if (byte === undefined) throw new Error(`U+${text.charCodeAt(i).toString(16)} has no Windows-1256 byte`)
    out[i] = byte
  }
  return out
}

export type XlsCell = string | number | boolean | { readonly date: number } | null

export interface XlsSheetSpec {
  readonly name: string
  /** Rows from row 1 (at most 65,536), cells from column A (at most 256); `{ date: serial }` is a number shown as a date. */
  readonly rows: ReadonlyArray<ReadonlyArray<XlsCell>>
  /** Merged ranges, 0-based. */
  readonly merges?: ReadonlyArray<{ s: { r: number; c: number }; e: { r: number; c: number } }>
}

const FREE_SECTOR = 0xffffffff
const END_OF_CHAIN = 0xfffffffe
const FAT_SECTOR = 0xfffffffd
const DIFAT_SECTOR = 0xfffffffc
const DATE_FORMAT_ID = 164

/**
 * An .xls (BIFF8 in an OLE compound file) written directly, record by record: strings as LABEL
 * records, numbers as NUMBER, dates as NUMBER with a `yyyy/mm/dd` style. SheetJS writes .xls
 * too, but needs about 150 KB of memory per row to do it (1.5 GB for 10,000 rows), too much for
 * the benchmark's 100,000 rows.
 */
export function buildXls(sheets: readonly XlsSheetSpec[]): Uint8Array {
  const record = (type: number, body: Buffer) => {
    if (body.length > 8224) throw new Error('a BIFF8 record over 8,224 bytes')
    const head = Buffer.alloc(4)
    head.writeUInt16LE(type, 0)
    head.writeUInt16LE(body.length, 2)
    return Buffer.concat([head, body])
  }
  const bof = (kind: number) => {
    const body = Buffer.alloc(16)
    body.writeUInt16LE(0x0600, 0)
    body.writeUInt16LE(kind, 2)
    body.writeUInt16LE(0x0dbb, 4)
    body.writeUInt16LE(0x07cc, 6)
    body.writeUInt32LE(0x000100c1, 8)
    body.writeUInt32LE(0x00000406, 12)
    return record(0x0809, body)
  }
  const eof = record(0x000a, Buffer.alloc(0))
  const u16 = (value: number) => {
    const b = Buffer.alloc(2)
    b.writeUInt16LE(value, 0)
    return b
  }
  /** XLUnicodeString with a 16-bit length, always UTF-16. */
  const longString = (text: string) => Buffer.concat([u16(text.length), Buffer.from([1]), Buffer.from(text, 'utf16le')])
  const xf = (format: number) => {
    const body = Buffer.alloc(20)
    body.writeUInt16LE(0, 0)
    body.writeUInt16LE(format, 2)
    body.writeUInt16LE(0x0001, 4)
    body.writeUInt16LE(0x0020, 6)
    return record(0x00e0, body)
  }
  const font = () => {
    const body = Buffer.concat([
      Buffer.from([0xc8, 0, 0, 0, 0xff, 0x7f, 0x90, 0x01, 0, 0, 0, 0, 0, 0]),
      Buffer.from([5, 1]),
      Buffer.from('Arial', 'utf16le'),
    ])
    return record(0x0031, body)
  }

  const sheetStreams = sheets.map((sheet) => {
    if (sheet.rows.length > 65_536) throw new Error('a BIFF8 sheet holds 65,536 rows')
    const parts: Buffer[] = [bof(0x0010)]
    const dimensions = Buffer.alloc(14)
    dimensions.writeUInt32LE(sheet.rows.length, 4)
    dimensions.writeUInt16LE(Math.max(0, ...sheet.rows.map((r) => r.length)), 10)
    parts.push(record(0x0200, dimensions))
    sheet.rows.forEach((cells, r) => {
      cells.forEach((cell, c) => {
        if (cell === null) return
        const at = Buffer.alloc(6)
        at.writeUInt16LE(r, 0)
        at.writeUInt16LE(c, 2)
        if (typeof cell === 'string') {
          at.writeUInt16LE(15, 4)
          parts.push(record(0x0204, Buffer.concat([at, longString(cell)])))
        } else if (typeof cell === 'boolean') {
          at.writeUInt16LE(15, 4)
          parts.push(record(0x0205, Buffer.concat([at, Buffer.from([cell ? 1 : 0, 0])])))
        } else {
          const isDate = typeof cell === 'object'
          at.writeUInt16LE(isDate ? 16 : 15, 4)
          const value = Buffer.alloc(8)
          value.writeDoubleLE(isDate ? cell.date : cell, 0)
          parts.push(record(0x0203, Buffer.concat([at, value])))
        }
      })
    })
    if (sheet.merges?.length) {
      const body = Buffer.alloc(2 + sheet.merges.length * 8)
      body.writeUInt16LE(sheet.merges.length, 0)
      sheet.merges.forEach((m, i) => {
        body.writeUInt16LE(m.s.r, 2 + i * 8)
        body.writeUInt16LE(m.e.r, 4 + i * 8)
        body.writeUInt16LE(m.s.c, 6 + i * 8)
        body.writeUInt16LE(m.e.c, 8 + i * 8)
      })
      parts.push(record(0x00e5, body))
    }
    parts.push(eof)
    return Buffer.concat(parts)
  })

  // Globals: fonts and the 16 style XFs Excel expects, then XF 15 (General) and 16 (a date).
  const format = record(0x041e, Buffer.concat([u16(DATE_FORMAT_ID), longString('yyyy/mm/dd')]))
  const styleXfs = Array.from({ length: 15 }, () => {
    const r = xf(0)
    r.writeUInt16LE(0xfff5, 8)
    return r
  })
  const fixed = [
    bof(0x0005),
    record(0x0042, u16(1200)),
    record(0x0022, u16(0)),
    ...Array.from({ length: 5 }, font),
    format,
    ...styleXfs,
    xf(0),
    xf(DATE_FORMAT_ID),
  ]
  const boundSheet = (name: string, offset: number) => {
    const body = Buffer.concat([Buffer.alloc(6), Buffer.from([name.length, 1]), Buffer.from(name, 'utf16le')])
    body.writeUInt32LE(offset, 0)
    return record(0x0085, body)
  }
  const globalsLength =
    fixed.reduce((sum, b) => sum + b.length, 0) + sheets.reduce((sum, s) => sum + boundSheet(s.name, 0).length, 0) + eof.length
  let offset = globalsLength
  const boundSheets = sheets.map((s, i) => {
    const b = boundSheet(s.name, offset)
    offset += sheetStreams[i]!.length
    return b
  })
  let stream = Buffer.concat([...fixed, ...boundSheets, eof, ...sheetStreams])
  // Streams under 4,096 bytes live in the mini stream; this builder keeps to the FAT.
  if (stream.length < 4096) stream = Buffer.concat([stream, Buffer.alloc(4096 - stream.length)])
  return oleFileOf('Workbook', stream)
}

/** An OLE compound file (version 3, 512-byte sectors) holding one stream, DIFAT sectors included when the FAT needs them. */
function oleFileOf(streamName: string, stream: Buffer): Uint8Array {
  const streamSectors = Math.ceil(stream.length / OLE_SECTOR)
  let fatSectors = 1
  let difatSectors = 0
  for (;;) {
    const total = difatSectors + fatSectors + 1 + streamSectors
    const needFat = Math.ceil(total / 128)
    const needDifat = Math.max(0, Math.ceil((needFat - 109) / 127))
    if (needFat === fatSectors && needDifat === difatSectors) break
    fatSectors = needFat
    difatSectors = needDifat
  }
  const firstFat = difatSectors
  const directorySector = difatSectors + fatSectors
  const firstStream = directorySector + 1
  const sectorCount = firstStream + streamSectors
  const file = Buffer.alloc(OLE_SECTOR * (1 + sectorCount))
  const at = (sector: number) => (sector + 1) * OLE_SECTOR
  file.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], 0)
  file.writeUInt16LE(0x3e, 24)
  file.writeUInt16LE(3, 26)
  file.writeUInt16LE(0xfffe, 28)
  file.writeUInt16LE(9, 30)
  file.writeUInt16LE(6, 32)
  file.writeUInt32LE(fatSectors, 44)
  file.writeUInt32LE(directorySector, 48)
  file.writeUInt32LE(4096, 56)
  file.writeUInt32LE(END_OF_CHAIN, 60)
  file.writeUInt32LE(difatSectors ? 0 : END_OF_CHAIN, 68)
  file.writeUInt32LE(difatSectors, 72)
  for (let i = 0; i < 109; i++) file.writeUInt32LE(i < fatSectors ? firstFat + i : FREE_SECTOR, 76 + i * 4)
  for (let d = 0; d < difatSectors; d++) {
    for (let i = 0; i < 127; i++) {
      const fat = 109 + d * 127 + i
      file.writeUInt32LE(fat < fatSectors ? firstFat + fat : FREE_SECTOR, at(d) + i * 4)
    }
    file.writeUInt32LE(d + 1 < difatSectors ? d + 1 : END_OF_CHAIN, at(d) + 508)
  }
  const setFat = (sector: number, value: number) =>
    file.writeUInt32LE(value >>> 0, at(firstFat + Math.floor(sector / 128)) + (sector % 128) * 4)
  for (let s = 0; s < fatSectors * 128; s++) setFat(s, FREE_SECTOR)
  for (let s = 0; s < difatSectors; s++) setFat(s, DIFAT_SECTOR)
  for (let s = firstFat; s < directorySector; s++) setFat(s, FAT_SECTOR)
  setFat(directorySector, END_OF_CHAIN)
  for (let s = firstStream; s < sectorCount; s++) setFat(s, s + 1 < sectorCount ? s + 1 : END_OF_CHAIN)
  const entry = (index: number, name: string, type: number, child: number, start: number, size: number) => {
    const base = at(directorySector) + index * 128
    const encoded = Buffer.from(`${name}\0`, 'utf16le')
    encoded.copy(file, base)
    file.writeUInt16LE(encoded.length, base + 64)
    file[base + 66] = type
    file[base + 67] = 1
    file.writeUInt32LE(FREE_SECTOR, base + 68)
    file.writeUInt32LE(FREE_SECTOR, base + 72)
    file.writeUInt32LE(child, base + 76)
    file.writeUInt32LE(start >>> 0, base + 116)
    file.writeUInt32LE(size, base + 120)
  }
  entry(0, 'Root Entry', 5, 1, END_OF_CHAIN, 0)
  entry(1, streamName, 2, FREE_SECTOR, firstStream, stream.length)
  stream.copy(file, at(firstStream))
  return file
}
