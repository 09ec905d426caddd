import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, setupTestDatabase } from '#tests/db.ts'
import { S3RVER_KEYS, startS3Server, type S3TestServer } from '#tests/support/s3-server.ts'
import { freePort } from '#tests/support/server-process.ts'
import { loadEnv } from './env.server.ts'
import { openFileStore } from './file-stores.server.ts'
import { parseS3Url } from './file-store-url.server.ts'
import { createPostgresFileStore } from './files-postgres.server.ts'
import { createS3FileStore } from './files-s3.server.ts'
import {
  createLocalFileStore,
  FileStoreUnavailableError,
  guardFileStore,
  InvalidFileKeyError,
  sha256Hex,
  storeThenRecord,
  type FileStore,
} from './files.server.ts'
import type { Logger } from './logger.server.ts'

// The one FileStore contract, run against each store: the local folder, PostgreSQL (PGlite here,
// a real PostgreSQL with DATABASE_URL) and object storage through the S3 API (s3rver on loopback).

const testDb = setupTestDatabase()
let s3: S3TestServer
beforeAll(async () => {
  s3 = await startS3Server()
})
afterAll(async () => {
  await s3?.close()
})

/** A logger that keeps what it was told, for the failures the guard logs. */
function keepingLogger() {
  const logged: Array<{ fields: Record<string, unknown>; message: string }> = []
  const logger = { error: (fields: Record<string, unknown>, message: string) => logged.push({ fields, message }) } as unknown as Logger
  return { logger, logged }
}

const key = (folder = 'avatars', ext = 'webp') => `${folder}/${randomUUID()}.${ext}`

const stores: Array<[string, () => FileStore]> = [
  ['the local folder', () => createLocalFileStore(mkdtempSync(path.join(tmpdir(), 'hallil-files-')))],
  ['PostgreSQL', () => createPostgresFileStore(testDb().db)],
  // A prefix of its own per store made, so each starts empty in the shared bucket.
  [
    'object storage (S3 API)',
    () =>
      createS3FileStore(parseS3Url(s3.url(`t${randomBytes(4).toString('hex')}`)), {
        accessKeyId: S3RVER_KEYS.S3_ACCESS_KEY_ID,
        secretAccessKey: S3RVER_KEYS.S3_SECRET_ACCESS_KEY,
      }),
  ],
]

describe.each(stores)('the file store in %s', (_name, make) => {
  it('gives back exactly the bytes stored, and null for a key never stored', async () => {
    const files = make()
    // Every byte value, zeros included, and past one megabyte (PostgreSQL reads it in slices).
    const data = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(1_200_000)])
    const k = key()
    await files.put(k, data)
    const back = await files.get(k)
    expect(back && sha256Hex(back)).toBe(sha256Hex(data))
    expect(back?.length).toBe(data.length)
    expect(await files.get(key())).toBeNull()
  })

  it('removes a file, and removing a missing one is not an error', async () => {
    const files = make()
    const k = key('exam-images', 'png')
    await files.put(k, Buffer.from('picture'))
    await files.remove(k)
    expect(await files.get(k)).toBeNull()
    await expect(files.remove(k)).resolves.toBeUndefined()
  })

  it('lists every key it holds, and a key written again holds the new bytes', async () => {
    const files = make()
    const keys = [key(), key('exam-images', 'jpg'), key('exam-images', 'png')]
    for (const k of keys) await files.put(k, Buffer.from(k))
    await files.put(keys[0]!, Buffer.from('again'))
    const listed: string[] = []
    for await (const k of files.list()) listed.push(k)
    // Each once (the PostgreSQL store's table is shared by this file's tests, so more may be there).
    expect(new Set(listed).size).toBe(listed.length)
    expect(listed).toEqual(expect.arrayContaining(keys))
    expect((await files.get(keys[0]!))?.toString()).toBe('again')
  })

  it('refuses a key outside the pattern before touching the store', async () => {
    const files = guardFileStore(make(), keepingLogger().logger)
    for (const bad of ['../etc/passwd', 'avatars/../../x.webp', 'avatars/a b.webp', 'noslash.webp'])
      await expect(files.put(bad, Buffer.from('x'))).rejects.toBeInstanceOf(InvalidFileKeyError)
  })
})

describe('a store that does not answer', () => {
  it('object storage out of reach: a 503 error in the teacher’s words, logged once, in seconds', async () => {
    const port = await freePort(4500, 4900)
    const { logger, logged } = keepingLogger()
    const files = guardFileStore(
      createS3FileStore(parseS3Url(`s3://hallil?endpoint=http://127.0.0.1:${port}`), { accessKeyId: 'a', secretAccessKey: 'b' }),
      logger,
    )
    const started = Date.now()
    for (const attempt of [
      () => files.put(key(), Buffer.from('x')),
      () => files.get(key()),
      () => files.list()[Symbol.asyncIterator]().next(),
    ]) {
      const error = await attempt().then(
        () => null,
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(FileStoreUnavailableError)
      expect(error).toMatchObject({ status: 503, messageKey: 'common.errors.fileStoreUnavailable', retryAfterSeconds: 30 })
    }
    expect(Date.now() - started).toBeLessThan(15_000)
    expect(logged.map((l) => [l.fields.op, l.fields.store, l.message])).toEqual([
      ['put', 's3', 'file store failed'],
      ['get', 's3', 'file store failed'],
      ['list', 's3', 'file store failed'],
    ])
  })

  it('the database gone: the same 503 error, and the log never carries the picture', async () => {
    const database = await createTestDatabase()
    const { logger, logged } = keepingLogger()
    const files = guardFileStore(createPostgresFileStore(database.db), logger)
    await database.cleanup()
    const picture = Buffer.from('A-TEACHER-PICTURE-'.repeat(50))
    const failed = await files.put(key(), picture).catch((error: unknown) => error)
    expect(failed).toBeInstanceOf(FileStoreUnavailableError)
    await expect(files.get(key())).rejects.toBeInstanceOf(FileStoreUnavailableError)
    expect(logged.map((l) => l.fields.op)).toEqual(['put', 'get'])
    // Drizzle's own error names the query's parameters: neither the log nor the error keeps it.
    expect(JSON.stringify(logged)).not.toContain('A-TEACHER-PICTURE')
    expect(String((failed as Error).cause)).not.toContain('A-TEACHER-PICTURE')
    expect(logged[0]!.fields.failure).toMatchObject({ type: expect.any(String), message: expect.any(String) })
  })

  it('a row that cannot be written takes its stored file back with it', async () => {
    const files = createLocalFileStore(mkdtempSync(path.join(tmpdir(), 'hallil-files-')))
    const k = key()
    await expect(
      storeThenRecord({ files, key: k, data: Buffer.from('x'), record: () => Promise.reject(new Error('row refused')) }),
    ).rejects.toThrow('row refused')
    expect(await files.get(k)).toBeNull()
    // And no row is written when the file could not be stored.
    let wrote = false
    const down = guardFileStore({ ...files, put: () => Promise.reject(new Error('ECONNREFUSED')) }, keepingLogger().logger)
    await expect(
      storeThenRecord({ files: down, key: key(), data: Buffer.from('x'), record: async () => (wrote = true) }),
    ).rejects.toBeInstanceOf(FileStoreUnavailableError)
    expect(wrote).toBe(false)
  })
})

describe('which store the environment chooses', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hallil-env-'))
  const choose = (env: Record<string, string>) => loadEnv({ DATA_DIR: dataDir, ...env }).FILE_STORE

  it('the local folder without a database, PostgreSQL with one, FILE_STORE_URL above both', () => {
    expect(choose({})).toEqual({ kind: 'local', dir: path.join(dataDir, 'files') })
    expect(choose({ DATABASE_URL: 'postgres://db/hallil' })).toEqual({ kind: 'postgres' })
    expect(choose({ DATABASE_URL: 'postgres://db/hallil', FILE_STORE_URL: 'local' })).toEqual({
      kind: 'local',
      dir: path.join(dataDir, 'files'),
    })
    expect(
      choose({
        DATABASE_URL: 'postgres://db/hallil',
        FILE_STORE_URL: 's3://school-files/hallil?endpoint=http://minio:9000&region=me-south-1',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
      }),
    ).toEqual({
      kind: 's3',
      location: { bucket: 'school-files', prefix: 'hallil/', endpoint: 'http://minio:9000', region: 'me-south-1', forcePathStyle: true },
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
    })
    // AWS itself: the bucket in the host name, the SDK's own credentials.
    expect(choose({ FILE_STORE_URL: 's3://school-files?region=me-south-1' })).toEqual({
      kind: 's3',
      location: { bucket: 'school-files', prefix: '', endpoint: undefined, region: 'me-south-1', forcePathStyle: false },
    })
  })

  it('refuses a bad address, postgres without a database and one S3 key without the other, naming the variable', () => {
    expect(() => choose({ FILE_STORE_URL: 'ftp://files' })).toThrow(/FILE_STORE_URL must be s3:\/\/bucket/)
    expect(() => choose({ FILE_STORE_URL: 's3://B?endpoint=x' })).toThrow(/FILE_STORE_URL must name a bucket/)
    expect(() => choose({ FILE_STORE_URL: 's3://files?endpoint=minio:9000' })).toThrow(/FILE_STORE_URL endpoint must be an http/)
    expect(() => choose({ FILE_STORE_URL: 'postgres' })).toThrow(/FILE_STORE_URL postgres needs DATABASE_URL/)
    expect(() => choose({ FILE_STORE_URL: 's3://files', S3_ACCESS_KEY_ID: 'id' })).toThrow(
      /S3_SECRET_ACCESS_KEY is required with the other S3 key/,
    )
  })

  it('opens the chosen store', async () => {
    expect((await openFileStore(choose({}), null)).kind).toBe('local')
    expect((await openFileStore({ kind: 'postgres' }, testDb().db)).kind).toBe('postgres')
    expect((await openFileStore(choose({ FILE_STORE_URL: s3.url() }), null)).kind).toBe('s3')
    await expect(openFileStore({ kind: 'postgres' }, null)).rejects.toThrow(/needs DATABASE_URL/)
  })
})
