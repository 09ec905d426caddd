import { inflateRawSync } from 'node:zlib'
import { Inflate } from 'fflate'
import { XlsxError } from '#app/platform/xlsx/types.ts'

// The zip container of an .xlsx, read with suspicion: the central directory is checked (entry
// count, declared sizes, total, compression ratio) before a byte is inflated, and inflation
// stops at the declared size, so a lying directory costs no more than an honest one.

/** Fixed limits of the zip guard; the uncompressed total comes from the options. */
export const XLSX_READ_LIMITS = {
  /** Entries in the zip directory (a workbook has tens; 1,000 sheets is about 2,000). */
  maxEntries: 10_000,
  /** Uncompressed:compressed ratio allowed for entries above `ratioFloorBytes`. */
  maxCompressionRatio: 200,
  ratioFloorBytes: 1 << 20,
} as const

const LOCAL_HEADER = 0x04034b50
const CENTRAL_HEADER = 0x02014b50
const ZIP64_MARKER_16 = 0xffff
const ZIP64_MARKER_32 = 0xffffffff
const FLAG_ENCRYPTED = 0x1
const FLAG_UTF8_NAME = 0x800
const METHOD_STORED = 0
const METHOD_DEFLATE = 8

export interface ZipEntry {
  readonly name: string
  readonly flags: number
  readonly method: number
  readonly compressedSize: number
  readonly size: number
  readonly localOffset: number
}

/** Whether the bytes start like a zip archive (a local header, or the end record of an empty one). */
export function looksLikeZip(buf: Uint8Array): boolean {
  return buf.length >= 22 && buf[0] === 0x50 && buf[1] === 0x4b && ((buf[2] === 3 && buf[3] === 4) || (buf[2] === 5 && buf[3] === 6))
}

/** Reads and checks the central directory; nothing is inflated here. Keys are lower-case names. */
export function openZip(buf: Buffer, maxUncompressedBytes: number): Map<string, ZipEntry> {
  const eocd = findEndOfCentralDirectory(buf)
  if (eocd < 0) throw new XlsxError('format', 'not a zip file or a truncated one (no end of central directory)')
  const disk = buf.readUInt16LE(eocd + 4)
  const cdDisk = buf.readUInt16LE(eocd + 6)
  const count = buf.readUInt16LE(eocd + 10)
  const cdSize = buf.readUInt32LE(eocd + 12)
  const cdOffset = buf.readUInt32LE(eocd + 16)
  if (count === ZIP64_MARKER_16 || cdSize === ZIP64_MARKER_32 || cdOffset === ZIP64_MARKER_32)
    throw new XlsxError('too_large', 'zip64 archive')
  if (disk !== 0 || cdDisk !== 0) throw new XlsxError('format', 'multi-volume zip')
  if (count > XLSX_READ_LIMITS.maxEntries) throw new XlsxError('too_large', `${count} zip entries`)
  if (cdOffset + cdSize > eocd) throw new XlsxError('format', 'truncated zip (central directory out of bounds)')

  const entries = new Map<string, ZipEntry>()
  let total = 0
  let p = cdOffset
  const end = cdOffset + cdSize
  for (let i = 0; i < count; i++) {
    if (p + 46 > end || buf.readUInt32LE(p) !== CENTRAL_HEADER) throw new XlsxError('format', 'broken zip central directory')
    const flags = buf.readUInt16LE(p + 8)
    const method = buf.readUInt16LE(p + 10)
    const compressedSize = buf.readUInt32LE(p + 20)
    const size = buf.readUInt32LE(p + 24)
    const nameLength = buf.readUInt16LE(p + 28)
    const extraLength = buf.readUInt16LE(p + 30)
    const commentLength = buf.readUInt16LE(p + 32)
    const localOffset = buf.readUInt32LE(p + 42)
    if (p + 46 + nameLength > end) throw new XlsxError('format', 'broken zip central directory')
    if (size === ZIP64_MARKER_32 || compressedSize === ZIP64_MARKER_32 || localOffset === ZIP64_MARKER_32)
      throw new XlsxError('too_large', 'zip64 entry')
    const rawName = buf.toString(flags & FLAG_UTF8_NAME ? 'utf8' : 'latin1', p + 46, p + 46 + nameLength)
    const name = rawName.replaceAll('\\', '/').replace(/^\/+/, '')
    p += 46 + nameLength + extraLength + commentLength

    total += size
    if (size > maxUncompressedBytes || total > maxUncompressedBytes)
      throw new XlsxError('too_large', `more than ${maxUncompressedBytes} bytes uncompressed`)
    if (size > XLSX_READ_LIMITS.ratioFloorBytes && size > compressedSize * XLSX_READ_LIMITS.maxCompressionRatio)
      throw new XlsxError('too_large', `an entry compresses more than ${XLSX_READ_LIMITS.maxCompressionRatio}:1`)
    if (name.endsWith('/')) continue
    const key = name.toLowerCase()
    // Two entries with one name: which one a program reads differs, so nobody gets to choose.
    if (entries.has(key)) throw new XlsxError('format', 'duplicate zip entry')
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

/** The entry's stored bytes (compressed or not), after its local header is checked. */
function entryBytes(buf: Buffer, entry: ZipEntry): Buffer {
  if (entry.flags & FLAG_ENCRYPTED) throw new XlsxError('encrypted', `${entry.name} is encrypted`)
  const local = entry.localOffset
  if (local + 30 > buf.length || buf.readUInt32LE(local) !== LOCAL_HEADER) throw new XlsxError('format', `broken zip entry ${entry.name}`)
  const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28)
  const end = start + entry.compressedSize
  if (end > buf.length) throw new XlsxError('format', `truncated zip entry ${entry.name}`)
  return buf.subarray(start, end)
}

/**
 * Compressed bytes handed to the inflater at a time: deflate expands at most about 1,000 times,
 * so a lying directory is caught within 4 MB of output.
 */
const STREAM_INPUT_BYTES = 4 * 1024

/**
 * The entry's bytes in pieces as they are inflated (`onChunk` for each), never more than the
 * directory declared: a large worksheet is read without its whole XML in memory at once.
 */
export function inflateEntryChunks(buf: Buffer, entry: ZipEntry, onChunk: (chunk: Buffer) => void): void {
  const compressed = entryBytes(buf, entry)
  if (entry.method === METHOD_STORED) {
    if (entry.compressedSize !== entry.size) throw new XlsxError('format', `stored entry ${entry.name} with two sizes`)
    for (let i = 0; i < compressed.length; i += STREAM_INPUT_BYTES * 16) onChunk(compressed.subarray(i, i + STREAM_INPUT_BYTES * 16))
    return
  }
  if (entry.method !== METHOD_DEFLATE) throw new XlsxError('format', `zip compression method ${entry.method}`)
  let total = 0
  const inflater = new Inflate((data) => {
    total += data.length
    // One byte more than declared is already a lie.
    if (total > entry.size) throw new XlsxError('too_large', `${entry.name} inflates beyond its declared ${entry.size} bytes`)
    if (data.length) onChunk(Buffer.from(data.buffer, data.byteOffset, data.byteLength))
  })
  try {
    for (let i = 0; i < compressed.length; i += STREAM_INPUT_BYTES) {
      const end = Math.min(compressed.length, i + STREAM_INPUT_BYTES)
      inflater.push(compressed.subarray(i, end), end === compressed.length)
    }
    if (compressed.length === 0) inflater.push(new Uint8Array(0), true)
  } catch (error) {
    if (error instanceof XlsxError) throw error
    throw new XlsxError('format', `${entry.name}: ${(error as Error).message}`)
  }
  if (total !== entry.size) throw new XlsxError('format', `${entry.name} is shorter than declared`)
}

/** The entry's bytes, never more than the directory declared (a lying directory ends here). */
export function inflateEntry(buf: Buffer, entry: ZipEntry): Buffer {
  const compressed = entryBytes(buf, entry)
  if (entry.method === METHOD_STORED) {
    if (entry.compressedSize !== entry.size) throw new XlsxError('format', `stored entry ${entry.name} with two sizes`)
    return compressed
  }
  if (entry.method !== METHOD_DEFLATE) throw new XlsxError('format', `zip compression method ${entry.method}`)
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
