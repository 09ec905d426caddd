import { Hono, type Context, type MiddlewareHandler } from 'hono'
import { findSession, type CurrentSession } from '#app/features/accounts/index.server.ts'
import { requireSubscription } from '#app/features/billing/index.server.ts'
import { operatorAccess } from '#app/features/operators/index.server.ts'
import { isLang, type Lang } from '#app/i18n/config.ts'
import { langFromAcceptLanguage } from '#app/i18n/detect.server.ts'
import { getMessages, isLocaleKey } from '#app/i18n/messages.server.ts'
import { createTranslator, type Translate } from '#app/i18n/translate.ts'
import { DomainError } from '#app/lib/errors.ts'
import { fieldErrorsOf } from '#app/lib/forms.ts'
import { wireShape, type Wire } from '#app/lib/wire.server.ts'
import { z as zod } from '#app/lib/zod.ts'
import type { RequestContext } from '#app/platform/context.server.ts'

// One declaration per endpoint: a route file calls `route(contract, handler)`. The contract
// (method, path, who may call, the body's schema, the answer's shape, the errors) registers the
// handler with Hono, parses the body before the handler runs (a failure is the API's one 422),
// finds the caller the contract asks for, types what the handler answers against the answer's
// shape (a field the shape lacks fails to compile) and is what the OpenAPI document is built from
// (openapi.ts). The answers follow the API's conventions, docs/api.md: `{message, data}` on
// success, `{message, errors}` on 422, `{message}` otherwise.

/** `apiSession`: the bearer token's session, once looked up; null without a valid one. */
export type ApiEnv = { Variables: { ctx: RequestContext; apiSession?: CurrentSession | null } }
export type C = Context<ApiEnv>

// ---------------------------------------------------------------- language and answers

export function apiLang(c: C): Lang {
  const header = c.req.header('accept-language')
  const exact = header?.trim().toLowerCase()
  if (isLang(exact)) return exact
  return langFromAcceptLanguage(header) ?? 'ar'
}

/** A translator for the request's language; `keys` name the messages it will be asked for (their namespaces are loaded). */
export function apiTranslator(c: C, keys: readonly string[] = []): Translate {
  const lang = apiLang(c)
  // Only locale keys name a namespace; a message that is not one (zod's own) is left to the translator.
  const namespaces = [...new Set(keys.filter(isLocaleKey).map((key) => key.split('.')[0] ?? 'common'))].filter((ns) => ns !== 'common')
  return createTranslator(lang, getMessages(lang, ['common', ...namespaces])).t
}

/** One message in the request's language. */
export const say = (c: C, key: string, values?: Record<string, string | number>) => apiTranslator(c, [key])(key, values)

export function ok<T>(c: C, data: T, message = '', status: 200 | 201 = 200) {
  return c.json({ message, data }, status)
}

/** The request body as JSON; a body that is not JSON reads as an empty object (and fails its schema). */
export async function jsonBody(c: C): Promise<unknown> {
  try {
    return await c.req.json()
  } catch {
    return {}
  }
}

/** A request that does not validate: thrown by `parse`, answered 422 with each field's messages. */
export class ValidationFailed extends Error {
  constructor(readonly issues: zod.core.$ZodError) {
    super('validation failed')
    this.name = 'ValidationFailed'
  }
}

/** `value` through `schema`, or a ValidationFailed (the API's 422). */
export function parse<S extends zod.core.$ZodType>(schema: S, value: unknown): zod.core.output<S> {
  const parsed = zod.safeParse(schema, value)
  if (!parsed.success) throw new ValidationFailed(parsed.error)
  return parsed.data
}

export function validationFailedResponse(c: C, error: zod.core.$ZodError) {
  const fields = fieldErrorsOf(error)
  const t = apiTranslator(c, Object.values(fields).flat())
  const errors: Record<string, string[]> = {}
  // A message that is not one of ours (zod's own English) reads as the general one, in the caller's language.
  for (const [field, keys] of Object.entries(fields)) errors[field] = keys.map((k) => t(isLocaleKey(k) ? k : 'common.errors.validation'))
  return c.json({ message: t('common.errors.validation'), errors }, 422)
}

/** A domain failure: its status, the message, per-field errors, Retry-After. */
export function domainErrorResponse(c: C, error: DomainError) {
  const t = apiTranslator(c, [error.messageKey, ...Object.values(error.fields ?? {}).flat()])
  if (error.retryAfterSeconds) c.header('Retry-After', String(error.retryAfterSeconds))
  const body: { message: string; errors?: Record<string, string[]> } = { message: t(error.messageKey) }
  // A 422 always carries `errors`, empty when no one field is at fault (a gateway's refusal).
  if (error.fields || error.status === 422)
    body.errors = Object.fromEntries(Object.entries(error.fields ?? {}).map(([field, keys]) => [field, keys.map((k) => t(k))]))
  return c.json(body, error.status)
}

/** 404 `{message}`, thrown: no such record, or another teacher's (never "forbidden"). */
export function notFound(key = 'common.errors.notFoundApi'): never {
  throw new DomainError(404, key)
}

// ---------------------------------------------------------------- the caller

/** The session of `Authorization: Bearer <token>` (API tokens only), looked up once per request. */
export async function apiSession(c: C): Promise<CurrentSession | null> {
  const known = c.get('apiSession')
  if (known !== undefined) return known
  const token = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1]
  const { db, env, logger } = c.get('ctx')
  // Only kind 'api': a web session secret (the cookie's) never opens the API, in a header or a cookie.
  const session = token
    ? await findSession({ db, secret: env.SESSION_SECRET, token, kind: 'api', idleDays: env.SESSION_IDLE_DAYS, logger })
    : null
  c.set('apiSession', session)
  return session
}

/** The signed-in API user; without a valid token, 401. */
export async function requireApiUser(c: C): Promise<CurrentSession> {
  const session = await apiSession(c)
  if (!session) throw new DomainError(401, 'accounts.errors.unauthenticated')
  return session
}

/** The signed-in API user with a subscription in force; 401 without a token, 403 without a subscription. */
export async function requireApiSubscriber(c: C): Promise<CurrentSession> {
  const session = await requireApiUser(c)
  await requireSubscription({ db: c.get('ctx').db, userId: session.user.id })
  return session
}

/**
 * An operator's API call (docs/operators.md): 404, as for any unknown path, to anyone who is not
 * an operator (with a token or without); 403 to an operator without two-step verification, or
 * whose token was issued before it was turned on (with the password alone). Run
 * by the middleware on every `/admin/*` path (index.ts) and by each operator route.
 */
export async function requireApiOperator(c: C): Promise<CurrentSession> {
  const session = await apiSession(c)
  const access = operatorAccess(session)
  if (access === 'not-found' || !session) throw new DomainError(404, 'common.errors.notFoundApi')
  if (access === 'two-factor-required') throw new DomainError(403, 'operators.errors.twoFactorRequired')
  if (access === 'sign-in-again') throw new DomainError(403, 'operators.errors.signInAgain')
  return session
}

// ---------------------------------------------------------------- error shapes

const fieldErrors = zod.record(zod.string(), zod.array(zod.string())).describe('The messages of each field, by its name in the request')
export const messageWire = wireShape('Message', zod.object({ message: zod.string().describe('In the language of Accept-Language') }))
/** 4xx other than 422: the message, and per-field messages when the failure belongs to a field (wrong password: `email`). */
export const errorWire = wireShape(
  'Error',
  zod.object({ message: zod.string().describe('In the language of Accept-Language'), errors: fieldErrors.optional() }),
)
/** 422: the message and every field's messages (none when no one field is at fault). */
export const validationErrorWire = wireShape('ValidationError', zod.object({ message: zod.string(), errors: fieldErrors }))

// ---------------------------------------------------------------- contracts

/** What a client sends: a zod schema's input side (or its output side), as JSON Schema 2020-12 (OpenAPI 3.1's dialect). */
export function fromZod(schema: zod.core.$ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  const { $schema: _dialect, ...json } = zod.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema
  return json
}

export type Auth = 'none' | 'optional' | 'bearer' | 'subscriber' | 'webhook' | 'operator'
export type ErrorStatus = 401 | 403 | 404 | 409 | 413 | 422 | 429 | 503
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete'
export type JsonSchema = { [key: string]: unknown }

/**
 * A request body. `json`: a zod schema the body is parsed with before the handler runs (unless
 * `isParsedByHandler`, for a schema whose refusal has a shape of its own), `name` making it a
 * named schema of the document. `json-one-of`: one of several (a two-step endpoint), the handler
 * choosing. The others are documented only, the handler reading them (forms, files, a gateway's
 * own event).
 */
export type Body =
  | { readonly kind: 'json'; readonly schema: zod.core.$ZodType; readonly name?: string; readonly isParsedByHandler?: boolean }
  | { readonly kind: 'json-one-of'; readonly schemas: ReadonlyArray<{ readonly name: string; readonly schema: zod.core.$ZodType }> }
  | { readonly kind: 'json-or-multipart'; readonly json: zod.core.$ZodType; readonly name: string; readonly multipart: JsonSchema }
  | { readonly kind: 'multipart'; readonly schema: JsonSchema }
  | { readonly kind: 'raw-json'; readonly schema: JsonSchema }

export interface QueryParameter {
  readonly name: string
  readonly description: string
  readonly schema: JsonSchema
  readonly required?: boolean
}

export interface Contract<
  D extends zod.core.$ZodType | undefined = zod.core.$ZodType | undefined,
  B extends Body | undefined = Body | undefined,
> {
  readonly method: Method
  /** OpenAPI form: `/exams/{id}`; a parameter's pattern goes in `pattern` (Hono form) when it has one. */
  readonly path: string
  /** The Hono path when it is not `path` with `{id}` as `:id` (a parameter with a pattern). */
  readonly honoPath?: string
  readonly tag: string
  readonly summary: string
  readonly description?: string
  readonly auth: Auth
  readonly body?: B
  readonly query?: readonly QueryParameter[]
  readonly status?: 200 | 201
  /** The `data` of the answer; none for `data: null`. */
  readonly data?: D
  /** A file answer instead of the JSON envelope: its content types. */
  readonly file?: readonly string[]
  /** A raw answer (the document itself, its page). */
  readonly raw?: { readonly type: string; readonly schema?: JsonSchema }
  readonly errors?: readonly ErrorStatus[]
  /** Route-level middleware (a body limit of its own). */
  readonly use?: readonly MiddlewareHandler<ApiEnv>[]
}

declare const replied: unique symbol

/**
 * What the handler of a JSON contract answers, made by its `reply`: the data in its shape, and a
 * message. `reply` takes the data as an argument typed by the contract's shape, so a field the
 * shape lacks, or one it has left out, fails to compile. A refusal is thrown (a DomainError: its
 * status and message; `notFound`), never answered.
 */
export interface Reply<D> {
  readonly [replied]: D
  readonly data: unknown
  readonly message: string
}

type DataOf<D> = D extends zod.core.$ZodType ? Wire<D> : null

type BodyOf<B> = B extends { isParsedByHandler: true }
  ? undefined
  : B extends { kind: 'json'; schema: infer S extends zod.core.$ZodType }
    ? zod.core.output<S>
    : undefined
type CallerOf<A extends Auth> = A extends 'bearer' | 'subscriber' | 'operator'
  ? CurrentSession
  : A extends 'optional'
    ? CurrentSession | null
    : null

export interface HandlerInput<B, A extends Auth> {
  /** The JSON body parsed by the contract's schema. */
  readonly body: BodyOf<B>
  /** The caller the contract asks for: a session for bearer and subscriber (checked), maybe one for optional. */
  readonly session: CallerOf<A>
}

export type Handler<D, B, A extends Auth> = (
  c: C,
  input: HandlerInput<B, A> & { readonly reply: (data: DataOf<D>, message?: string) => Reply<D> },
) => Promise<Reply<D>>
export type FileHandler<B, A extends Auth> = (c: C, input: HandlerInput<B, A>) => Promise<Response>

export interface Routes {
  readonly app: Hono<ApiEnv>
  readonly contracts: Contract[]
  /** A route answering JSON (`{message, data}`), its data typed against `contract.data`. */
  route<const A extends Auth, D extends zod.core.$ZodType | undefined = undefined, B extends Body | undefined = undefined>(
    contract: Contract<D, B> & { readonly auth: A; readonly file?: undefined; readonly raw?: undefined },
    handler: Handler<D, B, A>,
  ): void
  /** A route answering a file (`contract.file`) or a raw document (`contract.raw`). */
  fileRoute<const A extends Auth, B extends Body | undefined = undefined>(
    contract: Contract<undefined, B> & { readonly auth: A },
    handler: FileHandler<B, A>,
  ): void
}

/** Hono's form of an OpenAPI path: `{id}` → `:id`. */
export const honoPathOf = (contract: Pick<Contract, 'path' | 'honoPath'>) => contract.honoPath ?? contract.path.replace(/\{(\w+)\}/g, ':$1')

async function callerFor(c: C, auth: Auth): Promise<CurrentSession | null> {
  if (auth === 'bearer') return requireApiUser(c)
  if (auth === 'subscriber') return requireApiSubscriber(c)
  if (auth === 'optional') return apiSession(c)
  if (auth === 'operator') return requireApiOperator(c)
  return null
}

/** A route file's routes: each declared once with its contract, collected for the OpenAPI document. */
export function createRoutes(): Routes {
  const app = new Hono<ApiEnv>()
  const contracts: Contract[] = []
  const register = (contract: Contract, answer: (c: C, input: HandlerInput<Body | undefined, Auth>) => Promise<Response>) => {
    contracts.push(contract)
    const run = async (c: C) => {
      const session = await callerFor(c, contract.auth)
      const body =
        contract.body?.kind === 'json' && !contract.body.isParsedByHandler ? parse(contract.body.schema, await jsonBody(c)) : undefined
      return answer(c, { body, session } as HandlerInput<Body | undefined, Auth>)
    }
    app.on([contract.method.toUpperCase()], [honoPathOf(contract)], ...(contract.use ?? []), run)
  }
  return {
    app,
    contracts,
    route(contract, handler) {
      const reply = (data: unknown, message = '') => ({ data, message }) as unknown as Reply<typeof contract.data>
      register(contract as Contract, async (c, input) => {
        const answer = await (handler as Handler<typeof contract.data, Body | undefined, Auth>)(c, { ...input, reply } as Parameters<
          Handler<typeof contract.data, Body | undefined, Auth>
        >[1])
        return ok(c, answer.data, answer.message, contract.status ?? 200)
      })
    },
    fileRoute(contract, handler) {
      register(contract as Contract, (c, input) => (handler as FileHandler<Body | undefined, Auth>)(c, input))
    },
  }
}
