// Comparing an analysis with a shared fixture's `*.expected.json`: the fixture states some
// fields (not, say, the five highest students), and the comparison covers exactly those.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** The union of the fields an expected value holds (arrays: the union over their elements). */
export function shapeOf(value: Json): Json {
  if (Array.isArray(value)) return [value.map(shapeOf).reduce<Json>((a, b) => merge(a, b), null)]
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shapeOf(v)]))
  return true
}

function merge(a: Json, b: Json): Json {
  if (a === null) return b
  if (Array.isArray(a) && Array.isArray(b)) return [merge(a[0] ?? null, b[0] ?? null)]
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const out: { [key: string]: Json } = { ...a }
    for (const [k, v] of Object.entries(b)) out[k] = k in out ? merge(out[k] as Json, v) : v
    return out
  }
  return a
}

/** The actual value cut down to the fields of the shape, so deep equality covers exactly what the fixture states. */
export function project(actual: unknown, shape: Json): unknown {
  if (Array.isArray(shape))
    return Array.isArray(actual) ? actual.map((item) => (shape[0] == null ? item : project(item, shape[0]))) : actual
  if (shape && typeof shape === 'object' && actual && typeof actual === 'object')
    return Object.fromEntries(Object.keys(shape).map((k) => [k, project((actual as Record<string, unknown>)[k], shape[k] as Json)]))
  return actual
}

/** A list in a fixed order (by its JSON), to compare lists whose order the fixture does not state. */
export const byJson = (items: unknown) =>
  Array.isArray(items) ? [...(items as unknown[])].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)) : items
