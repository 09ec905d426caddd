import { namedWireShapes } from '#app/lib/wire.server.ts'
import { z } from '#app/lib/zod.ts'
import { createRoutes, fromZod, type Auth, type Contract, type ErrorStatus, type JsonSchema } from './contract.ts'
import { renderDocsHtml } from './docs-page.ts'

// The OpenAPI 3.1 document of /api/v1, built from the route files' contracts: each operation
// from its contract, request bodies from the zod schemas the routes parse with, answers from the
// shapes they are typed against (app/lib/wire.ts: a named shape is a component, referenced where
// it is used). openapi.test.ts checks that every route is here and every entry here is a route;
// the API tests check every answer they get against this document (tests/api-conformance.ts).

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` })
const componentUri = (name: string) => `#/components/schemas/${name}`

const errorResponses: Record<ErrorStatus, { name: string; description: string; schema: string; retryAfter?: boolean }> = {
  401: { name: 'Unauthorized', description: 'No token, or a bad or expired one (or a wrong password)', schema: 'Error' },
  403: {
    name: 'Forbidden',
    description: 'Not allowed: not activated, no subscription, or an operator without two-step verification (the message says which)',
    schema: 'Error',
  },
  404: { name: 'NotFound', description: 'No such record, or another user’s', schema: 'Error' },
  409: { name: 'Conflict', description: 'A state conflict (already subscribed, already taken)', schema: 'Error' },
  413: { name: 'TooLarge', description: 'The body or file is over the limit', schema: 'Error' },
  422: { name: 'ValidationFailed', description: 'The request did not validate', schema: 'ValidationError' },
  429: { name: 'TooManyRequests', description: 'Rate-limited; retry after `Retry-After` seconds', schema: 'Error', retryAfter: true },
  503: { name: 'Unavailable', description: 'A service behind this one is busy or down; try again later', schema: 'Error' },
}

const OPERATOR_ONLY =
  'Operators only, with two-step verification on (403 without it); anyone else, with a token or without, gets 404 (docs/operators.md).'
const authErrors: Record<Auth, ErrorStatus[]> = {
  none: [],
  optional: [],
  webhook: [],
  bearer: [401],
  subscriber: [401, 403],
  operator: [403, 404],
}
const authSecurity: Record<Auth, unknown[]> = {
  none: [],
  webhook: [],
  optional: [{}, { bearer: [] }],
  bearer: [{ bearer: [] }],
  subscriber: [{ bearer: [] }],
  operator: [{ bearer: [] }],
}

/** The `{message, data}` of a JSON answer. */
const envelope = (data: z.core.$ZodType = z.null()) => z.object({ message: z.string(), data })

/**
 * The named shapes and the answers of the operations, converted together so that a named shape
 * inside an answer becomes a $ref to its component. A shape documented from its input side
 * (`io: 'input'`) is converted on its own and put in its place.
 */
function responseSchemas(bodies: z.core.$ZodType[]): { components: Record<string, JsonSchema>; bodies: JsonSchema[] } {
  const registry = z.registry<{ id: string }>()
  const named = namedWireShapes()
  for (const { schema, meta } of named) registry.add(schema, { id: meta.id })
  const bodyIds = bodies.map((schema, i) => {
    registry.add(schema, { id: `body-${i}` })
    return `body-${i}`
  })
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', io: 'output', uri: componentUri, unrepresentable: 'any' })
  // Each comes with its own $schema and an $id of its URI: the document's dialect says the first, the place the second.
  const bare = (name: string): JsonSchema => {
    const { $schema: _dialect, $id: _id, ...schema } = (schemas[name] ?? {}) as JsonSchema
    return schema
  }
  return {
    components: Object.fromEntries(
      named.map(({ schema, meta }) => [meta.id, meta.io === 'input' ? fromZod(schema, 'input') : bare(meta.id)]),
    ),
    bodies: bodyIds.map(bare),
  }
}

/** Request bodies: their named schemas (components) and each operation's content. */
function requestBody(contract: Contract, requests: Record<string, JsonSchema>): JsonSchema | undefined {
  const body = contract.body
  if (!body) return undefined
  const named = (name: string | undefined, schema: z.core.$ZodType): JsonSchema => {
    if (!name) return fromZod(schema)
    requests[name] = fromZod(schema)
    return ref(name)
  }
  let content: JsonSchema
  if (body.kind === 'json') content = { 'application/json': { schema: named(body.name, body.schema) } }
  else if (body.kind === 'json-one-of')
    content = { 'application/json': { schema: { oneOf: body.schemas.map((s) => named(s.name, s.schema)) } } }
  else if (body.kind === 'json-or-multipart')
    content = { 'application/json': { schema: named(body.name, body.json) }, 'multipart/form-data': { schema: body.multipart } }
  else if (body.kind === 'multipart') content = { 'multipart/form-data': { schema: body.schema } }
  else content = { 'application/json': { schema: body.schema } }
  return { required: true, content }
}

const idOf = (what: string) => `The ${what}'s id`

function operationObject(op: Contract, successBody: JsonSchema | undefined, requests: Record<string, JsonSchema>): JsonSchema {
  const params: JsonSchema[] = [...op.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    description:
      name === 'gateway'
        ? 'The gateway’s name'
        : // In the operator area the record is named by the segment before its id (/admin/teachers/{id}).
          idOf(op.path.split('/')[op.path.startsWith('/admin/') ? 2 : 1]?.replace(/s$/, '') ?? 'record'),
    schema: { type: 'string' },
  }))
  for (const q of op.query ?? [])
    params.push({ name: q.name, in: 'query', required: q.required ?? false, description: q.description, schema: q.schema })
  params.push({ $ref: '#/components/parameters/AcceptLanguage' })

  const ok = op.status ?? 200
  let success: JsonSchema
  if (op.raw) success = { description: op.summary, content: { [op.raw.type]: op.raw.schema ? { schema: op.raw.schema } : {} } }
  else if (op.file)
    success = {
      description: 'The file',
      content: Object.fromEntries(op.file.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
    }
  else success = { description: 'Done', content: { 'application/json': { schema: successBody } } }

  const responses: Record<string, JsonSchema> = { [ok]: success }
  // Every body is read under a size limit (64 KB for JSON, more for uploads): 413 above it.
  const bodyErrors: ErrorStatus[] = op.body ? [413] : []
  const statuses = [...new Set([...authErrors[op.auth], ...bodyErrors, ...(op.errors ?? [])])].sort((a, b) => a - b)
  for (const status of statuses) {
    const isRefusedWorkbook = status === 422 && op.tag === 'Analyses' && op.method === 'post'
    responses[status] = isRefusedWorkbook
      ? {
          description: 'The workbook was refused (no file, missing columns, no rows)',
          content: { 'application/json': { schema: ref('AnalysisError') } },
        }
      : { $ref: `#/components/responses/${errorResponses[status].name}` }
  }
  responses['500'] = { $ref: '#/components/responses/Unexpected' }

  const out: JsonSchema = {
    tags: [op.tag],
    summary: op.summary,
    operationId: `${op.method}${op.path.replace(/[{}]/g, '').replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
    security: authSecurity[op.auth],
    parameters: params,
    responses,
  }
  const description = [
    op.description,
    op.auth === 'subscriber' ? 'Needs an active subscription.' : op.auth === 'operator' ? OPERATOR_ONLY : '',
  ]
    .filter(Boolean)
    .join(' ')
  if (description) out.description = description
  const body = requestBody(op, requests)
  if (body) out.requestBody = body
  return out
}

export function buildOpenApiDocument(contracts: readonly Contract[]) {
  // The `{message, data}` of each operation that answers JSON, converted with the named shapes.
  const enveloped = contracts.filter((op) => !op.raw && !op.file)
  const converted = responseSchemas(enveloped.map((op) => envelope(op.data)))
  const bodyOf = new Map(enveloped.map((op, i) => [op, converted.bodies[i]]))
  const requests: Record<string, JsonSchema> = {}
  const paths: Record<string, Record<string, JsonSchema>> = {}
  for (const op of contracts) (paths[op.path] ??= {})[op.method] = operationObject(op, bodyOf.get(op), requests)
  const responses: Record<string, JsonSchema> = {}
  for (const e of Object.values(errorResponses)) {
    responses[e.name] = {
      description: e.description,
      ...(e.retryAfter
        ? { headers: { 'Retry-After': { description: 'Seconds to wait', required: true, schema: { type: 'integer', minimum: 1 } } } }
        : {}),
      content: { 'application/json': { schema: ref(e.schema) } },
    }
  }
  responses.Unexpected = { description: 'An unexpected error (no detail)', content: { 'application/json': { schema: ref('Message') } } }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Hallil API',
      version: '1.0.0',
      description:
        'The REST API of Hallil. JSON in and out (uploads are multipart, files are PDF or xlsx). Success is `{message, data}`; a validation failure is 422 `{message, errors}`. `Accept-Language: ar` or `en` picks the language of every message (default `ar`). Field names are snake_case (`created_at`), except in an analysis, whose report keeps the camelCase of its figures (`attendanceRate`, `byClassroom`).',
    },
    servers: [{ url: '/api/v1' }],
    tags: [...new Set(contracts.map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'The token from auth/login or auth/activate' } },
      parameters: {
        AcceptLanguage: {
          name: 'Accept-Language',
          in: 'header',
          required: false,
          description: 'The language of the messages',
          schema: { type: 'string', enum: ['ar', 'en'], default: 'ar' },
        },
      },
      schemas: { ...converted.components, ...requests },
      responses,
    },
  }
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>

/**
 * GET /openapi.json and GET /docs, without authentication, built once from `contracts()` (the
 * API's routes, these two included).
 */
export function openApiRoutes(contracts: () => readonly Contract[]) {
  const routes = createRoutes()
  let doc: OpenApiDocument | undefined
  let html: string | undefined
  const document = () => (doc ??= buildOpenApiDocument(contracts()))
  routes.fileRoute(
    {
      method: 'get',
      path: '/openapi.json',
      tag: 'Reference',
      summary: 'This OpenAPI document',
      auth: 'none',
      raw: { type: 'application/json', schema: { type: 'object' } },
    },
    async (c) => c.json(document()),
  )
  routes.fileRoute(
    { method: 'get', path: '/docs', tag: 'Reference', summary: 'This reference as an HTML page', auth: 'none', raw: { type: 'text/html' } },
    async (c) => c.html((html ??= renderDocsHtml(contracts(), document()))),
  )
  return routes
}
