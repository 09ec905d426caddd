import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { DrizzleQueryError } from 'drizzle-orm'
import { DomainError } from '#app/lib/errors.ts'
import type { Logger } from './logger.server.ts'

/**
 * Stored files (profile pictures, test images): the same four operations on every store, the
 * local folder (the embedded default), PostgreSQL (files-postgres.server.ts) and object storage
 * through the S3 API (files-s3.server.ts). Keys are `<folder>/<random name>.<ext>`, never chosen
 * by a visitor, and a stored key is never written again with other bytes.
 */
export type FileStore = {
  /** `local`, `postgres` or `s3`: said in the start-up log and by `files:migrate`. */
  readonly kind: FileStoreKind
  put(key: string, data: Buffer): Promise<void>
  /** The bytes, or null when there is no such file. */
  get(key: string): Promise<Buffer | null>
  /** Removes the file; a missing file is not an error. */
  remove(key: string): Promise<void>
  /** Every stored key, in no particular order (for `files:migrate` and backups). */
  list(): AsyncIterable<string>
}

export type FileStoreKind = 'local' | 'postgres' | 's3'

const safeKey = /^[a-z0-9-]+\/[A-Za-z0-9_-]+\.[a-z0-9]+$/

/** A key outside the stores' pattern: a bug in the caller, never the store's failure. */
export class InvalidFileKeyError extends Error {
  constructor() {
    super('invalid file key')
    this.name = 'InvalidFileKeyError'
  }
}

export function assertFileKey(key: string): void {
  if (!safeKey.test(key)) throw new InvalidFileKeyError()
}

export const isFileKey = (key: string) => safeKey.test(key)

/**
 * The store did not answer (object storage unreachable, the database refused): the request that
 * needed it answers 503 in the teacher's language and may be tried again; nothing half-done is
 * kept (callers store the file before the record, and remove it when the record fails).
 */
export class FileStoreUnavailableError extends DomainError {
  constructor(cause?: unknown) {
    super(503, 'common.errors.fileStoreUnavailable', undefined, 30)
    this.name = 'FileStoreUnavailableError'
    this.cause = cause
  }
}

export const isFileStoreUnavailable = (error: unknown): error is FileStoreUnavailableError => error instanceof FileStoreUnavailableError

export const sha256Hex = (data: Uint8Array) => createHash('sha256').update(data).digest('hex')

export function createLocalFileStore(root: string): FileStore {
  const resolve = (key: string) => {
    assertFileKey(key)
    return path.join(root, key)
  }
  return {
    kind: 'local',
    async put(key, data) {
      const file = resolve(key)
      await mkdir(path.dirname(file), { recursive: true })
      await writeFile(file, data, { mode: 0o600 })
    },
    async get(key) {
      const file = resolve(key)
      try {
        return await readFile(file)
      } catch (error) {
        // Missing is an answer; a folder that cannot be read (permissions, a lost mount) is a failure.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw error
      }
    },
    async remove(key) {
      await rm(resolve(key), { force: true })
    },
    async *list() {
      let folders: string[]
      try {
        folders = await readdir(root)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
        throw error
      }
      for (const folder of folders.sort()) {
        let names: string[]
        try {
          names = await readdir(path.join(root, folder))
        } catch {
          continue // a file beside the folders, not a folder
        }
        for (const name of names.sort()) if (isFileKey(`${folder}/${name}`)) yield `${folder}/${name}`
      }
    },
  }
}

/**
 * What may be logged of a store's failure. Drizzle's error names the query's parameters in its
 * message and keeps them: for a put, the picture itself. Only the driver's own error is kept.
 */
function storeFailure(error: unknown): { type: string; code?: string; message: string; cause: unknown } {
  const root = error instanceof DrizzleQueryError ? (error.cause ?? new Error('query failed')) : error
  const e = (root ?? {}) as { name?: unknown; code?: unknown; message?: unknown }
  return {
    type: typeof e.name === 'string' ? e.name : typeof root,
    ...(typeof e.code === 'string' ? { code: e.code } : {}),
    message: String(e.message ?? root).slice(0, 300),
    cause: root,
  }
}

/**
 * The store every request uses: a failure of the store (not a bad key) is logged once with the
 * operation and the store's kind, never the bytes, and becomes FileStoreUnavailableError.
 */
export function guardFileStore(store: FileStore, logger: Logger): FileStore {
  const fail = (op: string, error: unknown): never => {
    if (error instanceof InvalidFileKeyError || error instanceof FileStoreUnavailableError) throw error
    const { cause, ...failure } = storeFailure(error)
    logger.error({ failure, op, store: store.kind }, 'file store failed')
    throw new FileStoreUnavailableError(cause)
  }
  return {
    kind: store.kind,
    put: (key, data) => store.put(key, data).catch((error: unknown) => fail('put', error)),
    get: (key) => store.get(key).catch((error: unknown) => fail('get', error)),
    remove: (key) => store.remove(key).catch((error: unknown) => fail('remove', error)),
    async *list() {
      try {
        yield* store.list()
      } catch (error) {
        fail('list', error)
      }
    },
  }
}

export type DiscardFilesOptions = { files: FileStore; keys: readonly string[] }

/**
 * Removes files whose records are already gone (committed). The answer to the teacher stands
 * whatever happens here: a store that fails now leaves unused bytes behind (logged by the
 * guard), never a record pointing at nothing.
 */
export async function discardFiles({ files, keys }: DiscardFilesOptions): Promise<void> {
  for (const key of keys) {
    try {
      await files.remove(key)
    } catch (error) {
      if (!isFileStoreUnavailable(error)) throw error
    }
  }
}

export type StoreThenRecordOptions<T> = { files: FileStore; key: string; data: Buffer; record: () => Promise<T> }

/**
 * Stores a file, then runs `record` (the row that points at it). When the row cannot be written
 * the file is removed again, so neither a row without its file nor, as far as the store allows, a
 * file without its row is left.
 */
export async function storeThenRecord<T>({ files, key, data, record }: StoreThenRecordOptions<T>): Promise<T> {
  await files.put(key, data)
  try {
    return await record()
  } catch (error) {
    await discardFiles({ files, keys: [key] })
    throw error
  }
}
