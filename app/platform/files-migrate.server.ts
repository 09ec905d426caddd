import path from 'node:path'
import type { Env, FileStoreChoice } from './env.server.ts'
import { parseS3Url } from './file-store-url.server.ts'
import { sha256Hex, type FileStore } from './files.server.ts'

/**
 * A store named to `files:migrate`: `local` (DATA_DIR/files), `local:<folder>`, `postgres`
 * (DATABASE_URL), `s3` (FILE_STORE_URL's bucket) or an `s3://bucket?…` address. Anything else is
 * refused with a sentence saying what is accepted.
 */
export function fileStoreNamed(
  name: string,
  env: Pick<Env, 'DATA_DIR' | 'DATABASE_URL' | 'FILE_STORE_URL' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY'>,
): FileStoreChoice {
  const credentials =
    env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
      ? { credentials: { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY } }
      : {}
  if (name === 'local') return { kind: 'local', dir: path.join(env.DATA_DIR, 'files') }
  if (name.startsWith('local:') && name.length > 'local:'.length) return { kind: 'local', dir: path.resolve(name.slice('local:'.length)) }
  if (name === 'postgres') {
    if (!env.DATABASE_URL) throw new Error('the store "postgres" needs DATABASE_URL')
    return { kind: 'postgres' }
  }
  if (name === 's3') {
    if (!env.FILE_STORE_URL?.startsWith('s3://')) throw new Error('the store "s3" needs FILE_STORE_URL=s3://bucket?endpoint=…&region=…')
    return { kind: 's3', location: parseS3Url(env.FILE_STORE_URL), ...credentials }
  }
  if (name.startsWith('s3://')) return { kind: 's3', location: parseS3Url(name), ...credentials }
  throw new Error(`unknown store "${name}": use local, local:<folder>, postgres, s3 or s3://bucket?endpoint=…&region=…`)
}

export type MigrateFilesResult = {
  /** Keys found in the source. */
  seen: number
  /** Copied and read back with the same SHA-256. */
  copied: number
  /** Already in the target with the same SHA-256: left alone (a second run copies nothing). */
  alreadyThere: number
  /** Listed but gone from the source before they were read (removed meanwhile). */
  vanished: number
  /** Copied but not read back identical: the keys, to look at. */
  mismatched: string[]
}

export type MigrateFilesOptions = { from: FileStore; to: FileStore; onProgress?: (result: MigrateFilesResult) => void }

/**
 * Copies every file of one store into another and reads each back from the target to compare its
 * SHA-256 with the source's. The source is never changed; keys already in the target with the
 * same bytes are skipped, so the copy can be run again (after an interruption, or once more just
 * before switching FILE_STORE_URL) and copies only what is new.
 */
export async function migrateFiles({ from, to, onProgress }: MigrateFilesOptions): Promise<MigrateFilesResult> {
  const result: MigrateFilesResult = { seen: 0, copied: 0, alreadyThere: 0, vanished: 0, mismatched: [] }
  for await (const key of from.list()) {
    result.seen++
    const data = await from.get(key)
    if (!data) {
      result.vanished++
      continue
    }
    const hash = sha256Hex(data)
    const existing = await to.get(key)
    if (existing && sha256Hex(existing) === hash) {
      result.alreadyThere++
    } else {
      await to.put(key, data)
      const back = await to.get(key)
      if (back && sha256Hex(back) === hash) result.copied++
      else result.mismatched.push(key)
    }
    if (result.seen % 100 === 0) onProgress?.(result)
  }
  return result
}
