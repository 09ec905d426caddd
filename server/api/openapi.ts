import { Hono } from 'hono'
import { z } from '#app/lib/zod.ts'
import {
  activateSchema,
  changeEmailSchema,
  changePasswordSchema,
  confirmCodeSchema,
  forgotPasswordSchema,
  loginSchema,
  profileSchema,
  registerSchema,
  resendSchema,
  resetPasswordSchema,
  reviewSchema,
  twoFactorLoginSchema,
  verifyResetCodeSchema,
} from '#app/features/accounts/schemas.ts'
import { subscribeSchema } from '#app/features/billing/schemas.ts'
import { contactSchema } from '#app/features/content/schemas.ts'
import { examSchema, pdfOptionsSchema } from '#app/features/exams/schemas.ts'
import * as R from './responses.ts'
import type { ApiEnv } from './types.ts'

// The OpenAPI 3.1 document of /api/v1 (api.md) and a server-rendered reference page of it (no
// scripts: the CSP). Request bodies are generated from the zod schemas the handlers parse with,
// responses from the zod schemas of responses.ts. openapi.test.ts checks that every route of
// createApi() is here and every entry here is a route; the API tests check every answer they get
// against this document (tests/api-conformance.ts).

export type JsonSchema = { [key: string]: unknown }
type Auth = 'none' | 'optional' | 'bearer' | 'subscriber' | 'webhook'
type ErrorStatus = 401 | 403 | 404 | 409 | 413 | 422 | 429 | 503
type Body = { kind: 'json'; schema: JsonSchema } | { kind: 'multipart'; schema: JsonSchema } | { kind: 'json-or-multipart'; json: JsonSchema; multipart: JsonSchema }
type Query = { name: string; description: string; schema: JsonSchema; required?: boolean }

interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete'
  /** OpenAPI form: `/exams/{id}`. */
  path: string
  tag: string
  summary: string
  description?: string
  auth: Auth
  body?: Body
  query?: Query[]
  status?: 200 | 201
  /** The JSON `data` of the envelope; undefined for `null`. */
  data?: z.ZodType
  /** A file answer instead of the JSON envelope. */
  file?: string[]
  /** A raw JSON answer (the document itself). */
  raw?: { type: string; schema?: JsonSchema }
  errors?: ErrorStatus[]
}

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` })
const str = (description?: string, extra: JsonSchema = {}): JsonSchema => ({ type: 'string', ...(description ? { description } : {}), ...extra })
const object = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties), extra: JsonSchema = {}): JsonSchema => ({
  type: 'object',
  properties,
  required,
  ...extra,
})

/** What a client sends: the zod schema's input side, as JSON Schema 2020-12 (OpenAPI 3.1's dialect). */
export function fromZod(schema: z.core.$ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema
  return json
}

const binary = (description: string): JsonSchema => ({ type: 'string', format: 'binary', description })
const withAvatar = (schema: JsonSchema): JsonSchema => ({
  ...schema,
  properties: { ...(schema.properties as Record<string, JsonSchema>), avatar: binary('A profile picture (PNG, JPEG or WebP, up to 2 MB)') },
})

/** The request bodies, straight from the handlers' zod schemas. */
function requestSchemas(): Record<string, JsonSchema> {
  return {
    LoginRequest: fromZod(loginSchema),
    RegisterRequest: fromZod(registerSchema),
    ActivateRequest: fromZod(activateSchema),
    ResendCodeRequest: fromZod(resendSchema),
    ForgotPasswordRequest: fromZod(forgotPasswordSchema),
    VerifyCodeRequest: fromZod(verifyResetCodeSchema),
    ResetPasswordRequest: fromZod(resetPasswordSchema),
    ProfileRequest: fromZod(profileSchema),
    ChangePasswordRequest: fromZod(changePasswordSchema),
    ChangeEmailRequest: fromZod(changeEmailSchema),
    ConfirmCodeRequest: fromZod(confirmCodeSchema),
    ReviewRequest: fromZod(reviewSchema),
    SubscribeRequest: fromZod(subscribeSchema),
    ContactRequest: fromZod(contactSchema),
    ExamInput: fromZod(examSchema),
  }
}

const componentUri = (name: string) => `#/components/schemas/${name}`

/**
 * The response schemas, from responses.ts: its named schemas for components/schemas and each
 * operation's success body, converted together so that a named schema inside a body becomes a
 * $ref to its component. (z.toJSONSchema of a registry converts every schema in it.)
 */
function responseSchemas(bodies: z.ZodType[]): { components: Record<string, JsonSchema>; bodies: JsonSchema[] } {
  const registry = z.registry<{ id: string }>()
  for (const [name, schema] of Object.entries(R.responseComponents)) registry.add(schema, { id: name })
  const bodyIds = bodies.map((schema, i) => {
    registry.add(schema, { id: `body-${i}` })
    return `body-${i}`
  })
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', io: 'output', uri: componentUri })
  // Each comes with its own $schema and an $id of its URI: the document's dialect says the first, the place the second.
  const bare = (name: string): JsonSchema => {
    const { $schema: _dialect, $id: _id, ...schema } = (schemas[name] ?? {}) as JsonSchema
    return schema
  }
  return {
    components: Object.fromEntries(Object.keys(R.responseComponents).map((name) => [name, bare(name)])),
    bodies: bodyIds.map(bare),
  }
}

const json = (name: string): Body => ({ kind: 'json', schema: ref(name) })
const PDF = ['application/pdf']
const XLSX = ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']
const workbook = binary('The file exported from Noor, or the sample filled in: .xlsx, .xls or .csv')
const idOf = (what: string) => `The ${what}'s id`

const pdfQuery: Query[] = Object.entries((fromZod(pdfOptionsSchema).properties ?? {}) as Record<string, JsonSchema>).map(([name, schema]) => ({
  name,
  schema,
  description:
    { answers: '`1` for the answer key', versions: 'Shuffled versions (2–4), each followed by its key', seed: 'Reshuffles the versions' }[name] ?? name,
}))

export const operations: Operation[] = [
  // auth
  {
    method: 'post',
    path: '/auth/login',
    tag: 'Auth',
    summary: 'Sign in',
    description: 'With two-step verification on, no token yet: `{two_factor_required: true, two_factor_token}`, for auth/login/two-factor.',
    auth: 'none',
    body: json('LoginRequest'),
    data: z.union([
      z.object({ token: z.string().describe('The bearer token'), user: R.user }),
      z.object({ two_factor_required: z.literal(true), two_factor_token: z.string().describe('For auth/login/two-factor, ten minutes') }),
    ]),
    errors: [401, 403, 422, 429],
  },
  {
    method: 'post',
    path: '/auth/login/two-factor',
    tag: 'Auth',
    summary: 'Finish signing in with the second factor',
    description: 'For an account with two-step verification on, auth/login answers `{two_factor_required: true, two_factor_token}` instead of a token; this takes that token and a code from the authenticator app (or a recovery code). Five wrong codes end the token.',
    auth: 'none',
    body: { kind: 'json', schema: fromZod(twoFactorLoginSchema) },
    data: z.object({ token: z.string().describe('The bearer token'), user: R.user }),
    errors: [422, 429],
  },
  {
    method: 'post',
    path: '/auth/register',
    tag: 'Auth',
    summary: 'Create an account',
    description: 'An activation code is emailed. JSON, or a form carrying an optional `avatar` file.',
    auth: 'none',
    body: { kind: 'json-or-multipart', json: ref('RegisterRequest'), multipart: withAvatar(fromZod(registerSchema)) },
    status: 201,
    data: z.object({ user: R.user }),
    errors: [413, 422, 429],
  },
  { method: 'post', path: '/auth/logout', tag: 'Auth', summary: 'Revoke this token', auth: 'bearer' },
  { method: 'get', path: '/auth/profile', tag: 'Auth', summary: 'The signed-in user', auth: 'bearer', data: z.object({ user: R.user }) },
  {
    method: 'patch',
    path: '/auth/profile',
    tag: 'Auth',
    summary: 'Change the username, phone or picture',
    auth: 'bearer',
    body: { kind: 'json-or-multipart', json: ref('ProfileRequest'), multipart: withAvatar(fromZod(profileSchema)) },
    data: z.object({ user: R.user }),
    errors: [413, 422],
  },
  { method: 'post', path: '/auth/activate', tag: 'Auth', summary: 'Activate an account with the emailed code', auth: 'none', body: json('ActivateRequest'), data: z.object({ token: z.string(), user: R.user }), errors: [409, 422, 429] },
  {
    method: 'post',
    path: '/auth/resend-code',
    tag: 'Auth',
    summary: 'Email a code again',
    description: '`change_email` and `change_password` need the owner’s token; one request a minute.',
    auth: 'optional',
    body: json('ResendCodeRequest'),
    errors: [422, 429],
  },
  {
    method: 'post',
    path: '/auth/forgot-password',
    tag: 'Auth',
    summary: 'Start a password reset',
    description: 'The same answer whether or not the email exists.',
    auth: 'none',
    body: json('ForgotPasswordRequest'),
    data: z.object({ temporary_token: z.string().describe('Lives one hour') }),
    errors: [422, 429],
  },
  { method: 'post', path: '/auth/verify-code', tag: 'Auth', summary: 'Check the reset code', auth: 'none', body: json('VerifyCodeRequest'), data: z.object({ temporary_token: z.string() }), errors: [422, 429] },
  { method: 'post', path: '/auth/reset-password', tag: 'Auth', summary: 'Set a new password', auth: 'none', body: json('ResetPasswordRequest'), errors: [422, 429] },
  {
    method: 'post',
    path: '/auth/change-password',
    tag: 'Auth',
    summary: 'Change the password (two steps)',
    description: 'Step 1 emails a code; step 2 (`{code}`) applies it, ends every session and answers a new token.',
    auth: 'bearer',
    body: { kind: 'json', schema: { oneOf: [ref('ChangePasswordRequest'), ref('ConfirmCodeRequest')] } },
    data: z.object({ token: z.string().describe('Step 2: a new token (every other session ends)') }).nullable(),
    errors: [422, 429],
  },
  {
    method: 'post',
    path: '/auth/change-email',
    tag: 'Auth',
    summary: 'Change the email (two steps)',
    description: 'Step 1 emails a code to the new address; step 2 (`{code}`) applies it.',
    auth: 'bearer',
    body: { kind: 'json', schema: { oneOf: [ref('ChangeEmailRequest'), ref('ConfirmCodeRequest')] } },
    data: z.object({ user: R.user }).nullable(),
    errors: [422, 429],
  },
  // account
  { method: 'get', path: '/notifications', tag: 'Notifications and reviews', summary: 'The user’s notifications', auth: 'bearer', data: z.array(R.notification) },
  { method: 'post', path: '/notifications/read-all', tag: 'Notifications and reviews', summary: 'Mark every notification read', auth: 'bearer' },
  { method: 'post', path: '/notifications/{id}/read', tag: 'Notifications and reviews', summary: 'Mark one notification read', auth: 'bearer', errors: [404] },
  { method: 'get', path: '/reviews', tag: 'Notifications and reviews', summary: 'Approved reviews', auth: 'none', data: z.array(R.review) },
  {
    method: 'post',
    path: '/reviews',
    tag: 'Notifications and reviews',
    summary: 'Leave a review (shown once approved)',
    auth: 'bearer',
    body: json('ReviewRequest'),
    status: 201,
    data: R.reviewReceived,
    errors: [422],
  },
  // content
  { method: 'get', path: '/packages', tag: 'Packages and contact', summary: 'The subscription packages', auth: 'none', data: z.array(R.packageJson) },
  { method: 'post', path: '/contact', tag: 'Packages and contact', summary: 'Send a message to the team', auth: 'none', body: json('ContactRequest'), status: 201, errors: [413, 422, 429] },
  // billing
  {
    method: 'post',
    path: '/subscriptions',
    tag: 'Billing',
    summary: 'Subscribe: start a payment',
    auth: 'bearer',
    body: json('SubscribeRequest'),
    status: 201,
    data: R.checkout,
    errors: [404, 409, 422, 503],
  },
  {
    method: 'get',
    path: '/subscriptions',
    tag: 'Billing',
    summary: 'The user’s subscriptions',
    auth: 'bearer',
    query: [{ name: 'status', description: 'Only current or only expired ones', schema: { type: 'string', enum: ['current', 'expired'] } }],
    data: z.array(R.subscription),
  },
  { method: 'get', path: '/invoices', tag: 'Billing', summary: 'The user’s tax invoices', auth: 'bearer', data: z.array(R.invoice) },
  { method: 'get', path: '/invoices/{id}', tag: 'Billing', summary: 'One tax invoice', auth: 'bearer', data: R.invoice, errors: [404] },
  { method: 'get', path: '/invoices/{id}/pdf', tag: 'Billing', summary: 'A tax invoice as PDF', auth: 'bearer', file: PDF, errors: [404, 429] },
  {
    method: 'post',
    path: '/payments/webhook/{gateway}',
    tag: 'Billing',
    summary: 'A payment gateway’s webhook',
    description: 'For the gateway only: verified by its signature, not a bearer token.',
    auth: 'webhook',
    body: { kind: 'json', schema: { type: 'object', description: 'The gateway’s own event' } },
    data: z.object({ status: z.string() }),
    errors: [401, 404, 503],
  },
  // analyses
  {
    method: 'post',
    path: '/analyses/absence',
    tag: 'Analyses',
    summary: 'Analyse an absence workbook',
    description:
      'The sample’s daily records or Noor’s absence report with per-student totals (.xlsx, .xls or .csv). A totals file needs the school days of its period: from the period in its title block, or `school_days` (a 422 asks for it when the file gives neither).',
    auth: 'subscriber',
    body: {
      kind: 'multipart',
      schema: object({ file: workbook, school_days: { type: 'integer', minimum: 1, maximum: 366, description: 'Totals files: the school days the totals cover' } }, ['file']),
    },
    status: 201,
    data: R.analysis,
    errors: [413, 422, 429, 503],
  },
  {
    method: 'post',
    path: '/analyses/grades',
    tag: 'Analyses',
    summary: 'Analyse a grades workbook',
    auth: 'subscriber',
    body: {
      kind: 'multipart',
      schema: object({ file: workbook, bands: str('A preset (`default`, `elementary`) or a JSON list of `{key, min}`') }, ['file']),
    },
    status: 201,
    data: R.analysis,
    errors: [413, 422, 429, 503],
  },
  { method: 'get', path: '/analyses', tag: 'Analyses', summary: 'The user’s analyses', auth: 'subscriber', data: z.array(R.analysisSummary) },
  {
    method: 'get',
    path: '/analyses/{id}',
    tag: 'Analyses',
    summary: 'One analysis',
    auth: 'subscriber',
    query: [{ name: 'school_days', description: 'Absence totals: recompute the figures for this many school days (1–366)', schema: { type: 'integer' } }],
    data: R.analysis,
    errors: [404],
  },
  {
    method: 'get',
    path: '/analyses/{id}/students',
    tag: 'Analyses',
    summary: 'Search an absence analysis’s students',
    auth: 'subscriber',
    query: [{ name: 'q', description: 'The first three or more words of a name', schema: { type: 'string' } }],
    data: z.array(R.student),
    errors: [404, 422],
  },
  { method: 'get', path: '/analyses/{id}/export.xlsx', tag: 'Analyses', summary: 'An analysis as a workbook', auth: 'subscriber', file: XLSX, errors: [404, 429] },
  { method: 'get', path: '/analyses/{id}/export.pdf', tag: 'Analyses', summary: 'An analysis as PDF', auth: 'subscriber', file: PDF, errors: [404, 429] },
  { method: 'delete', path: '/analyses/{id}', tag: 'Analyses', summary: 'Delete an analysis', auth: 'subscriber', errors: [404] },
  // exams
  { method: 'get', path: '/exams', tag: 'Tests', summary: 'The user’s tests', auth: 'subscriber', data: z.array(R.examSummary) },
  { method: 'post', path: '/exams', tag: 'Tests', summary: 'Create a test', auth: 'subscriber', body: json('ExamInput'), status: 201, data: R.exam, errors: [413, 422] },
  { method: 'get', path: '/exams/{id}', tag: 'Tests', summary: 'One test', auth: 'subscriber', data: R.exam, errors: [404] },
  { method: 'put', path: '/exams/{id}', tag: 'Tests', summary: 'Replace a test', auth: 'subscriber', body: json('ExamInput'), data: R.exam, errors: [404, 413, 422] },
  { method: 'delete', path: '/exams/{id}', tag: 'Tests', summary: 'Delete a test', auth: 'subscriber', errors: [404] },
  { method: 'get', path: '/exams/{id}/pdf', tag: 'Tests', summary: 'A test, its answer key or its versions as PDF', auth: 'subscriber', query: pdfQuery, file: PDF, errors: [404, 429] },
  {
    method: 'post',
    path: '/uploads/images',
    tag: 'Tests',
    summary: 'Upload a question’s image',
    auth: 'subscriber',
    body: { kind: 'multipart', schema: object({ file: binary('PNG, JPEG or WebP, up to 5 MB') }) },
    status: 201,
    data: R.image,
    errors: [413, 422, 429],
  },
  { method: 'get', path: '/uploads/images/{id}', tag: 'Tests', summary: 'A question’s image', auth: 'subscriber', file: ['image/png', 'image/jpeg', 'image/webp'], errors: [404] },
  // this document
  { method: 'get', path: '/openapi.json', tag: 'Reference', summary: 'This OpenAPI document', auth: 'none', raw: { type: 'application/json', schema: { type: 'object' } } },
  { method: 'get', path: '/docs', tag: 'Reference', summary: 'This reference as an HTML page', auth: 'none', raw: { type: 'text/html' } },
]

const errorResponses: Record<ErrorStatus, { name: string; description: string; schema: keyof typeof R.responseComponents; retryAfter?: boolean }> = {
  401: { name: 'Unauthorized', description: 'No token, or a bad or expired one (or a wrong password)', schema: 'Error' },
  403: { name: 'Forbidden', description: 'Not allowed: not activated, or no subscription (the message says which)', schema: 'Error' },
  404: { name: 'NotFound', description: 'No such record, or another user’s', schema: 'Error' },
  409: { name: 'Conflict', description: 'A state conflict (already subscribed, already taken)', schema: 'Error' },
  413: { name: 'TooLarge', description: 'The body or file is over the limit', schema: 'Error' },
  422: { name: 'ValidationFailed', description: 'The request did not validate', schema: 'ValidationError' },
  429: { name: 'TooManyRequests', description: 'Rate-limited; retry after `Retry-After` seconds', schema: 'Error', retryAfter: true },
  503: { name: 'Unavailable', description: 'A service behind this one is busy or down; try again later', schema: 'Error' },
}

const authErrors: Record<Auth, ErrorStatus[]> = { none: [], optional: [], webhook: [], bearer: [401], subscriber: [401, 403] }
const authSecurity: Record<Auth, unknown[] | undefined> = {
  none: [],
  webhook: [],
  optional: [{}, { bearer: [] }],
  bearer: [{ bearer: [] }],
  subscriber: [{ bearer: [] }],
}

function operationObject(op: Operation, successBody: JsonSchema | undefined): JsonSchema {
  const params: JsonSchema[] = [...op.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    description: name === 'gateway' ? 'The gateway’s name' : idOf(op.path.split('/')[1]?.replace(/s$/, '') ?? 'record'),
    schema: { type: 'string' },
  }))
  for (const q of op.query ?? []) params.push({ name: q.name, in: 'query', required: q.required ?? false, description: q.description, schema: q.schema })
  params.push({ $ref: '#/components/parameters/AcceptLanguage' })

  const ok = op.status ?? 200
  let success: JsonSchema
  if (op.raw) success = { description: op.summary, content: { [op.raw.type]: op.raw.schema ? { schema: op.raw.schema } : {} } }
  else if (op.file) success = { description: 'The file', content: Object.fromEntries(op.file.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])) }
  else success = { description: 'Done', content: { 'application/json': { schema: successBody } } }

  const responses: Record<string, JsonSchema> = { [ok]: success }
  // Every body is read under a size limit (64 KB for JSON, more for uploads): 413 above it.
  const bodyErrors: ErrorStatus[] = op.body ? [413] : []
  const statuses = [...new Set([...authErrors[op.auth], ...bodyErrors, ...(op.errors ?? [])])].sort((a, b) => a - b)
  for (const status of statuses) {
    const isRefusedWorkbook = status === 422 && op.tag === 'Analyses' && op.method === 'post'
    responses[status] = isRefusedWorkbook
      ? { description: 'The workbook was refused (no file, missing columns, no rows)', content: { 'application/json': { schema: ref('AnalysisError') } } }
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
  const description = [op.description, op.auth === 'subscriber' ? 'Needs an active subscription.' : ''].filter(Boolean).join(' ')
  if (description) out.description = description
  if (op.body) {
    const content: JsonSchema =
      op.body.kind === 'json'
        ? { 'application/json': { schema: op.body.schema } }
        : op.body.kind === 'multipart'
          ? { 'multipart/form-data': { schema: op.body.schema } }
          : { 'application/json': { schema: op.body.json }, 'multipart/form-data': { schema: op.body.multipart } }
    out.requestBody = { required: true, content }
  }
  return out
}

export function buildOpenApiDocument() {
  // The `{message, data}` of each operation that answers JSON, converted with the named schemas.
  const enveloped = operations.filter((op) => !op.raw && !op.file)
  const converted = responseSchemas(enveloped.map((op) => R.envelope(op.data)))
  const bodyOf = new Map(enveloped.map((op, i) => [op, converted.bodies[i]]))
  const paths: Record<string, Record<string, JsonSchema>> = {}
  for (const op of operations) (paths[op.path] ??= {})[op.method] = operationObject(op, bodyOf.get(op))
  const responses: Record<string, JsonSchema> = {}
  for (const e of Object.values(errorResponses)) {
    responses[e.name] = {
      description: e.description,
      ...(e.retryAfter ? { headers: { 'Retry-After': { description: 'Seconds to wait', required: true, schema: { type: 'integer', minimum: 1 } } } } : {}),
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
        'The REST API of Hallil. JSON in and out (uploads are multipart, files are PDF or xlsx). Success is `{message, data}`; a validation failure is 422 `{message, errors}`. `Accept-Language: ar` or `en` picks the language of every message (default `ar`).',
    },
    servers: [{ url: '/api/v1' }],
    tags: [...new Set(operations.map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'The token from auth/login or auth/activate' } },
      parameters: {
        AcceptLanguage: { name: 'Accept-Language', in: 'header', required: false, description: 'The language of the messages', schema: { type: 'string', enum: ['ar', 'en'], default: 'ar' } },
      },
      schemas: { ...converted.components, ...requestSchemas() },
      responses,
    },
  }
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>

// ---- The reference page ----

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c)
/** `code` spans in the descriptions, the rest escaped. */
const prose = (s: string) => escapeHtml(s).replace(/`([^`]+)`/g, '<code>$1</code>')
const anchor = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')

function typeOf(schema: JsonSchema): string {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop() ?? ''
    return `<a href="#schema-${anchor(name)}">${escapeHtml(name)}</a>`
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[key]
    if (key === 'allOf' && typeof schema.type === 'string') break
    if (Array.isArray(list)) return list.map((s: JsonSchema) => typeOf(s)).join(key === 'allOf' ? ' &amp; ' : ' | ')
  }
  if (schema.const !== undefined) return `<code>${escapeHtml(JSON.stringify(schema.const))}</code>`
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => `<code>${escapeHtml(JSON.stringify(v))}</code>`).join(' | ')
  if (schema.type === 'array') return `array of ${typeOf((schema.items as JsonSchema | undefined) ?? {})}`
  if (schema.type === 'string' && schema.format === 'binary') return 'file'
  const format = typeof schema.format === 'string' ? ` (${schema.format})` : ''
  if (typeof schema.type === 'string') return escapeHtml(schema.type + format)
  // A nullable scalar: ["string", "null"].
  if (Array.isArray(schema.type)) return schema.type.map((t) => escapeHtml(String(t) + (t === 'string' ? format : ''))).join(' | ')
  return 'any'
}

function constraints(schema: JsonSchema): string {
  const parts: string[] = []
  const labels: Record<string, string> = {
    minLength: 'min length',
    maxLength: 'max length',
    minimum: 'min',
    maximum: 'max',
    exclusiveMinimum: '>',
    minItems: 'min items',
    maxItems: 'max items',
    pattern: 'pattern',
    default: 'default',
  }
  for (const [key, label] of Object.entries(labels)) {
    const value = schema[key]
    // z.int()'s safe-integer bounds say nothing a reader needs.
    if (value === undefined || (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) || (key === 'minimum' && value === Number.MIN_SAFE_INTEGER)) continue
    // A format (uuid, email, date-time) says in a word what its generated pattern spells out.
    if (key === 'pattern' && typeof schema.format === 'string') continue
    parts.push(`${label} <code>${escapeHtml(typeof value === 'string' ? value : JSON.stringify(value))}</code>`)
  }
  for (const part of (schema.allOf as JsonSchema[] | undefined) ?? [])
    if (typeof part.pattern === 'string') parts.push(`pattern <code>${escapeHtml(part.pattern)}</code>`)
  if (typeof schema.description === 'string') parts.unshift(prose(schema.description))
  return parts.join('; ')
}

/** An object's fields as a table; nested objects (not references) in their own rows below. */
function schemaHtml(schema: JsonSchema, depth = 0): string {
  const props = schema.properties as Record<string, JsonSchema> | undefined
  if (!props || depth > 4) {
    const variants = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined
    if (variants && variants.some((v) => v.properties)) return variants.map((v) => `<p>One of:</p>${schemaHtml(v, depth + 1)}`).join('')
    return `<p>${typeOf(schema)}${constraints(schema) ? ` — ${constraints(schema)}` : ''}</p>`
  }
  const required = new Set((schema.required as string[] | undefined) ?? [])
  const rows = Object.entries(props).map(([name, p]) => {
    // An object's own fields below it, also when it may be null (anyOf object | null) or is an array's item.
    const inner = ((p.anyOf ?? p.oneOf) as JsonSchema[] | undefined)?.find((v) => v.properties) ?? (p.type === 'array' ? (p.items as JsonSchema | undefined) : undefined)
    const nested = p.properties ? schemaHtml(p, depth + 1) : inner?.properties ? schemaHtml(inner, depth + 1) : ''
    return `<tr><th scope="row"><code>${escapeHtml(name)}</code></th><td>${typeOf(p)}${nested}</td><td>${required.has(name) ? 'yes' : 'no'}</td><td>${constraints(p)}</td></tr>`
  })
  return `<table><thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Notes</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
}

/** The fields of a referenced request schema, shown where it is used. */
function refTable(schema: JsonSchema, schemas: Record<string, JsonSchema>): string {
  if (typeof schema.$ref !== 'string') return ''
  const target = schemas[schema.$ref.split('/').pop() ?? '']
  return target?.properties ? schemaHtml(target) : ''
}

const STYLE = `
:root{color-scheme:light dark;--fg:#1a1a1a;--bg:#fff;--muted:#555;--line:#d0d0d0;--code:#f3f3f3;--accent:#0b5c3b}
@media (prefers-color-scheme:dark){:root{--fg:#eee;--bg:#121212;--muted:#bbb;--line:#444;--code:#1f1f1f;--accent:#6fd3a6}}
body{font:16px/1.5 system-ui,sans-serif;color:var(--fg);background:var(--bg);margin:0}
main{max-width:70rem;margin:0 auto;padding:1rem 1.5rem 4rem}
a{color:var(--accent)}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:var(--bg);padding:.5rem}
code{background:var(--code);padding:0 .25em;border-radius:3px;font-size:.92em}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem}
th,td{border:1px solid var(--line);padding:.3rem .5rem;text-align:start;vertical-align:top}
section.op{border-top:1px solid var(--line);padding-top:.5rem;margin-top:1.5rem}
.method{display:inline-block;min-width:4.5rem;font-weight:700;text-transform:uppercase}
.muted{color:var(--muted)}
nav>ul{columns:3 18rem}nav>ul>li{break-inside:avoid;margin-bottom:.5rem}
`

export function renderDocsHtml(doc: OpenApiDocument = buildOpenApiDocument()): string {
  const byTag = new Map<string, Operation[]>()
  for (const op of operations) byTag.set(op.tag, [...(byTag.get(op.tag) ?? []), op])
  const opId = (op: Operation) => `op-${op.method}-${anchor(op.path)}`
  const authText: Record<Auth, string> = {
    none: 'None',
    optional: 'Bearer token, optional',
    bearer: 'Bearer token',
    subscriber: 'Bearer token, active subscription',
    webhook: 'Gateway signature',
  }
  const nav = [...byTag].map(
    ([tag, ops]) =>
      `<li><a href="#tag-${anchor(tag)}">${escapeHtml(tag)}</a><ul>${ops.map((op) => `<li><a href="#${opId(op)}">${op.method.toUpperCase()} ${escapeHtml(op.path)}</a></li>`).join('')}</ul></li>`,
  )
  const sections = [...byTag].map(([tag, ops]) => {
    const body = ops.map((op) => {
      const o = doc.paths[op.path]?.[op.method] as {
        parameters: JsonSchema[]
        requestBody?: { content: Record<string, { schema: JsonSchema }> }
        responses: Record<string, JsonSchema>
        description?: string
      }
      const params = o.parameters.filter((p) => !p.$ref)
      const paramsHtml = params.length
        ? `<h4>Parameters</h4><table><thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Description</th></tr></thead><tbody>${params
            .map(
              (p) =>
                `<tr><th scope="row"><code>${escapeHtml(String(p.name))}</code></th><td>${escapeHtml(String(p.in))}</td><td>${typeOf(p.schema as JsonSchema)}</td><td>${p.required ? 'yes' : 'no'}</td><td>${prose(String(p.description ?? ''))}</td></tr>`,
            )
            .join('')}</tbody></table>`
        : ''
      const bodyHtml = o.requestBody
        ? `<h4>Request body</h4>${Object.entries(o.requestBody.content)
            .map(([type, c]) => `<p><code>${escapeHtml(type)}</code></p>${schemaHtml(c.schema)}${refTable(c.schema, doc.components.schemas)}`)
            .join('')}`
        : ''
      const responsesHtml = Object.entries(o.responses)
        .map(([status, r]) => {
          if (typeof r.$ref === 'string') {
            const name = r.$ref.split('/').pop() ?? ''
            const shared = (doc.components.responses as Record<string, JsonSchema>)[name]
            return `<li><strong>${status}</strong> ${prose(String(shared?.description ?? name))}</li>`
          }
          const content = (r.content ?? {}) as Record<string, { schema?: JsonSchema }>
          const shape = Object.entries(content)
            .map(([type, c]) => `<p><code>${escapeHtml(type)}</code></p>${c.schema && type === 'application/json' ? schemaHtml(c.schema) : ''}`)
            .join('')
          return `<li><strong>${status}</strong> ${escapeHtml(String(r.description))}${shape}</li>`
        })
        .join('')
      return `<section class="op" id="${opId(op)}" aria-labelledby="${opId(op)}-h"><h3 id="${opId(op)}-h"><span class="method">${op.method}</span> <code>${escapeHtml(op.path)}</code></h3>
<p>${escapeHtml(op.summary)}.${o.description ? ` ${prose(o.description)}` : ''}</p>
<p><span class="muted">Authentication:</span> ${authText[op.auth]}</p>${paramsHtml}${bodyHtml}<h4>Responses</h4><ul>${responsesHtml}</ul></section>`
    })
    return `<section id="tag-${anchor(tag)}" aria-labelledby="tag-${anchor(tag)}-h"><h2 id="tag-${anchor(tag)}-h">${escapeHtml(tag)}</h2>${body.join('\n')}</section>`
  })
  const schemas = Object.entries(doc.components.schemas).map(
    ([name, schema]) => `<section id="schema-${anchor(name)}" aria-labelledby="schema-${anchor(name)}-h"><h3 id="schema-${anchor(name)}-h">${escapeHtml(name)}</h3>${schemaHtml(schema)}</section>`,
  )
  return `<!doctype html>
<html lang="en" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(doc.info.title)} reference</title>
<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#content">Skip to the reference</a>
<main id="content">
<h1>${escapeHtml(doc.info.title)} ${escapeHtml(doc.info.version)}</h1>
<p>${prose(doc.info.description)}</p>
<p>Base URL: <code>${escapeHtml(doc.servers[0]?.url ?? '')}</code>. Machine-readable: <a href="openapi.json">openapi.json</a> (OpenAPI ${doc.openapi}).</p>
<nav aria-label="Endpoints"><h2>Endpoints</h2><ul>${nav.join('')}<li><a href="#schemas">Schemas</a></li></ul></nav>
${sections.join('\n')}
<section id="schemas" aria-labelledby="schemas-h"><h2 id="schemas-h">Schemas</h2>${schemas.join('\n')}</section>
</main>
</body>
</html>`
}

/** GET /openapi.json and GET /docs, without authentication; built once. */
export function createOpenApiRoutes() {
  const api = new Hono<ApiEnv>()
  let doc: OpenApiDocument | undefined
  let html: string | undefined
  api.get('/openapi.json', (c) => c.json((doc ??= buildOpenApiDocument())))
  api.get('/docs', (c) => c.html((html ??= renderDocsHtml((doc ??= buildOpenApiDocument())))))
  return api
}
