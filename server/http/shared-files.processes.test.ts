import { randomBytes } from 'node:crypto'
import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import { startS3Server, type S3TestServer } from '#tests/support/s3-server.ts'
import { startServer, type ServerProcess } from '#tests/support/server-process.ts'

// Shared storage between real processes (issue 19): two built servers (`node server.js`) on one
// PostgreSQL database, each with its own data folder; a profile picture given at registration on
// one is served by the other. On the database store (DATABASE_URL and no FILE_STORE_URL) and on
// object storage (FILE_STORE_URL, s3rver on loopback). Runs where the tests run on PostgreSQL.

const running: ServerProcess[] = []
let s3: S3TestServer | null = null
afterAll(async () => {
  // The second first: the first one's stop drops the database they share.
  for (const server of running.toReversed()) await server.stop()
  await s3?.close()
})

async function twoProcesses(name: string, env: Record<string, string> = {}) {
  const secret = randomBytes(24).toString('hex')
  const a = await startServer({ name: `${name}-a`, database: 'postgres', env: { SESSION_SECRET: secret, ...env } })
  running.push(a)
  // The same database as the first (dropped by the first's stop), a data folder of its own.
  const b = await startServer({ name: `${name}-b`, database: { url: a.databaseUrl! }, env: { SESSION_SECRET: secret, ...env } })
  running.push(b)
  return { a, b }
}

async function registerWithPicture(server: ServerProcess) {
  const id = randomBytes(4).toString('hex')
  const form = new FormData()
  for (const [k, v] of Object.entries({
    username: `teacher_${id}`,
    email: `teacher.${id}@school.sa`,
    phone: '0501234567',
    password: 'Sunrise-Falcon-42',
    password_confirmation: 'Sunrise-Falcon-42',
    terms: 'on',
  }))
    form.set(k, v)
  const picture = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#2a7' } })
    .png()
    .toBuffer()
  form.set('avatar', new File([new Uint8Array(picture)], 'me.png', { type: 'image/png' }))
  const answer = await fetch(`${server.url}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'x-forwarded-for': `198.51.100.${Number.parseInt(id.slice(0, 2), 16)}` },
    body: form,
  })
  expect(answer.status).toBe(201)
  const { data } = (await answer.json()) as { data: { user: { avatar_url: string } } }
  return new URL(data.user.avatar_url, server.url).pathname
}

describe.skipIf(!process.env.DATABASE_URL)('two server processes share stored files', () => {
  it('on the PostgreSQL store: the picture stored through one is served by the other', { timeout: 300_000 }, async () => {
    const { a, b } = await twoProcesses('files-pg')
    const picture = await registerWithPicture(a)
    const fromB = await fetch(`${b.url}${picture}`)
    expect(fromB.status).toBe(200)
    expect(fromB.headers.get('content-type')).toBe('image/webp')
    const fromA = await fetch(`${a.url}${picture}`)
    expect(Buffer.from(await fromB.arrayBuffer()).equals(Buffer.from(await fromA.arrayBuffer()))).toBe(true)
  })

  it('on object storage: the picture stored through one is served by the other', { timeout: 300_000 }, async () => {
    s3 = await startS3Server()
    const { a, b } = await twoProcesses('files-s3', s3.env('processes'))
    const picture = await registerWithPicture(b)
    const fromA = await fetch(`${a.url}${picture}`)
    expect(fromA.status).toBe(200)
    expect((await sharp(new Uint8Array(await fromA.arrayBuffer())).metadata()).width).toBe(256)
  })
})
