import { describe, expect, it } from 'vitest'
import { testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { apiTestApp } from '#tests/api-app.ts'
import { loginSchema } from '#app/features/accounts/schemas.ts'
import { examSchema } from '#app/features/exams/schemas.ts'
import { namedWireShapes } from '#app/lib/wire.server.ts'
import { fromZod, type JsonSchema } from './contract.ts'
import { renderDocsHtml } from './docs-page.ts'
import { apiContracts, createApi } from './index.ts'
import { buildOpenApiDocument } from './openapi.ts'

// The document against the real router: every route documented, every documented route real,
// and the document itself well-formed (references resolve, path parameters declared).

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

/** `a(b|c)d` → abd, acd; `\.` → `.`. Only what the routes use: literal alternatives. */
function expandPattern(pattern: string): string[] {
  const group = /\(([^()]*)\)/.exec(pattern)
  if (!group) {
    if (/[\\[\]*+?{}^$]/.test(pattern.replace(/\\\./g, ''))) throw new Error(`cannot expand ${pattern}`)
    return [pattern.replace(/\\\./g, '.')]
  }
  const before = pattern.slice(0, group.index)
  const after = pattern.slice(group.index + group[0].length)
  return (group[1] ?? '').split('|').flatMap((alt) => expandPattern(before + alt + after))
}

/** A Hono path in OpenAPI form: `:id` → `{id}`; a segment `:file{export\.(xlsx|pdf)}` → one path per literal. */
function openApiPaths(honoPath: string): string[] {
  let paths = ['']
  for (const segment of honoPath.split('/').slice(1)) {
    const match = /^:(\w+)(?:\{(.+)\})?$/.exec(segment)
    const forms = !match ? [segment] : match[2] ? expandPattern(match[2]) : [`{${match[1]}}`]
    paths = paths.flatMap((p) => forms.map((f) => `${p}/${f}`))
  }
  return paths
}

/** (method, path) of every handler of the API, without middleware (`use`) and the catch-all. */
function realRoutes(): Set<string> {
  const out = new Set<string>()
  for (const route of createApi().routes) {
    if (route.method === 'ALL') continue
    for (const path of openApiPaths(route.path)) out.add(`${route.method} ${path}`)
  }
  return out
}

const doc = buildOpenApiDocument(apiContracts())

function documentedRoutes(): Set<string> {
  const out = new Set<string>()
  for (const [path, item] of Object.entries(doc.paths)) for (const method of Object.keys(item)) out.add(`${method.toUpperCase()} ${path}`)
  return out
}

function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined
  let node: unknown = root
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (typeof node !== 'object' || node === null || !(key in node)) return undefined
    node = (node as Record<string, unknown>)[key]
  }
  return node
}

function* refsOf(node: unknown, at = '#'): Generator<[string, string]> {
  if (Array.isArray(node)) for (const [i, v] of node.entries()) yield* refsOf(v, `${at}/${i}`)
  else if (typeof node === 'object' && node !== null)
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') yield [at, v]
      else yield* refsOf(v, `${at}/${k}`)
    }
}

type Op = {
  parameters?: JsonSchema[]
  responses: Record<string, unknown>
  security?: Array<Record<string, unknown>>
  operationId?: string
  tags?: string[]
  requestBody?: { content: Record<string, { schema?: unknown }> }
}

const deref = (p: JsonSchema): JsonSchema => (typeof p.$ref === 'string' ? (resolvePointer(doc, p.$ref) as JsonSchema) : p)

describe('the OpenAPI document', () => {
  it('documents every route of the API', () => {
    const documented = documentedRoutes()
    const missing = [...realRoutes()].filter((r) => !documented.has(r))
    expect(missing).toEqual([])
  })

  it('documents no route the API does not have', () => {
    const real = realRoutes()
    const extra = [...documentedRoutes()].filter((r) => !real.has(r))
    expect(extra).toEqual([])
  })

  it('covers at least the endpoints of docs/api.md', () => {
    expect(documentedRoutes().size).toBeGreaterThanOrEqual(43)
  })

  it('is OpenAPI 3.1 with a bearer scheme and /api/v1 as its server', () => {
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.info.title).toBeTruthy()
    expect(doc.servers).toEqual([{ url: '/api/v1' }])
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' })
  })

  it('resolves every $ref', () => {
    const broken = [...refsOf(doc)].filter(([, ref]) => resolvePointer(doc, ref) === undefined)
    expect(broken).toEqual([])
  })

  it('declares every path parameter, and only those, with required: true', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort()
      for (const [method, op] of Object.entries(item as Record<string, Op>)) {
        const params = (op.parameters ?? []).map(deref)
        const declared = params.filter((p) => p.in === 'path')
        expect([method, path, declared.map((p) => p.name).sort()]).toEqual([method, path, inPath])
        for (const p of declared) expect(p.required).toBe(true)
        for (const p of params) expect(['path', 'query', 'header', 'cookie']).toContain(p.in)
      }
    }
  })

  it('gives each operation a unique id, a known tag, known security schemes and a success response', () => {
    const ids = new Set<string>()
    const tags = new Set(doc.tags.map((t) => t.name))
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item as Record<string, Op>)) {
        expect(METHODS).toContain(method)
        expect(op.operationId).toBeTruthy()
        expect(ids.has(op.operationId ?? '')).toBe(false)
        ids.add(op.operationId ?? '')
        for (const tag of op.tags ?? []) expect(tags.has(tag)).toBe(true)
        for (const requirement of op.security ?? [])
          for (const name of Object.keys(requirement)) expect(Object.keys(doc.components.securitySchemes)).toContain(name)
        expect([path, method, Object.keys(op.responses).some((s) => /^2\d\d$/.test(s))]).toEqual([path, method, true])
        for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
          expect(['application/json', 'multipart/form-data']).toContain(type)
          expect(media.schema).toBeTruthy()
        }
      }
    }
  })

  it('answers 401 on every bearer-protected operation (404 in the operator area) and 422 wherever a body is validated', () => {
    const missing: string[] = []
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(item as Record<string, Op>)) {
        const security = op.security ?? []
        const needsToken = security.length > 0 && !security.some((s) => Object.keys(s).length === 0)
        // The operator area does not exist for anyone else, token or not: 404 there, never 401 (docs/operators.md).
        const refusal = path.startsWith('/admin/') ? '404' : '401'
        if (needsToken && !(refusal in op.responses)) missing.push(`${method} ${path}: ${refusal}`)
        const validated = op.requestBody && !path.includes('webhook')
        if (validated && !('422' in op.responses)) missing.push(`${method} ${path}: 422`)
      }
    expect(missing).toEqual([])
  })

  it('takes its request bodies from the handlers’ zod schemas', () => {
    expect(doc.components.schemas.LoginRequest).toEqual(fromZod(loginSchema))
    expect(doc.components.schemas.ExamInput).toEqual(fromZod(examSchema))
    const login = doc.paths['/auth/login']?.post as Op
    expect(login.requestBody?.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/LoginRequest' })
    expect((doc.components.schemas.RegisterRequest as { required: string[] }).required).toEqual(
      expect.arrayContaining(['username', 'email', 'phone', 'password', 'password_confirmation', 'terms']),
    )
    const upload = doc.paths['/analyses/absence']?.post as Op
    expect(Object.keys(upload.requestBody?.content ?? {})).toEqual(['multipart/form-data'])
  })

  it('takes its answers’ shapes from the routes’ wire shapes: each named one with the zod schema’s fields, strict', () => {
    const named = namedWireShapes()
    expect(named.length).toBeGreaterThanOrEqual(20)
    for (const { schema, meta } of named) {
      const component = doc.components.schemas[meta.id] as JsonSchema
      expect([meta.id, component]).toEqual([meta.id, expect.anything()])
      const shape = (schema as { shape?: Record<string, unknown> }).shape
      if (!shape || meta.io === 'input') continue // the unions (Question, Analysis): checked through their members
      expect([meta.id, Object.keys(component.properties as object).sort()]).toEqual([meta.id, Object.keys(shape).sort()])
      expect([meta.id, component.additionalProperties]).toEqual([meta.id, false])
    }
    expect((doc.components.schemas.Analysis as JsonSchema).oneOf).toEqual([
      { $ref: '#/components/schemas/AbsenceAnalysis' },
      { $ref: '#/components/schemas/GradesAnalysis' },
    ])
  })

  it('answers JSON as {message, data} on success and documents a body for every status', () => {
    const problems: string[] = []
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(item as Record<string, Op>))
        for (const [status, raw] of Object.entries(op.responses)) {
          const content = (deref(raw as JsonSchema) as { content?: Record<string, { schema?: JsonSchema }> }).content ?? {}
          const schema = content['application/json']?.schema
          const where = `${method} ${path} ${status}`
          // Files and pages only on success; everything else is JSON with a schema.
          if (!content['application/json']) {
            if (!status.startsWith('2') || Object.keys(content).length === 0) problems.push(`${where}: no body`)
          } else if (!schema) problems.push(`${where}: no schema`)
          else if (status.startsWith('2') && path !== '/openapi.json' && String(schema.required) !== 'message,data')
            problems.push(`${where}: not {message, data}`)
        }
    expect(problems).toEqual([])
  })

  it('is plain JSON (survives a round trip unchanged)', () => {
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc)
  })
})

describe('GET /api/v1/openapi.json and /api/v1/docs', () => {
  const api = createApi()

  it('serves the document without a token', async () => {
    const res = await api.request('/openapi.json')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await res.json()).toEqual(doc)
  })

  it('serves a self-contained, readable reference page', async () => {
    const res = await api.request('/docs')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    const html = await res.text()
    expect(html).toMatch(/^<!doctype html>\s*<html lang="en" dir="ltr">/)
    expect(html).toContain('<title>')
    expect(html).toContain('<main id="content">')
    expect(html).not.toMatch(/<script|<link |https?:\/\/[^"]*\.(js|css)/)
    for (const route of documentedRoutes()) {
      const [method, path] = route.split(' ')
      expect(html).toContain(`<span class="method">${method?.toLowerCase()}</span> <code>${path}</code>`)
    }
  })

  it('renders ids that are unique, one h1, and tables with header cells', () => {
    const html = renderDocsHtml(apiContracts(), doc)
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1])
    expect(ids.length).toBe(new Set(ids).size)
    for (const [, target] of html.matchAll(/href="#([^"]+)"/g)) expect(ids).toContain(target)
    expect(html.match(/<h1[ >]/g)).toHaveLength(1)
    const tables = html.match(/<table>/g)?.length ?? 0
    expect(html.match(/<thead>/g)?.length).toBe(tables)
  })
})

describe('through the whole HTTP app', () => {
  // Checked against the document like every API answer: openapi.json and docs are operations too.
  let app: ReturnType<typeof apiTestApp>
  setupTestDatabase(async (database) => {
    app = apiTestApp(testServices(database))
  })

  it('answers /api/v1/openapi.json as JSON and /api/v1/docs as HTML the CSP allows (no script at all)', async () => {
    const json = await app.request('/api/v1/openapi.json')
    expect(json.status).toBe(200)
    expect(json.headers.get('content-type')).toMatch(/^application\/json/)
    expect(((await json.json()) as { openapi: string }).openapi).toBe('3.1.0')
    const page = await app.request('/api/v1/docs')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("style-src 'self' 'unsafe-inline'")
    expect(await page.text()).not.toContain('<script')
  })
})
