import { asc, eq, gt, sql } from 'drizzle-orm'
import type { Db } from './db/client.server.ts'
import { storedFiles } from './db/schema.ts'
import { assertFileKey, sha256Hex, type FileStore } from './files.server.ts'

/**
 * Read a megabyte a query: the column is stored uncompressed (drizzle/0008), so PostgreSQL reads
 * only the part asked for, and no single answer holds a whole large file twice over.
 */
const SLICE_BYTES = 1024 * 1024
const LIST_PAGE = 1000

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)

/**
 * Files in the database, one row each (`stored_files`): a deployment with PostgreSQL needs
 * nothing else for every process to see every file. Read out in slices; written in one statement
 * (a stored picture is at most a few megabytes).
 */
export function createPostgresFileStore(db: Db): FileStore {
  const slice = (key: string, from: number) =>
    db
      .select({ size: storedFiles.size, bytes: sql<Uint8Array>`substring(${storedFiles.bytes} from ${from + 1} for ${SLICE_BYTES})` })
      .from(storedFiles)
      .where(eq(storedFiles.key, key))
  return {
    kind: 'postgres',
    async put(key, data) {
      assertFileKey(key)
      const row = { key, bytes: data, size: data.length, sha256: sha256Hex(data) }
      await db
        .insert(storedFiles)
        .values(row)
        .onConflictDoUpdate({ target: storedFiles.key, set: { bytes: row.bytes, size: row.size, sha256: row.sha256 } })
    },
    async get(key) {
      assertFileKey(key)
      const [first] = await slice(key, 0)
      if (!first) return null
      if (first.size <= SLICE_BYTES) return asBuffer(first.bytes)
      const out = Buffer.allocUnsafe(first.size)
      out.set(first.bytes, 0)
      for (let at = SLICE_BYTES; at < first.size; at += SLICE_BYTES) {
        const [next] = await slice(key, at)
        // Removed while being read: as if it had not been there.
        if (!next || next.size !== first.size) return null
        out.set(next.bytes, at)
      }
      return out
    },
    async remove(key) {
      assertFileKey(key)
      await db.delete(storedFiles).where(eq(storedFiles.key, key))
    },
    async *list() {
      let after = ''
      for (;;) {
        const rows = await db
          .select({ key: storedFiles.key })
          .from(storedFiles)
          .where(gt(storedFiles.key, after))
          .orderBy(asc(storedFiles.key))
          .limit(LIST_PAGE)
        for (const row of rows) yield row.key
        if (rows.length < LIST_PAGE) return
        after = rows.at(-1)!.key
      }
    },
  }
}
