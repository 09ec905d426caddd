import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { apiTestApp } from '#tests/api-app.ts'
import { checkedApp, ConformanceError, createConformanceChecker, type Answer } from '#tests/api-conformance.ts'
import { testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { apiContracts } from './index.ts'
import { buildOpenApiDocument } from './openapi.ts'

// The check every API test goes through (tests/api-conformance.ts): it must pass what the
// document says and fail, with a message that says why, on anything else — a wrong schema in
// the document included.

type Doc = ReturnType<typeof buildOpenApiDocument>
const freshDoc = (): Doc => JSON.parse(JSON.stringify(buildOpenApiDocument(apiContracts()))) as Doc
const schemas = (doc: Doc) => doc.components.schemas as Record<string, { properties: Record<string, unknown>; required?: string[] }>

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Omit<Answer, 'method' | 'url'> => ({
  status,
  headers: new Headers({ 'content-type': 'application/json; charset=UTF-8', ...headers }),
  body: JSON.stringify(body),
})

const aPackage = {
  id: 1,
  name: 'Monthly',
  description: 'One month',
  months: 1,
  price: 4900,
  vat_rate: 15,
  vat: 735,
  total: 5635,
  is_best_seller: false,
}

describe('the conformance check, on answers made by hand', () => {
  const checker = createConformanceChecker(freshDoc())
  const check = (method: string, url: string, answer: Omit<Answer, 'method' | 'url'>) => checker.check({ method, url, ...answer })

  it('passes an answer the document describes, and names its operation', () => {
    expect(check('GET', '/api/v1/packages', json(200, { message: '', data: [aPackage] }))).toEqual({
      operation: 'GET /packages',
      status: 200,
      problems: [],
    })
  })

  it('fails a field of the wrong type, a missing field and a field the document does not name', () => {
    const [wrongType] =
      check('GET', '/api/v1/packages', json(200, { message: '', data: [{ ...aPackage, price: '49.00' }] }))?.problems ?? []
    expect(wrongType).toMatch(/\/data\/0\/price must be integer/)
    const { total: _total, ...withoutTotal } = aPackage
    expect(check('GET', '/api/v1/packages', json(200, { message: '', data: [withoutTotal] }))?.problems.join()).toMatch(
      /\/data\/0 must have required property 'total'/,
    )
    expect(check('GET', '/api/v1/packages', json(200, { message: '', data: [{ ...aPackage, secret: 1 }] }))?.problems.join()).toMatch(
      /must NOT have additional properties \(secret\)/,
    )
  })

  it('fails a status the operation does not list, and says which it lists', () => {
    const [problem] = check('GET', '/api/v1/packages', json(418, { message: 'teapot' }))?.problems ?? []
    expect(problem).toMatch(/^418 is not a documented answer of GET \/packages \(documented: 200, 500\)/)
  })

  it('checks error bodies against their shared responses: 422 needs its errors, 500 says nothing more', () => {
    expect(check('POST', '/api/v1/exams', json(422, { message: 'Check the fields', errors: { title: ['Required'] } }))?.problems).toEqual(
      [],
    )
    expect(check('POST', '/api/v1/exams', json(422, { message: 'Check the fields' }))?.problems.join()).toMatch(
      /required property 'errors'/,
    )
    expect(
      check('GET', '/api/v1/packages', json(500, { message: 'An unexpected error occurred', stack: 'at x.ts:1' }))?.problems.join(),
    ).toMatch(/additional properties \(stack\)/)
  })

  it('fails a 429 without Retry-After and a content type the operation does not list', () => {
    expect(check('POST', '/api/v1/auth/login', json(429, { message: 'Too many' }))?.problems).toEqual(['the header Retry-After is missing'])
    expect(check('POST', '/api/v1/auth/login', json(429, { message: 'Too many' }, { 'retry-after': '30' }))?.problems).toEqual([])
    const pdfAsHtml = { status: 200, headers: new Headers({ 'content-type': 'text/html' }), body: '<p>' }
    expect(check('GET', '/api/v1/invoices/1/pdf', pdfAsHtml)?.problems.join()).toMatch(
      /content type is "text\/html", not one of application\/pdf/,
    )
  })

  it('prefers a concrete path to a template, as OpenAPI does, and matches the method too', () => {
    expect(check('POST', '/api/v1/analyses/absence', json(401, { message: 'Login is required' }))?.operation).toBe('POST /analyses/absence')
    expect(check('GET', '/api/v1/analyses/absence', json(404, { message: 'Not found' }))?.operation).toBe('GET /analyses/{id}')
  })

  it('takes an undocumented path only as the API’s 404, and ignores what is not under /api/v1', () => {
    expect(check('GET', '/api/v1/nothing-here', json(404, { message: 'Not found' }))?.problems).toEqual([])
    expect(check('GET', '/api/v1/nothing-here', json(200, { message: '', data: null }))?.problems.join()).toMatch(
      /not in the document, yet answered 200/,
    )
    expect(check('GET', '/ar/packages', { status: 200, headers: new Headers({ 'content-type': 'text/html' }), body: '<html>' })).toBeNull()
  })
})

describe('the conformance check, on the real API', () => {
  let services: ReturnType<typeof testServices>
  setupTestDatabase(async (db) => {
    await seedPackages({ db: db.db })
    services = testServices(db)
  })

  it('passes the real GET /packages against the document, and fails it once the document’s Package is made wrong', async () => {
    const right = apiTestApp(services)
    expect((await right.request('/api/v1/packages')).status).toBe(200)

    const wrong = freshDoc()
    schemas(wrong).Package!.properties.price = { type: 'string' }
    const checkedWrong = checkedApp(right, createConformanceChecker(wrong))
    const failure = await Promise.resolve(checkedWrong.request('/api/v1/packages')).then(
      () => null,
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(ConformanceError)
    expect(String((failure as Error).message)).toMatch(
      /^GET \/api\/v1\/packages → 200: the answer is not what the OpenAPI document says:[\s\S]*\/data\/0\/price must be string/,
    )
  })

  it('fails through app.request when a handler answers what the document does not say, and hands back conforming answers untouched', async () => {
    const api = new Hono()
    api.get('/api/v1/packages', (c) => c.json({ message: '', data: [{ ...aPackage, price: 49.5 }] }))
    api.get('/api/v1/reviews', (c) => c.json({ message: '', data: [] }))
    const app = checkedApp(api)
    await expect(app.request('/api/v1/packages')).rejects.toThrow(/\/data\/0\/price must be integer/)
    const ok = await app.request('/api/v1/reviews')
    expect(await ok.json()).toEqual({ message: '', data: [] })
  })
})
