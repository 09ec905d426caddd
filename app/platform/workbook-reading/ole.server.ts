import { XlsxError } from '#app/platform/xlsx/types.ts'

// The OLE compound file (MS-CFB) around an .xls, and around an encrypted .xlsx. Read here
// before any library sees it: sector sizes, the FAT, and the chains of the streams we use are
// checked (in range, no loop, long enough for their declared size), so a crafted container is
// refused with `format` instead of sending a parser round a loop or past the file's end.

export const OLE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1] as const

const HEADER_BYTES = 512
const END_OF_CHAIN = 0xfffffffe
const DIRECTORY_ENTRY_BYTES = 128
const ENTRY_STREAM = 2
const ENTRY_ROOT = 5
const MINI_SECTOR_SHIFT = 6
const HEADER_DIFAT_ENTRIES = 109

export function looksLikeOle(buf: Uint8Array): boolean {
  return buf.length >= HEADER_BYTES && OLE_SIGNATURE.every((byte, i) => buf[i] === byte)
}

export interface OleEntry {
  readonly name: string
  readonly type: number
  readonly start: number
  readonly size: number
}

export interface OleFile {
  readonly entries: readonly OleEntry[]
  /** A stream's bytes, its chain checked; `maxBytes` caps its declared size (`too_large` above). */
  stream(entry: OleEntry, maxBytes: number): Buffer
}

const broken = (detail: string) => new XlsxError('format', `broken OLE compound file: ${detail}`)

/** Parses the header, the FAT and the directory; throws `format` when they do not add up. */
export function openOle(buf: Buffer): OleFile {
  if (!looksLikeOle(buf)) throw new XlsxError('format', 'not an OLE compound file')
  const sectorShift = buf.readUInt16LE(30)
  if (sectorShift !== 9 && sectorShift !== 12) throw broken('sector size')
  if (buf.readUInt16LE(32) !== MINI_SECTOR_SHIFT) throw broken('mini sector size')
  const sectorSize = 1 << sectorShift
  // The header fills the first sector (512 bytes of a 4096-byte sector in version 4).
  const sectorCount = Math.ceil((buf.length - sectorSize) / sectorSize)
  if (sectorCount <= 0) throw broken('no sectors')
  const offsetOf = (sector: number) => (sector + 1) * sectorSize
  const entriesPerSector = sectorSize / 4

  // The FAT's own sectors: the first 109 are listed in the header, the rest in the DIFAT chain.
  const fatCount = buf.readUInt32LE(44)
  if (fatCount > sectorCount) throw broken('FAT larger than the file')
  const fatSectors: number[] = []
  for (let i = 0; i < HEADER_DIFAT_ENTRIES && fatSectors.length < fatCount; i++) fatSectors.push(buf.readUInt32LE(76 + i * 4))
  let difat = buf.readUInt32LE(68)
  const seenDifat = new Set<number>()
  while (fatSectors.length < fatCount) {
    if (difat >= sectorCount || seenDifat.has(difat)) throw broken('DIFAT chain')
    seenDifat.add(difat)
    const base = offsetOf(difat)
    for (let i = 0; i < entriesPerSector - 1 && fatSectors.length < fatCount; i++) fatSectors.push(buf.readUInt32LE(base + i * 4))
    difat = buf.readUInt32LE(base + sectorSize - 4)
  }
  for (const sector of fatSectors)
    if (sector >= sectorCount || offsetOf(sector) + sectorSize > buf.length) throw broken('FAT sector past the end')

  const fatNext = (sector: number): number => {
    const fatSector = fatSectors[Math.floor(sector / entriesPerSector)]
    if (fatSector === undefined) throw broken('a sector outside the FAT')
    return buf.readUInt32LE(offsetOf(fatSector) + (sector % entriesPerSector) * 4)
  }

  /** The sectors of a chain, in order; refuses loops and links past the end. */
  const chain = (start: number, count: number, next: (s: number) => number, what: string): number[] => {
    const sectors: number[] = []
    const seen = new Uint8Array(count)
    for (let sector = start; sector !== END_OF_CHAIN; sector = next(sector)) {
      if (sector >= count) throw broken(`the ${what} chain points past the end`)
      if (seen[sector]) throw broken(`the ${what} chain loops`)
      seen[sector] = 1
      sectors.push(sector)
    }
    return sectors
  }

  const copySectors = (sectors: readonly number[], size: number): Buffer => {
    if (sectors.length * sectorSize < size) throw broken('a stream shorter than its size')
    const out = Buffer.allocUnsafe(size)
    let written = 0
    for (const sector of sectors) {
      if (written >= size) break
      const from = offsetOf(sector)
      const length = Math.min(sectorSize, size - written)
      if (from + length > buf.length) throw broken('a stream past the end of the file')
      buf.copy(out, written, from, from + length)
      written += length
    }
    return out
  }

  const wholeSectors = (sectors: readonly number[]) => copySectors(sectors, sectors.length * sectorSize)

  const directory = wholeSectors(chain(buf.readUInt32LE(48), sectorCount, fatNext, 'directory'))
  const entries: OleEntry[] = []
  for (let at = 0; at + DIRECTORY_ENTRY_BYTES <= directory.length; at += DIRECTORY_ENTRY_BYTES) {
    const nameBytes = directory.readUInt16LE(at + 64)
    const type = directory[at + 66]!
    if (nameBytes < 2 || nameBytes > 64 || type === 0) continue
    entries.push({
      name: directory.toString('utf16le', at, at + nameBytes - 2),
      type,
      start: directory.readUInt32LE(at + 116),
      size: directory.readUInt32LE(at + 120),
    })
  }
  const root = entries.find((e) => e.type === ENTRY_ROOT)
  const miniCutoff = buf.readUInt32LE(56)

  let miniStream: { data: Buffer; next: (s: number) => number; count: number } | undefined
  const mini = () => {
    if (miniStream) return miniStream
    if (!root) throw broken('no root entry')
    const data = copySectors(chain(root.start, sectorCount, fatNext, 'mini stream'), root.size)
    const miniFat = wholeSectors(chain(buf.readUInt32LE(60), sectorCount, fatNext, 'mini FAT'))
    const count = Math.floor(data.length / (1 << MINI_SECTOR_SHIFT))
    const next = (s: number) => {
      if (s * 4 + 4 > miniFat.length) throw broken('a mini sector outside the mini FAT')
      return miniFat.readUInt32LE(s * 4)
    }
    miniStream = { data, next, count }
    return miniStream
  }

  return {
    entries,
    stream(entry, maxBytes) {
      if (entry.type !== ENTRY_STREAM) throw broken('not a stream')
      if (entry.size > maxBytes) throw new XlsxError('too_large', `a stream of ${entry.size} bytes`)
      if (entry.size >= miniCutoff) return copySectors(chain(entry.start, sectorCount, fatNext, 'stream'), entry.size)
      const { data, next, count } = mini()
      const sectors = chain(entry.start, count, next, 'mini stream')
      const miniSize = 1 << MINI_SECTOR_SHIFT
      if (sectors.length * miniSize < entry.size) throw broken('a stream shorter than its size')
      const out = Buffer.allocUnsafe(entry.size)
      for (let i = 0, written = 0; written < entry.size; i++) {
        const from = sectors[i]! * miniSize
        const length = Math.min(miniSize, entry.size - written)
        data.copy(out, written, from, from + length)
        written += length
      }
      return out
    },
  }
}

/** Whether the compound file holds an encrypted OOXML package (a password-protected .xlsx); damaged directories too. */
export function isEncryptedPackage(buf: Buffer): boolean {
  try {
    return openOle(buf).entries.some((e) => e.name === 'EncryptedPackage' || e.name === 'EncryptionInfo')
  } catch {
    return buf.includes(Buffer.from('EncryptedPackage', 'utf16le'))
  }
}
