import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import fc from 'fast-check'
import type { ServerBuild } from 'react-router'
import { beforeAll, describe, expect, it } from 'vitest'
import { createSession } from '#app/features/accounts/index.server.ts'
import type { RequestContext } from '#app/platform/context.server.ts'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { testContext, testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { sampleExamBody, subscribedTeacher } from '#tests/exams.ts'
import { createApi } from '../api/index.ts'
import { createHttpApp } from '../http.ts'
import { checkedApp } from '#tests/api-conformance.ts'

// ASVS V2/V4 (validation, API): every /api/v1 endpoint, listed from the Hono app itself so a new
// endpoint is fuzzed without being added here, gets arbitrary bodies, query strings, headers and
// path ids, signed out, with a made-up token and with a subscriber's token. Whatever arrives,
// the answer is never a 5xx (a crash or an unhandled error). See docs/security.md.

// FUZZ_RUNS=300 for a longer hunt; the suite runs 30 per endpoint.
const RUNS = Number(process.env.FUZZ_RUNS) || 30
const fakeBuild = { assets: { version: 't', url: '', entry: { module: '', imports: [] }, routes: {} } } as unknown as ServerBuild
const fixtures = resolve(import.meta.dirname, '../../../app/features/absence/fixtures')

let app: ReturnType<typeof createHttpApp>
let ctx: RequestContext
const testDb = setupTestDatabase(async (db) => {
  await seedPackages({ db: db.db })
  const services = testServices(db)
  app = checkedApp(createHttpApp({ services, getBuild: () => fakeBuild, mode: 'production' }))
  ctx = testContext(db, { env: services.env, files: services.files, logger: services.logger, mailer: services.mailer })
})

let owner: Awaited<ReturnType<typeof subscribedTeacher>>
const realIds: string[] = []

beforeAll(async () => {
  owner = await subscribedTeacher(ctx)
  const headers = { authorization: `Bearer ${owner.token}` }
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(readFileSync(`${fixtures}/small-ar.xlsx`))]), 'report.xlsx')
  const analysis = (await (await app.request('/api/v1/analyses/absence', { method: 'POST', headers, body: form })).json()) as {
    data: { id: string }
  }
  const exam = (await (
    await app.request('/api/v1/exams', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(sampleExamBody()),
    })
  ).json()) as { data: { id: string } }
  realIds.push(analysis.data.id, exam.data.id)
})

/** The API's endpoints, from its router (middleware entries are `ALL`). */
function endpoints(): Array<{ method: string; path: string }> {
  const seen = new Set<string>()
  const list = []
  for (const r of createApi().routes) {
    if (r.method === 'ALL') continue
    const key = `${r.method} ${r.path}`
    if (seen.has(key)) continue
    seen.add(key)
    list.push({ method: r.method, path: r.path })
  }
  return list
}

// The field names the API's schemas read, so that bodies reach past "not an object".
const fieldNames = [
  'email',
  'password',
  'password_confirmation',
  'current_password',
  'username',
  'phone',
  'code',
  'purpose',
  'temporary_token',
  'token',
  'package_id',
  'method',
  'rating',
  'comment',
  'type',
  'name',
  'message',
  'title',
  'school_name',
  'subject',
  'grade',
  'date',
  'duration_minutes',
  'info',
  'show_student_name',
  'questions',
  'bands',
  'file',
  'avatar',
  'id',
  'status',
  '__proto__',
  'constructor',
]
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '1e309',
    'null',
    'true',
    '[]',
    '{}',
    '../../etc/passwd',
    "' OR 1=1 --",
    '<script>alert(1)</script>',
    '٠١٢٣٤٥',
    'a'.repeat(5000),
    '\u0000',
    '\uFEFF',
    '%00',
  ),
)
const scalar = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.bigInt().map(String))
const value = fc.oneof({ depthSize: 'small' }, scalar, fc.jsonValue({ maxDepth: 3 }), fc.array(scalar, { maxLength: 5 }))
const fields = fc.dictionary(fc.oneof(fc.constantFrom(...fieldNames), fc.string({ maxLength: 12 })), value, { maxKeys: 8 })

/** A test body with some fields or one question replaced: most of it valid, the rest anything. */
const examLike = fc.tuple(fields, fc.nat({ max: 5 }), fields).map(([top, index, question]) => {
  const body = sampleExamBody(top)
  const questions = Array.isArray(body.questions) ? [...body.questions] : []
  if (questions[index]) questions[index] = { ...questions[index], ...question }
  return Array.isArray(body.questions) ? { ...body, questions } : body
})

type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; type: string; text: string }
  | { kind: 'form'; fields: Record<string, string>; file: Uint8Array | null }
const body: fc.Arbitrary<Body> = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.oneof(fields, examLike, fc.jsonValue({ maxDepth: 4 })).map((v) => ({ kind: 'json' as const, value: v })),
  fc.record({
    kind: fc.constant('raw' as const),
    type: fc.constantFrom(
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      'multipart/form-data; boundary=x',
      'application/xml',
      '',
    ),
    text: fc.oneof(
      text,
      fc.constantFrom('{"a":', '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\n', 'a=1&a=2&b', '\u0000\u0001'),
    ),
  }),
  fc.record({
    kind: fc.constant('form' as const),
    fields: fc.dictionary(fc.constantFrom(...fieldNames), fc.string({ maxLength: 30 }), { maxKeys: 5 }),
    file: fc.option(fc.uint8Array({ maxLength: 2048 }), { nil: null }),
  }),
)

const headerText = fc.string({ unit: 'grapheme-ascii', maxLength: 40 })
const query = fc.dictionary(
  fc.oneof(fc.constantFrom('q', 'status', 'answers', 'versions', 'seed', 'lang', 'id', 'page'), fc.string({ maxLength: 8 })),
  text,
  { maxKeys: 4 },
)
const pathId = fc.oneof(
  fc.uuid(),
  fc.string({ maxLength: 40 }),
  fc.constantFrom('0', '-1', '..', '%2e%2e', 'null', '00000000-0000-0000-0000-000000000000'),
  fc.constant('REAL'),
)
const auth = fc.constantFrom('none', 'garbage', 'valid', 'valid')

const request = fc.record({
  body,
  query,
  pathIds: fc.array(pathId, { minLength: 3, maxLength: 3 }),
  realIndex: fc.nat({ max: 1 }),
  auth,
  garbage: headerText,
  lang: headerText,
  file: fc.constantFrom('export.xlsx', 'export.pdf'),
})
type Fuzzed = typeof request extends fc.Arbitrary<infer T> ? T : never

async function send(method: string, template: string, input: Fuzzed): Promise<Response> {
  let i = 0
  const path = template
    .replace(/:file\{[^}]*\}/, input.file)
    .replace(/:gateway/, () => (input.pathIds[2] === 'REAL' ? 'sandbox' : encodeURIComponent(input.pathIds[2] ?? '')))
    .replace(/:id/g, () => {
      const id = input.pathIds[i++] ?? ''
      return id === 'REAL' ? (realIds[input.realIndex] ?? '') : encodeURIComponent(id)
    })
  const search = new URLSearchParams(Object.entries(input.query)).toString()
  const headers = new Headers({ 'accept-language': input.lang })
  if (input.auth === 'garbage') headers.set('authorization', `Bearer ${input.garbage}`)
  if (input.auth === 'valid') {
    // A fresh token each time: the fuzzer may well log out or change the password.
    const { token } = await createSession({ db: testDb().db, secret: ctx.env.SESSION_SECRET, userId: owner.user.id, kind: 'api' })
    headers.set('authorization', `Bearer ${token}`)
  }
  let payload: BodyInit | undefined
  const b = input.body
  if (method !== 'GET' && b.kind !== 'none') {
    if (b.kind === 'json') {
      headers.set('content-type', 'application/json')
      payload = JSON.stringify(b.value) ?? 'null'
    } else if (b.kind === 'raw') {
      if (b.type) headers.set('content-type', b.type)
      payload = b.text
    } else {
      const form = new FormData()
      for (const [k, v] of Object.entries(b.fields)) form.append(k, v)
      if (b.file) {
        form.append('file', new Blob([new Uint8Array(b.file)]), 'upload.xlsx')
        form.append('avatar', new Blob([new Uint8Array(b.file)]), 'me.png')
      }
      payload = form
    }
  }
  return app.request(`/api/v1${path}${search ? `?${search}` : ''}`, { method, headers, body: payload })
}

describe('inputs the fuzzer found', () => {
  it('a webhook body that is JSON but not an object (null, a number, a list) is refused with 401, not a crash', async () => {
    for (const raw of ['null', '5', '[]', '"x"', 'true', '{"secret_token":null}', '{"data":null}'])
      expect({
        raw,
        status: (
          await app.request('/api/v1/payments/webhook/sandbox', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: raw,
          })
        ).status,
      }).toEqual({ raw, status: 401 })
  })
})

describe('every /api/v1 endpoint under arbitrary input', () => {
  it('is listed from the router (the fuzz follows new endpoints)', () => {
    const list = endpoints().map((e) => `${e.method} ${e.path}`)
    expect(list.length).toBeGreaterThanOrEqual(40)
    for (const known of [
      'POST /auth/login',
      'PUT /exams/:id',
      'GET /analyses/:id/students',
      'POST /payments/webhook/:gateway',
      'POST /uploads/images',
    ])
      expect(list).toContain(known)
  })

  for (const { method, path } of endpoints()) {
    it(`${method} ${path}: never answers 5xx`, { timeout: 120_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(request, async (input) => {
          const res = await send(method, path, input)
          await res.arrayBuffer()
          if (process.env.FUZZ_STATS) process.stdout.write(`STAT ${method} ${path} ${res.status}\n`)
          expect(res.status, `${method} ${path}`).toBeLessThan(500)
        }),
        { numRuns: RUNS },
      )
    })
  }
})
