import { appendFileSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { apiContracts } from '#server/http/api/index.ts'
import { buildOpenApiDocument } from '#server/http/api/openapi.ts'

// Every answer the API tests receive, checked against the OpenAPI document the API serves: the
// path and method must be documented, the status listed for them, the content type among the
// ones listed, a JSON body valid against the listed schema and a required header present.
// Wrap the app once (`app = checkedApp(createHttpApp(…))`) and every `app.request` is checked.
//
// Set API_CONFORMANCE_LOG=<file> to have each conforming answer appended to it as a JSON line;
// scripts/api-conformance-summary.js counts them and lists what no test reached.

type JsonObject = { [key: string]: unknown }
type ResponseObject = { description?: string; headers?: Record<string, JsonObject>; content?: Record<string, { schema?: JsonObject }> }
type OpenApi = {
  servers?: { url: string }[]
  paths: Record<string, Record<string, { responses: Record<string, JsonObject> }>>
  components?: JsonObject
}

export type Answer = { method: string; url: string; status: number; headers: Headers; body: string }
/** What one check found: the operation (`GET /exams/{id}`) and status, or what is wrong. */
export type Verdict = { operation: string; status: number; problems: string[] }

const DOC_ID = 'openapi.json'
const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1')

function resolvePointer(root: unknown, pointer: string): unknown {
  let node = root
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (typeof node !== 'object' || node === null || !(key in node)) return undefined
    node = (node as JsonObject)[key]
  }
  return node
}

function describeError(e: ErrorObject): string {
  const where = e.instancePath || '(the body)'
  const extra =
    e.keyword === 'additionalProperties'
      ? ` (${String(e.params.additionalProperty)})`
      : e.keyword === 'enum'
        ? ` ${JSON.stringify(e.params.allowedValues)}`
        : ''
  return `${where} ${e.message ?? e.keyword}${extra}`
}

/** A checker for one OpenAPI 3.1 document (the parsed JSON the API serves). */
export function createConformanceChecker(document: unknown) {
  const doc = document as OpenApi
  const base = doc.servers?.[0]?.url ?? ''
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false })
  addFormats(ajv)
  ajv.addFormat('binary', true)
  // The whole document under one id: a response schema is compiled as a $ref to its place in it,
  // so its own `#/components/schemas/…` references resolve against the document.
  ajv.addSchema(doc as JsonObject, DOC_ID)
  const compiled = new Map<string, ValidateFunction>()
  const validatorAt = (pointer: string) => {
    let v = compiled.get(pointer)
    if (!v) compiled.set(pointer, (v = ajv.compile({ $ref: `${DOC_ID}#${pointer}` })))
    return v
  }

  // Concrete paths before templated ones (OpenAPI's rule), then the one with more fixed segments.
  const templates = Object.keys(doc.paths)
    .map((path) => {
      const segments = path.split('/')
      const regex = new RegExp(
        `^${segments.map((s) => (/^\{[^}]+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('/')}$`,
      )
      return { path, regex, fixed: segments.filter((s) => !s.startsWith('{')).length }
    })
    .sort((a, b) => b.fixed - a.fixed)

  /** The documented operation for a method and a path under the server's URL, or null. */
  function findOperation(method: string, path: string): { path: string; pointer: string } | null {
    for (const t of templates) {
      if (!t.regex.test(path)) continue
      if (doc.paths[t.path]?.[method]) return { path: t.path, pointer: `/paths/${escapePointer(t.path)}/${method}` }
    }
    return null
  }

  /** The response object for a status (its $ref followed) and where it lives in the document. */
  function findResponse(operationPointer: string, status: number): { response: ResponseObject; pointer: string } | null {
    const responses = resolvePointer(doc, `${operationPointer}/responses`) as Record<string, JsonObject>
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in responses)
    if (!key) return null
    let pointer = `${operationPointer}/responses/${key}`
    let response = responses[key] as JsonObject
    while (typeof response.$ref === 'string') {
      pointer = response.$ref.slice(1)
      response = resolvePointer(doc, pointer) as JsonObject
    }
    return { response: response as ResponseObject, pointer }
  }

  function checkBody(answer: Answer, found: { response: ResponseObject; pointer: string }): string[] {
    const problems: string[] = []
    const { response, pointer } = found
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      const value = answer.headers.get(name)
      if (value === null) {
        if (header.required) problems.push(`the header ${name} is missing`)
        continue
      }
      const schema = header.schema as JsonObject | undefined
      if (schema?.type === 'integer' && (!/^\d+$/.test(value) || Number(value) < Number(schema.minimum ?? -Infinity)))
        problems.push(`the header ${name} is ${JSON.stringify(value)}, not an integer as documented`)
    }
    const content = response.content ?? {}
    const type = answer.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? ''
    if (Object.keys(content).length === 0) {
      if (answer.body !== '') problems.push(`a body of ${type || 'no type'} where the document lists none`)
      return problems
    }
    const media = content[type]
    if (!media) return [...problems, `the content type is ${JSON.stringify(type)}, not one of ${Object.keys(content).join(', ')}`]
    if (!/^application\/(.+\+)?json$/.test(type) || !media.schema) return problems
    let body: unknown
    try {
      body = JSON.parse(answer.body)
    } catch {
      return [...problems, `the body is not JSON: ${answer.body.slice(0, 200)}`]
    }
    const validate = validatorAt(`${pointer}/content/${escapePointer(type)}/schema`)
    if (!validate(body)) {
      const errors = (validate.errors ?? []).slice(0, 8).map(describeError)
      problems.push(
        `the body does not match the documented schema:\n  - ${errors.join('\n  - ')}\n  body: ${JSON.stringify(body).slice(0, 600)}`,
      )
    }
    return problems
  }

  return {
    /** Null for a URL outside the API (the server's URL); else the verdict on this answer. */
    check(answer: Answer): Verdict | null {
      const path = new URL(answer.url, 'http://localhost').pathname
      if (!path.startsWith(`${base}/`)) return null
      const method = answer.method.toLowerCase() === 'head' ? 'get' : answer.method.toLowerCase()
      const op = findOperation(method, path.slice(base.length))
      if (!op) {
        // The API's catch-all: an undocumented path or method is answered NotFound.
        const notFound = {
          response: resolvePointer(doc, '/components/responses/NotFound') as ResponseObject,
          pointer: '/components/responses/NotFound',
        }
        const operation = `${method.toUpperCase()} ${path} (undocumented)`
        if (answer.status !== 404)
          return {
            operation,
            status: answer.status,
            problems: [`${answer.method} ${path} is not in the document, yet answered ${answer.status}`],
          }
        return { operation, status: answer.status, problems: checkBody(answer, notFound) }
      }
      const operation = `${method.toUpperCase()} ${op.path}`
      const found = findResponse(op.pointer, answer.status)
      if (!found) {
        const listed = Object.keys((resolvePointer(doc, `${op.pointer}/responses`) ?? {}) as JsonObject).join(', ')
        return {
          operation,
          status: answer.status,
          problems: [`${answer.status} is not a documented answer of ${operation} (documented: ${listed})`],
        }
      }
      return { operation, status: answer.status, problems: answer.method.toLowerCase() === 'head' ? [] : checkBody(answer, found) }
    },
  }
}

export class ConformanceError extends Error {
  override name = 'ConformanceError'
}

let shared: ReturnType<typeof createConformanceChecker> | undefined
/** The checker of the document /api/v1/openapi.json serves (as JSON, exactly as served). */
export function apiConformance() {
  return (shared ??= createConformanceChecker(JSON.parse(JSON.stringify(buildOpenApiDocument(apiContracts())))))
}

/** Throws a ConformanceError saying what is wrong; appends a conforming answer to API_CONFORMANCE_LOG when set. */
export function assertConforms(answer: Answer, checker = apiConformance()): void {
  const verdict = checker.check(answer)
  if (!verdict) return
  // A failure fails its test; the log counts what passed (the check's own tests fail answers on purpose).
  if (verdict.problems.length)
    throw new ConformanceError(
      `${answer.method} ${answer.url} → ${answer.status}: the answer is not what the OpenAPI document says:\n${verdict.problems.join('\n')}`,
    )
  const log = process.env.API_CONFORMANCE_LOG
  if (log) {
    mkdirSync(dirname(log), { recursive: true })
    appendFileSync(log, `${JSON.stringify({ operation: verdict.operation, status: verdict.status })}\n`)
  }
}

type RequestFn = (input: string | Request | URL, init?: RequestInit, ...rest: never[]) => Response | Promise<Response>

/** The app, its `request` checking every answer of the API against the document before handing it back. */
export function checkedApp<A extends { request: RequestFn }>(app: A, checker = apiConformance()): A {
  const request = async (input: string | Request | URL, init?: RequestInit, ...rest: never[]) => {
    const res = await app.request(input, init, ...rest)
    const url = input instanceof Request ? input.url : String(input)
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET')
    const type = res.headers.get('content-type') ?? ''
    // Files (PDF, xlsx, images) are checked by their type alone, so only JSON and text bodies are read.
    const body = /json|^text\//.test(type) || !type ? await res.clone().text() : ''
    assertConforms({ method, url, status: res.status, headers: res.headers, body }, checker)
    return res
  }
  return new Proxy(app, { get: (target, key, receiver) => (key === 'request' ? request : Reflect.get(target, key, receiver)) })
}
