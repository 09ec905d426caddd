import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { openFileStore } from '#app/platform/file-stores.server.ts'
import { createLocalFileStore, sha256Hex } from '#app/platform/files.server.ts'
import { loadEnv } from '#app/platform/env.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { startS3Server, type S3TestServer } from '#tests/support/s3-server.ts'
import { filesCommand } from './admin-files.ts'

// `npm run admin -- files:migrate` as the operator runs it: the environment read by loadEnv, the
// stores named on the command line, what it prints and its exit code. The PostgreSQL leg runs
// where the tests run on PostgreSQL (DATABASE_URL), on this file's own database.

const testDb = setupTestDatabase()
let s3: S3TestServer
let printed: string[] = []
beforeAll(async () => {
  s3 = await startS3Server()
})
afterAll(async () => {
  await s3?.close()
})
beforeEach(() => {
  printed = []
  vi.spyOn(console, 'info').mockImplementation((line: string) => void printed.push(line))
})
afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

function environment(env: Record<string, string>) {
  vi.stubEnv('DATABASE_URL', '')
  vi.stubEnv('FILE_STORE_URL', '')
  for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v)
}

describe('npm run admin -- files:migrate', () => {
  it('copies a folder of pictures to PostgreSQL and object storage, says how many, and copies nothing the second time', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'hallil-admin-'))
    const folder = mkdtempSync(path.join(tmpdir(), 'hallil-old-files-'))
    const old = createLocalFileStore(folder)
    const keys = Array.from({ length: 7 }, (_, i) => `${i % 2 ? 'avatars' : 'exam-images'}/${randomUUID()}.${i % 2 ? 'webp' : 'png'}`)
    for (const key of keys) await old.put(key, randomBytes(5000))
    const url = testDb().url
    environment({
      DATA_DIR: dataDir,
      SESSION_SECRET: 'x'.repeat(32),
      LOG_LEVEL: 'silent',
      ...s3.env(`admin${randomBytes(3).toString('hex')}`),
      ...(url ? { DATABASE_URL: url } : {}),
    })
    // Through PostgreSQL on the way when there is one; straight to the bucket otherwise.
    const legs = url
      ? [
          [`local:${folder}`, 'postgres'],
          ['postgres', 's3'],
        ]
      : [[`local:${folder}`, 's3']]
    for (const [from, to] of legs) {
      expect(await filesCommand(['--from', from!, '--to', to!])).toBe(0)
      expect(printed.at(-1)).toBe(`Files in ${from}: 7. Copied to ${to} and verified: 7. Already there (same SHA-256): 0.`)
      expect(await filesCommand(['--from', from!, '--to', to!])).toBe(0)
      expect(printed.at(-1)).toBe(`Files in ${from}: 7. Copied to ${to} and verified: 0. Already there (same SHA-256): 7.`)
    }
    const bucket = await openFileStore(loadEnv().FILE_STORE, null)
    for (const key of keys) expect(sha256Hex((await bucket.get(key))!)).toBe(sha256Hex((await old.get(key))!))
  })

  it('refuses a store it does not know, the same store twice, and missing names, with exit code 2', async () => {
    const errors: string[] = []
    vi.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line))
    const dataDir = mkdtempSync(path.join(tmpdir(), 'hallil-admin-'))
    environment({ DATA_DIR: dataDir, SESSION_SECRET: 'x'.repeat(32) })
    expect(await filesCommand(['--from', 'local', '--to', 'dropbox'])).toBe(2)
    expect(errors.at(-1)).toMatch(/unknown store "dropbox": use local, local:<folder>, postgres, s3/)
    expect(await filesCommand(['--from', 'local', '--to', 'postgres'])).toBe(2)
    expect(errors.at(-1)).toMatch(/"postgres" needs DATABASE_URL/)
    expect(await filesCommand(['--from', 'local', '--to', 'local'])).toBe(2)
    expect(errors.at(-1)).toMatch(/the same store/)
    expect(await filesCommand(['--from', 'local'])).toBe(2)
    expect(errors.at(-1)).toMatch(/needs --from and --to/)
    // A bucket that does not answer: one line, exit code 1.
    vi.stubEnv('LOG_LEVEL', 'silent')
    await createLocalFileStore(path.join(dataDir, 'files')).put(`avatars/${randomUUID()}.webp`, Buffer.from('x'))
    expect(await filesCommand(['--from', 'local', '--to', 's3://hallil?endpoint=http://127.0.0.1:9'])).toBe(1)
    expect(errors.at(-1)).toMatch(/a store did not answer/)
  })
})
