import { createHash, randomBytes } from 'node:crypto'
import {
  closeSync,
  createReadStream,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  type Stats,
} from 'node:fs'
import { open } from 'node:fs/promises'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import zlib from 'node:zlib'
import { PGlite } from '@electric-sql/pglite'
import { z } from '#app/lib/zod.ts'
import { migrationsFolder, pgliteOwner } from './db/client.server.ts'

// `npm run admin -- backup <file>` and `restore <file>` for the embedded mode: the PGlite data
// folder (DATA_DIR/db), the stored files (DATA_DIR/files) and the local session secret in one
// .tar.gz, its first entry a manifest naming every entry with its size and SHA-256.
//
// The database is copied as files, with the server stopped, after PGlite has opened it once and
// written a checkpoint (so a copy taken after a crash is as clean as after a normal stop).
// PGlite's dumpDataDir would build the same tarball in memory, the whole database at once; a
// file copy streams, and a PGlite process can only ever be one: neither way can run beside the
// server. The restore unpacks into a folder beside the data, checks every hash and opens the
// database there before anything is moved; only then are the old folders moved aside and the
// restored ones moved in (renames within DATA_DIR).
//
// The archive is a standard tar in a gzip member that carries a header CRC (FHCRC) besides
// gzip's CRC-32 of the content: a byte changed anywhere, header included, is refused by the
// decompressor, and the manifest's hashes catch the rest.

export const BACKUP_FORMAT = 'hallil-backup'
export const BACKUP_FORMAT_VERSION = 1
const MANIFEST = 'hallil-backup.json'
/** The folders and file of DATA_DIR a backup holds; the outbox (mail already sent) is left out. */
const PARTS = ['db', 'files', 'session-secret'] as const

export class BackupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'BackupError'
  }
}

const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.number().int(),
  appVersion: z.string(),
  createdAt: z.string(),
  database: z.literal('pglite'),
  /** Migrations applied to the database when it was saved. */
  migrations: z.number().int().min(0),
  entries: z.array(
    z.union([
      z.object({ path: z.string(), type: z.literal('file'), size: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
      z.object({ path: z.string(), type: z.literal('dir') }),
    ]),
  ),
})
export type BackupManifest = z.infer<typeof manifestSchema>
type Entry = BackupManifest['entries'][number]

// ---------------------------------------------------------------- the database

function refuseIfInUse(dbDir: string) {
  const owner = pgliteOwner(dbDir)
  if (owner !== null) throw new BackupError(`The database is open in another process (pid ${owner}): stop the Hallil server first.`)
}

/** Migrations this version of Hallil knows. */
function knownMigrations(): number {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }
  return journal.entries.length
}

/** Opens the database folder, counts its applied migrations, writes a checkpoint and closes it. */
async function checkDatabase(dbDir: string): Promise<number> {
  if (!existsSync(path.join(dbDir, 'PG_VERSION'))) throw new BackupError(`There is no embedded database in ${dbDir}.`)
  let client: PGlite | undefined
  try {
    client = new PGlite({ dataDir: dbDir })
    await client.waitReady
    const result = await client.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations')
    await client.query('checkpoint')
    return result.rows[0]?.n ?? 0
  } catch (error) {
    if (error instanceof BackupError) throw error
    throw new BackupError(`The database in ${dbDir} does not open: ${(error as Error).message}`, { cause: error })
  } finally {
    await client?.close().catch(() => {})
  }
}

// ---------------------------------------------------------------- tar

const BLOCK = 512

function octal(value: number, length: number) {
  return `${value.toString(8).padStart(length - 1, '0')}\0`
}

/** A ustar header for a regular file or a folder. */
function tarHeader(name: string, entry: { type: 'file' | 'dir'; size: number; mtime: number }): Buffer {
  const header = Buffer.alloc(BLOCK)
  let prefix = ''
  let base = entry.type === 'dir' ? `${name}/` : name
  if (Buffer.byteLength(base) > 100) {
    // The name's last part in `name`, the folders before it in `prefix` (ustar's split).
    const cut = base.lastIndexOf('/', base.length - 2)
    prefix = base.slice(0, cut)
    base = base.slice(cut + 1)
    if (Buffer.byteLength(base) > 100 || Buffer.byteLength(prefix) > 155)
      throw new BackupError(`A path is too long for the archive: ${name}`)
  }
  header.write(base, 0, 100, 'utf8')
  header.write(octal(entry.type === 'dir' ? 0o700 : 0o600, 8), 100, 'ascii')
  header.write(octal(0, 8), 108, 'ascii')
  header.write(octal(0, 8), 116, 'ascii')
  header.write(octal(entry.size, 12), 124, 'ascii')
  header.write(octal(entry.mtime, 12), 136, 'ascii')
  header.write('        ', 148, 'ascii')
  header.write(entry.type === 'dir' ? '5' : '0', 156, 'ascii')
  header.write('ustar\0', 257, 'ascii')
  header.write('00', 263, 'ascii')
  header.write(prefix, 345, 155, 'utf8')
  let sum = 0
  for (const byte of header) sum += byte
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii')
  return header
}

type TarEntry = { name: string; type: 'file' | 'dir'; size: number }

function readTarHeader(block: Buffer): TarEntry | null {
  if (block.every((byte) => byte === 0)) return null
  const text = (start: number, length: number) => {
    const raw = block.subarray(start, start + length)
    const end = raw.indexOf(0)
    return raw.subarray(0, end === -1 ? length : end).toString('utf8')
  }
  const stored = Number.parseInt(text(148, 8).trim(), 8)
  let sum = 0
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!
  if (stored !== sum || !text(257, 6).startsWith('ustar')) throw new BackupError('The archive is damaged (a tar header does not check).')
  const type = text(156, 1)
  if (type !== '0' && type !== '5') throw new BackupError('The archive holds an entry a Hallil backup never has (a link or a device).')
  const prefix = text(345, 155)
  const name = (prefix ? `${prefix}/${text(0, 100)}` : text(0, 100)).replace(/\/$/, '')
  return { name, type: type === '5' ? 'dir' : 'file', size: Number.parseInt(text(124, 12).trim(), 8) }
}

// ---------------------------------------------------------------- gzip with a header CRC

/** A gzip member header (RFC 1952) with FHCRC set, so that the decompressor checks it too. */
function gzipHeader(): Buffer {
  const header = Buffer.from([0x1f, 0x8b, 8, 0x02, 0, 0, 0, 0, 0, 3])
  const crc = Buffer.alloc(2)
  crc.writeUInt16LE(zlib.crc32(header) & 0xffff)
  return Buffer.concat([header, crc])
}

/** Writes the archive: a tar stream, deflated, between the gzip header and its CRC-32 and size. */
class ArchiveWriter {
  private readonly deflate = zlib.createDeflateRaw({ level: 6 })
  private crc = 0
  private size = 0
  private readonly done: Promise<void>

  constructor(file: string) {
    const fd = openSync(file, 'wx', 0o600)
    writeSync(fd, gzipHeader())
    this.done = (async () => {
      try {
        for await (const chunk of this.deflate) writeSync(fd, chunk as Buffer)
        const trailer = Buffer.alloc(8)
        trailer.writeUInt32LE(this.crc >>> 0, 0)
        trailer.writeUInt32LE(this.size % 2 ** 32, 4)
        writeSync(fd, trailer)
        fsyncSync(fd)
      } finally {
        closeSync(fd)
      }
    })()
  }

  async write(data: Buffer) {
    this.crc = zlib.crc32(data, this.crc)
    this.size += data.length
    if (!this.deflate.write(data)) await new Promise((resolve) => this.deflate.once('drain', resolve))
  }

  async end() {
    await this.write(Buffer.alloc(BLOCK * 2))
    this.deflate.end()
    await this.done
  }

  /** Stops writing (the file is then removed by the caller). */
  abort() {
    this.done.catch(() => {})
    this.deflate.destroy()
  }
}

// ---------------------------------------------------------------- backup

/** Every folder and file under `root`, as archive paths under `prefix`, folders before what they hold. */
function walk(root: string, prefix: string, out: Array<{ path: string; full: string; stats: Stats }>) {
  for (const name of readdirSync(root).sort()) {
    const full = path.join(root, name)
    const stats = statSync(full)
    const archivePath = `${prefix}/${name}`
    if (stats.isDirectory()) {
      out.push({ path: archivePath, full, stats })
      walk(full, archivePath, out)
    } else if (stats.isFile() && !(prefix === 'db' && name === 'postmaster.pid')) out.push({ path: archivePath, full, stats })
  }
  return out
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256')
  await pipeline(createReadStream(file), hash)
  return hash.digest('hex')
}

export type BackupResult = { file: string; bytes: number; manifest: BackupManifest }

/** Writes DATA_DIR's database, files and session secret to `file` (which must not exist). The server must be stopped. */
export async function createBackup(options: { dataDir: string; file: string; appVersion: string; now?: Date }): Promise<BackupResult> {
  const dbDir = path.join(options.dataDir, 'db')
  const file = path.resolve(options.file)
  if (existsSync(file)) throw new BackupError(`${file} already exists: choose another name.`)
  refuseIfInUse(dbDir)
  const migrations = await checkDatabase(dbDir)
  refuseIfInUse(dbDir)

  const sources: Array<{ path: string; full: string; stats: Stats }> = []
  for (const part of PARTS) {
    const full = path.join(options.dataDir, part)
    if (!existsSync(full)) continue
    const stats = statSync(full)
    sources.push({ path: part, full, stats })
    if (stats.isDirectory()) walk(full, part, sources)
  }
  const entries: Entry[] = []
  for (const source of sources)
    entries.push(
      source.stats.isDirectory()
        ? { path: source.path, type: 'dir' }
        : { path: source.path, type: 'file', size: source.stats.size, sha256: await sha256Of(source.full) },
    )
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    appVersion: options.appVersion,
    createdAt: (options.now ?? new Date()).toISOString(),
    database: 'pglite',
    migrations,
    entries,
  }

  // Written beside its final name, then renamed: a backup cut short never looks like a backup.
  const partial = `${file}.partial-${randomBytes(4).toString('hex')}`
  mkdirSync(path.dirname(file), { recursive: true })
  let archive: ArchiveWriter | undefined
  try {
    archive = new ArchiveWriter(partial)
    const mtime = Math.floor((options.now ?? new Date()).getTime() / 1000)
    const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`)
    await archive.write(tarHeader(MANIFEST, { type: 'file', size: manifestBytes.length, mtime }))
    await archive.write(Buffer.concat([manifestBytes, Buffer.alloc((BLOCK - (manifestBytes.length % BLOCK)) % BLOCK)]))
    for (const [i, source] of sources.entries()) {
      const entry = entries[i]!
      if (entry.type === 'dir') {
        await archive.write(tarHeader(entry.path, { type: 'dir', size: 0, mtime }))
        continue
      }
      await archive.write(tarHeader(entry.path, { type: 'file', size: entry.size, mtime }))
      const hash = createHash('sha256')
      let written = 0
      for await (const chunk of createReadStream(source.full)) {
        const data = chunk as Buffer
        written += data.length
        if (written > entry.size) break
        hash.update(data)
        await archive.write(data)
      }
      // The server was started meanwhile, or something else wrote to the folder.
      if (written !== entry.size || hash.digest('hex') !== entry.sha256)
        throw new BackupError(`${entry.path} changed while it was being saved: stop the server and try again.`)
      await archive.write(Buffer.alloc((BLOCK - (entry.size % BLOCK)) % BLOCK))
    }
    await archive.end()
    renameSync(partial, file)
  } catch (error) {
    archive?.abort()
    rmSync(partial, { force: true })
    throw error
  }
  return { file, bytes: statSync(file).size, manifest }
}

// ---------------------------------------------------------------- restore

const isSafePath = (p: string) =>
  (PARTS as readonly string[]).includes(p.split('/')[0] ?? '') &&
  !p.split('/').some((part) => part === '' || part === '.' || part === '..') &&
  !p.includes('\\') &&
  !p.includes('\0')

/**
 * Unpacks the archive into `into`, checking the manifest and every entry's size and hash as it
 * goes. Throws BackupError for a damaged or foreign archive.
 */
async function unpack(file: string, into: string): Promise<BackupManifest> {
  const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
    throw new BackupError(`Cannot read ${file}: ${error.code ?? error.message}`)
  })
  const magic = Buffer.alloc(2)
  await handle.read(magic, 0, 2, 0)
  await handle.close()
  if (magic[0] !== 0x1f || magic[1] !== 0x8b) throw new BackupError(`${file} is not a Hallil backup (not a gzip archive).`)

  let manifest: BackupManifest | null = null
  let manifestText = ''
  let expected = new Map<string, Entry>()
  const seen = new Set<string>()
  let pending: Buffer = Buffer.alloc(0)
  type Current = { entry: TarEntry; left: number; fd?: number; hash?: ReturnType<typeof createHash>; isManifest: boolean }
  let current = null as Current | null
  let padding = 0
  let isEnded = false

  const startEntry = (entry: TarEntry) => {
    if (!manifest) {
      if (entry.name !== MANIFEST || entry.type !== 'file' || entry.size > 16 * 1024 * 1024)
        throw new BackupError(`${file} is not a Hallil backup (it has no ${MANIFEST} first).`)
      current = { entry, left: entry.size, isManifest: true }
      return
    }
    const listed = expected.get(entry.name)
    if (!listed || !isSafePath(entry.name) || seen.has(entry.name) || listed.type !== entry.type)
      throw new BackupError(`The archive holds ${entry.name}, which its manifest does not list: it is damaged or not a Hallil backup.`)
    seen.add(entry.name)
    const target = path.join(into, ...entry.name.split('/'))
    if (entry.type === 'dir') {
      mkdirSync(target, { recursive: true, mode: 0o700 })
      return
    }
    if (listed.type === 'file' && listed.size !== entry.size)
      throw new BackupError(`${entry.name} is not the size the manifest gives: the archive is damaged.`)
    mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 })
    current = { entry, left: entry.size, fd: openSync(target, 'wx', 0o600), hash: createHash('sha256'), isManifest: false }
  }

  const endEntry = () => {
    const done = current!
    current = null
    padding = (BLOCK - (done.entry.size % BLOCK)) % BLOCK
    if (done.isManifest) {
      let parsed: unknown
      try {
        parsed = JSON.parse(manifestText)
      } catch {
        throw new BackupError('The backup’s manifest is not readable: the archive is damaged.')
      }
      const format = (parsed as { format?: unknown; formatVersion?: unknown } | null) ?? {}
      if (format.format !== BACKUP_FORMAT) throw new BackupError(`${file} is not a Hallil backup (its manifest is another program's).`)
      if (format.formatVersion !== BACKUP_FORMAT_VERSION)
        throw new BackupError(
          `${file} was written in backup format ${String(format.formatVersion)}; this Hallil reads format ${BACKUP_FORMAT_VERSION}.`,
        )
      const checked = manifestSchema.safeParse(parsed)
      if (!checked.success) throw new BackupError('The backup’s manifest is incomplete: the archive is damaged.')
      manifest = checked.data
      expected = new Map(manifest.entries.map((e) => [e.path, e]))
      return
    }
    closeSync(done.fd!)
    const listed = expected.get(done.entry.name)
    if (listed?.type !== 'file' || done.hash!.digest('hex') !== listed.sha256)
      throw new BackupError(`${done.entry.name} does not match its SHA-256 in the manifest: the archive is damaged.`)
  }

  const consume = (chunk: Buffer) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk
    let offset = 0
    while (!isEnded) {
      if (current) {
        const take = Math.min(current.left, pending.length - offset)
        if (take === 0 && current.left > 0) break
        const data = pending.subarray(offset, offset + take)
        if (current.isManifest) manifestText += data.toString('utf8')
        else {
          writeSync(current.fd!, data)
          current.hash!.update(data)
        }
        current.left -= take
        offset += take
        if (current.left === 0) endEntry()
        continue
      }
      if (padding > 0) {
        const skip = Math.min(padding, pending.length - offset)
        if (skip === 0) break
        padding -= skip
        offset += skip
        continue
      }
      if (pending.length - offset < BLOCK) break
      const header = readTarHeader(pending.subarray(offset, offset + BLOCK))
      offset += BLOCK
      if (header === null) isEnded = true
      else startEntry(header)
    }
    pending = pending.subarray(offset)
  }

  try {
    const gunzip = zlib.createGunzip()
    const input = createReadStream(file)
    const feeding = pipeline(input, gunzip)
    // Awaited below; a refusal met first (a wrong hash) ends the reading and this with it.
    feeding.catch(() => {})
    for await (const chunk of gunzip) if (!isEnded) consume(chunk as Buffer)
    await feeding
  } catch (error) {
    const unfinished = current as Current | null
    if (unfinished?.fd !== undefined) closeSync(unfinished.fd)
    if (error instanceof BackupError) throw error
    throw new BackupError(`The archive is damaged (${(error as Error).message}).`, { cause: error })
  }
  if (!manifest) throw new BackupError(`${file} is not a Hallil backup (it has no ${MANIFEST}).`)
  if (!isEnded || current) throw new BackupError('The archive ends early: it is damaged.')
  const missing = (manifest as BackupManifest).entries.filter((e) => !seen.has(e.path))
  if (missing.length)
    throw new BackupError(`The archive lacks ${missing.length} of the entries its manifest lists (${missing[0]!.path}…): it is damaged.`)
  return manifest
}

export type RestoreResult = { manifest: BackupManifest; previous: string | null }

/**
 * Replaces DATA_DIR's database, files and session secret with the archive's. The server must be
 * stopped. Nothing in DATA_DIR changes unless the whole archive checks and its database opens;
 * what was there is moved to DATA_DIR/before-restore-<time>/ (`previous`), not deleted.
 */
export async function restoreBackup(options: { dataDir: string; file: string; now?: Date }): Promise<RestoreResult> {
  const dataDir = path.resolve(options.dataDir)
  refuseIfInUse(path.join(dataDir, 'db'))
  mkdirSync(dataDir, { recursive: true })
  const staging = path.join(dataDir, `.restore-${randomBytes(4).toString('hex')}`)
  mkdirSync(staging, { mode: 0o700 })
  try {
    const manifest = await unpack(path.resolve(options.file), staging)
    const known = knownMigrations()
    if (manifest.migrations > known)
      throw new BackupError(
        `The backup was made by a newer Hallil (${manifest.appVersion}, ${manifest.migrations} migrations; this one knows ${known}): update Hallil first.`,
      )
    const migrations = await checkDatabase(path.join(staging, 'db'))
    if (migrations !== manifest.migrations)
      throw new BackupError('The restored database is not the one the manifest describes: the archive is damaged.')

    // Moved aside, then moved in; a failure half-way moves back what was moved.
    refuseIfInUse(path.join(dataDir, 'db'))
    const stamp = (options.now ?? new Date()).toISOString().replace(/[:.]/g, '-')
    const previous = path.join(dataDir, `before-restore-${stamp}`)
    const moves: Array<[from: string, to: string]> = []
    const move = (from: string, to: string) => {
      renameSync(from, to)
      moves.push([from, to])
    }
    try {
      for (const part of PARTS) {
        const current = path.join(dataDir, part)
        if (!existsSync(current)) continue
        mkdirSync(previous, { recursive: true, mode: 0o700 })
        move(current, path.join(previous, part))
      }
      rmSync(`${path.join(dataDir, 'db')}.lock`, { force: true })
      for (const part of PARTS) if (existsSync(path.join(staging, part))) move(path.join(staging, part), path.join(dataDir, part))
    } catch (error) {
      for (const [from, to] of moves.toReversed()) renameSync(to, from)
      rmSync(previous, { recursive: true, force: true })
      throw new BackupError(`The restore could not move the folders into place (${(error as Error).message}); nothing was changed.`, {
        cause: error,
      })
    }
    return { manifest, previous: moves.length > 0 && existsSync(previous) ? previous : null }
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}
