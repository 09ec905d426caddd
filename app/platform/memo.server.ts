// A short-lived, per-process cache for public listings read on every page view (packages,
// approved reviews): losing it costs one query, so it holds only what may be a few seconds old.
// Scoped by the database object, so tests with their own databases never share entries.

type Entry = { expires: number; value: Promise<unknown> }
const stores = new WeakMap<object, Map<string, Entry>>()

export function memoize<T>(scope: object, key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
  let store = stores.get(scope)
  if (!store) stores.set(scope, (store = new Map()))
  const now = Date.now()
  const hit = store.get(key)
  if (hit && hit.expires > now) return hit.value as Promise<T>
  const value = load()
  store.set(key, { expires: now + ttlMs, value })
  // A failed load is not kept: the next request asks again.
  value.catch(() => store.delete(key))
  return value
}
