import { randomUUID } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppServices } from '#app/platform/context.server.ts'
import { openDatabase, type Database } from '#app/platform/db/client.server.ts'
import { examImages, users } from '#app/platform/db/schema.ts'
import { createExam } from '#app/features/exams/index.server.ts'
import { loadEnv } from '#app/platform/env.server.ts'
import { openFileStore } from '#app/platform/file-stores.server.ts'
import { createPostgresFileStore } from '#app/platform/files-postgres.server.ts'
import { guardFileStore, sha256Hex, type FileStore } from '#app/platform/files.server.ts'
import { action as registerAction } from '#app/routes/register.tsx'
import { apiTestApp } from '#tests/api-app.ts'
import { testContext, testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { sampleExam } from '#tests/exams.ts'
import { registration, silenceOutboxHints } from '#tests/factories.ts'
import { apiHeaders, subscribedTeacher } from '#tests/subscriber.ts'
import { startS3Server, type S3TestServer } from '#tests/support/s3-server.ts'
import { freePort } from '#tests/support/server-process.ts'

// Shared storage (issue 19): two app instances, each with its own data folder, on one database (on
// PostgreSQL, each with its own connection pool, as two processes would be): a picture stored
// through one is served by the other, on the PostgreSQL store and on object storage (s3rver on
// loopback). And a store that does not answer is a clean 503 in the teacher's language, with no
// row left pointing at a file that was never stored.

const testDb = setupTestDatabase()
silenceOutboxHints()
let s3: S3TestServer
let secondPool: Database | null = null
beforeAll(async () => {
  s3 = await startS3Server()
  const url = testDb().url
  if (url) secondPool = await openDatabase({ kind: 'postgres', url, poolMax: 2 })
})
afterAll(async () => {
  await secondPool?.close()
  await s3?.close()
})

type StoreSetup = { name: string; files: (database: Database) => Promise<FileStore> }
/** One secret for every instance, as a deployment's processes share it. */
const SESSION_SECRET = 'a-session-secret-shared-by-the-instances-0123456789'
const setups: StoreSetup[] = [
  { name: 'PostgreSQL', files: async (database) => createPostgresFileStore(database.db) },
  { name: 'object storage', files: () => openFileStore(loadEnv({ DATA_DIR: tmpdir(), SESSION_SECRET, ...s3.env() }).FILE_STORE, null) },
]

/** One app instance: its own data folder and logger, the given database (pool) and its own store object. */
async function instance(database: Database, setup: StoreSetup) {
  const services = testServices({ ...database, cleanup: async () => {} }, { SESSION_SECRET })
  services.files = guardFileStore(await setup.files(database), services.logger)
  return { services, app: apiTestApp(services) }
}

const png = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 30, b: 90 } } })
    .png()
    .toBuffer()

function formWith(name: string, data: Buffer, fields: Record<string, string> = {}) {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.set(k, v)
  form.set(name, new File([new Uint8Array(data)], 'picture.png', { type: 'image/png' }))
  return form
}

const localFilesOf = (services: AppServices) => {
  try {
    return readdirSync(path.join(services.env.DATA_DIR, 'files'))
  } catch {
    return []
  }
}

describe.each(setups)('a file stored through one instance is served by another: $name', (setup) => {
  it('a question image uploaded on A is read back byte for byte on B', async () => {
    const a = await instance(testDb(), setup)
    const b = await instance(secondPool ?? testDb(), setup)
    const teacher = await subscribedTeacher(testDb().db)
    // One API token, used on both: its session lives in the database.
    const headers = await apiHeaders(testDb().db, SESSION_SECRET, teacher.id)
    const uploaded = await a.app.request('/api/v1/uploads/images', { method: 'POST', headers, body: formWith('file', await png()) })
    expect(uploaded.status).toBe(201)
    const { data } = (await uploaded.json()) as { data: { id: string } }
    const [row] = await testDb().db.select().from(examImages).where(eq(examImages.id, data.id))
    const onA = await a.services.files.get(row!.fileKey)
    const read = await b.app.request(`/api/v1/uploads/images/${data.id}`, { headers })
    expect(read.status).toBe(200)
    expect(read.headers.get('content-type')).toBe('image/png')
    expect(sha256Hex(new Uint8Array(await read.arrayBuffer()))).toBe(sha256Hex(onA!))
    // Nothing went to either instance's own folder.
    expect([localFilesOf(a.services), localFilesOf(b.services)]).toEqual([[], []])
  })

  it('a profile picture given at registration on A is served on B', async () => {
    const a = await instance(testDb(), setup)
    const b = await instance(secondPool ?? testDb(), setup)
    const input = registration()
    const fields = {
      username: input.username,
      email: input.email,
      phone: '0501234567',
      password: input.password,
      password_confirmation: input.password,
      terms: 'on',
    }
    const registered = await a.app.request('/api/v1/auth/register', {
      method: 'POST',
      headers: { 'accept-language': 'en' },
      body: formWith('avatar', await png(), fields),
    })
    expect(registered.status).toBe(201)
    const [user] = await testDb().db.select().from(users).where(eq(users.email, input.email))
    expect(user?.avatarFile).toMatch(/^avatars\/[0-9a-f-]{36}\.webp$/)
    const served = await b.app.request(`/files/${user!.avatarFile}`)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/webp')
    expect((await sharp(new Uint8Array(await served.arrayBuffer())).metadata()).width).toBe(256)
  })
})

describe('a store that does not answer', () => {
  async function deadStoreInstance() {
    const port = await freePort(4500, 4900)
    const services = testServices(testDb(), {
      FILE_STORE_URL: `s3://hallil?endpoint=http://127.0.0.1:${port}`,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    })
    const logged: string[] = []
    const logger = {
      ...services.logger,
      error: (fields: { op: string; store: string }) => logged.push(`${fields.op} ${fields.store}`),
    } as unknown as AppServices['logger']
    services.files = guardFileStore(await openFileStore(services.env.FILE_STORE, null), logger)
    return { services, app: apiTestApp(services), logged }
  }

  it('API: an image upload answers 503 in the caller’s language with Retry-After, and no image row is left', async () => {
    const { services, app, logged } = await deadStoreInstance()
    const teacher = await subscribedTeacher(testDb().db)
    for (const [lang, message] of [
      ['en', 'The storage for pictures is not answering right now. Nothing was changed; please try again in a minute.'],
      ['ar', 'مخزن الصور لا يستجيب الآن. لم يتغيّر شيء، فحاول مرة أخرى بعد دقيقة.'],
    ] as const) {
      const answer = await app.request('/api/v1/uploads/images', {
        method: 'POST',
        headers: await apiHeaders(testDb().db, services.env.SESSION_SECRET, teacher.id, lang),
        body: formWith('file', await png()),
      })
      expect(answer.status).toBe(503)
      expect(answer.headers.get('retry-after')).toBe('30')
      expect(await answer.json()).toEqual({ message })
    }
    expect(await testDb().db.select().from(examImages).where(eq(examImages.userId, teacher.id))).toEqual([])
    expect(logged).toEqual(['put s3', 'put s3'])
  })

  it('API: an image whose row exists answers 503, not 404 or 500, while the store is down', async () => {
    const { services, app } = await deadStoreInstance()
    const teacher = await subscribedTeacher(testDb().db)
    const [row] = await testDb()
      .db.insert(examImages)
      .values({ userId: teacher.id, fileKey: `exam-images/${randomUUID()}.png`, contentType: 'image/png', width: 1, height: 1, bytes: 1 })
      .returning()
    const answer = await app.request(`/api/v1/uploads/images/${row!.id}`, {
      headers: await apiHeaders(testDb().db, services.env.SESSION_SECRET, teacher.id),
    })
    expect(answer.status).toBe(503)
  })

  it('API: a test’s PDF that shows an image answers 503 with the message, not a PDF without the image', async () => {
    const { services, app } = await deadStoreInstance()
    const teacher = await subscribedTeacher(testDb().db)
    const [image] = await testDb()
      .db.insert(examImages)
      .values({ userId: teacher.id, fileKey: `exam-images/${randomUUID()}.png`, contentType: 'image/png', width: 1, height: 1, bytes: 1 })
      .returning()
    const input = sampleExam()
    input.questions[0] = { ...input.questions[0]!, image: image!.id }
    const exam = await createExam({ db: testDb().db, userId: teacher.id, exam: input })
    const answer = await app.request(`/api/v1/exams/${exam.id}/pdf`, {
      headers: await apiHeaders(testDb().db, services.env.SESSION_SECRET, teacher.id, 'en'),
    })
    expect(answer.status).toBe(503)
    expect(((await answer.json()) as { message: string }).message).toMatch(/^The storage for pictures is not answering/)
  })

  it('a registration with a picture: 503 on the page’s form and through the API, and no account is made', async () => {
    const { services, app } = await deadStoreInstance()
    const input = registration()
    const fields = {
      username: input.username,
      email: input.email,
      phone: '0501234567',
      password: input.password,
      password_confirmation: input.password,
      terms: 'on',
    }
    const api = await app.request('/api/v1/auth/register', {
      method: 'POST',
      headers: { 'accept-language': 'en' },
      body: formWith('avatar', await png(), fields),
    })
    expect(api.status).toBe(503)
    const request = new Request('http://localhost/en/SignIn', { method: 'POST', body: formWith('avatar', await png(), fields) })
    const page = (await registerAction({
      request,
      params: { lang: 'en' },
      context: { ...testContext(testDb()), files: services.files },
    } as never)) as unknown as {
      data: { errors: Record<string, string[]>; values: Record<string, string> }
      init: { status: number; headers: Record<string, string> }
    }
    expect(page.init.status).toBe(503)
    expect(page.init.headers).toEqual({ 'Retry-After': '30' })
    expect(page.data.errors).toEqual({ _form: ['common.errors.fileStoreUnavailable'] })
    // What was typed comes back to the form (never the password).
    expect(page.data.values).toMatchObject({ username: input.username, email: input.email })
    expect(await testDb().db.select().from(users).where(eq(users.email, input.email))).toEqual([])
  })

  it('a stored picture: 503 with the message in the visitor’s language', async () => {
    const { app } = await deadStoreInstance()
    const name = `avatars/${randomUUID()}.webp`
    const ar = await app.request(`/files/${name}`)
    expect([ar.status, ar.headers.get('retry-after'), await ar.text()]).toEqual([
      503,
      '30',
      'مخزن الصور لا يستجيب الآن. لم يتغيّر شيء، فحاول مرة أخرى بعد دقيقة.',
    ])
    const en = await app.request(`/files/${name}`, { headers: { 'accept-language': 'en-GB,en;q=0.9' } })
    expect(en.status).toBe(503)
    expect(await en.text()).toMatch(/^The storage for pictures is not answering/)
  })
})
