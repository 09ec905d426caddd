import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setupTestDatabase } from '#tests/db.ts'
import { S3RVER_KEYS, startS3Server, type S3TestServer } from '#tests/support/s3-server.ts'
import { loadEnv } from './env.server.ts'
import { parseS3Url } from './file-store-url.server.ts'
import { fileStoreNamed, migrateFiles } from './files-migrate.server.ts'
import { createPostgresFileStore } from './files-postgres.server.ts'
import { createS3FileStore } from './files-s3.server.ts'
import { createLocalFileStore, sha256Hex, type FileStore } from './files.server.ts'

const testDb = setupTestDatabase()
let s3: S3TestServer
beforeAll(async () => {
  s3 = await startS3Server()
})
afterAll(async () => {
  await s3?.close()
})

const credentials = { accessKeyId: S3RVER_KEYS.S3_ACCESS_KEY_ID, secretAccessKey: S3RVER_KEYS.S3_SECRET_ACCESS_KEY }

async function contents(store: FileStore): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  for await (const key of store.list()) out.set(key, sha256Hex((await store.get(key))!))
  return out
}

describe('files:migrate', () => {
  // Three stores, each read whole several times: room for a machine busy with other test files.
  it(
    'copies every file local → PostgreSQL → object storage, each the same by SHA-256, and a second run copies nothing',
    { timeout: 90_000 },
    async () => {
      const root = mkdtempSync(path.join(tmpdir(), 'hallil-migrate-'))
      const local = createLocalFileStore(root)
      const keys = [
        ...Array.from({ length: 12 }, () => `avatars/${randomUUID()}.webp`),
        ...Array.from({ length: 5 }, () => `exam-images/${randomUUID()}.png`),
      ]
      for (const [i, key] of keys.entries()) await local.put(key, randomBytes(1000 + i * 5_000))
      // Not a stored file: left where it is.
      writeFileSync(path.join(root, 'README'), 'not a file of the store')
      const postgres = createPostgresFileStore(testDb().db)
      const s3store = createS3FileStore(parseS3Url(s3.url(`m${randomBytes(4).toString('hex')}`)), credentials)
      const expected = await contents(local)
      expect(expected.size).toBe(17)

      expect(await migrateFiles({ from: local, to: postgres })).toEqual({
        seen: 17,
        copied: 17,
        alreadyThere: 0,
        vanished: 0,
        mismatched: [],
      })
      expect(await migrateFiles({ from: postgres, to: s3store })).toMatchObject({ copied: 17, alreadyThere: 0, mismatched: [] })
      expect(await contents(s3store)).toEqual(expected)

      // Again: nothing new to copy. One more file and one damaged copy: only those two are written.
      expect(await migrateFiles({ from: local, to: postgres })).toMatchObject({ seen: 17, copied: 0, alreadyThere: 17 })
      const added = `avatars/${randomUUID()}.webp`
      await local.put(added, Buffer.from('new picture'))
      await postgres.put(keys[3]!, Buffer.from('damaged'))
      expect(await migrateFiles({ from: local, to: postgres })).toMatchObject({ seen: 18, copied: 2, alreadyThere: 16, mismatched: [] })
      expect((await contents(postgres)).get(keys[3]!)).toBe(expected.get(keys[3]!))
      // The source is never changed.
      expect((await contents(local)).size).toBe(18)
    },
  )

  it('names a key that does not read back the same, and copies the rest', async () => {
    const from = createLocalFileStore(mkdtempSync(path.join(tmpdir(), 'hallil-migrate-')))
    const good = `avatars/${randomUUID()}.webp`
    const bad = `avatars/${randomUUID()}.webp`
    await from.put(good, Buffer.from('fine'))
    await from.put(bad, Buffer.from('will be bent'))
    const target = createLocalFileStore(mkdtempSync(path.join(tmpdir(), 'hallil-migrate-')))
    // A target that loses a byte of one file on the way.
    const lossy: FileStore = { ...target, put: (key, data) => target.put(key, key === bad ? data.subarray(1) : data) }
    expect(await migrateFiles({ from, to: lossy })).toMatchObject({ seen: 2, copied: 1, mismatched: [bad] })
  })

  it('knows the stores by name and refuses any other', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'hallil-env-'))
    const env = loadEnv({
      DATA_DIR: dataDir,
      DATABASE_URL: 'postgres://db/hallil',
      FILE_STORE_URL: 's3://school-files?endpoint=http://minio:9000',
      ...S3RVER_KEYS,
    })
    expect(fileStoreNamed('local', env)).toEqual({ kind: 'local', dir: path.join(dataDir, 'files') })
    expect(fileStoreNamed('local:/mnt/old-files', env)).toEqual({ kind: 'local', dir: '/mnt/old-files' })
    expect(fileStoreNamed('postgres', env)).toEqual({ kind: 'postgres' })
    expect(fileStoreNamed('s3', env)).toMatchObject({
      kind: 's3',
      location: { bucket: 'school-files', endpoint: 'http://minio:9000' },
      credentials,
    })
    expect(fileStoreNamed('s3://other-bucket?region=me-south-1', env)).toMatchObject({
      kind: 's3',
      location: { bucket: 'other-bucket', region: 'me-south-1' },
    })
    for (const name of ['pg', 'local:', 'S3', 'dropbox', 'file:///tmp']) expect(() => fileStoreNamed(name, env)).toThrow(/unknown store/)
    const bare = loadEnv({ DATA_DIR: dataDir })
    expect(() => fileStoreNamed('postgres', bare)).toThrow(/needs DATABASE_URL/)
    expect(() => fileStoreNamed('s3', bare)).toThrow(/needs FILE_STORE_URL/)
  })
})
