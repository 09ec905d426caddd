import { z } from './zod.ts'

// The shapes the REST API answers with (its wire format), declared once each as zod schemas
// beside the function that builds them (`userToJson` beside `userWire`, typed `Wire<typeof
// userWire>`), so a serializer that drifts from its shape fails to compile. A shape registered
// here by name becomes a named schema of the OpenAPI document (components/schemas), referenced
// wherever a route answers it (server/http/api/openapi.ts). Server code only: pages never import these.
//
// Field names: snake_case (`created_at`, `avatar_url`), as the API has always answered, except
// the analyses' report objects, which keep the camelCase of the reports they are (absence and
// grades figures: `attendanceRate`, `byClassroom`).

export interface WireMeta {
  readonly id: string
  /**
   * `input`: document the shape from its input side. For a shape that is the request's own schema
   * (a test's questions, answered as they were sent), whose output side runs through transforms
   * JSON Schema cannot say.
   */
  readonly io?: 'input' | 'output'
}

const named = new Map<string, { readonly schema: z.core.$ZodType; readonly meta: WireMeta }>()

/** Registers `schema` as the API's named shape `id` and returns it. One name, one shape. */
export function wireShape<T extends z.core.$ZodType>(id: string, schema: T, meta: Omit<WireMeta, 'id'> = {}): T {
  const known = named.get(id)
  if (known && known.schema !== schema) throw new Error(`two API shapes are named ${id}`)
  named.set(id, { schema, meta: { id, ...meta } })
  return schema
}

/** Every named shape of the API, by name, for the OpenAPI document. */
export function namedWireShapes(): ReadonlyArray<{ readonly schema: z.core.$ZodType; readonly meta: WireMeta }> {
  return [...named.values()].sort((a, b) => a.meta.id.localeCompare(b.meta.id))
}

/** Read-only all the way down: a serializer may hand over the domain's read-only lists as they are. */
export type Immutable<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends ReadonlyArray<infer E>
    ? ReadonlyArray<Immutable<E>>
    : T extends object
      ? { readonly [K in keyof T]: Immutable<T[K]> }
      : T

/** What a serializer returns for `schema`: the values the shape accepts. */
export type Wire<T extends z.core.$ZodType> = Immutable<z.core.input<T>>

// The pieces every shape is made of.
export const wireDateTime = z.iso.datetime().describe('ISO-8601, UTC')
export const wireDay = z.iso.date().describe('YYYY-MM-DD')
export const wireId = z.uuid()
export const wireCount = z.int().min(0)
/** Two decimals, rounded half away from zero. */
export const wireRate = z.number()
export const wireHalalas = (what: string) => z.int().min(0).describe(`${what}, in halalas`)

/** A package named in a user's or a subscription's answer. */
export const packageRefWire = wireShape('PackageRef', z.object({ id: z.int(), name: z.string() }))
