// After a deploy, a tab still running the previous build may ask for chunks that no longer
// exist. Reloading fetches the new build; the guard stops a reload loop when the failure is
// not a stale build (the server is down): at most once per path within the window.

export const CHUNK_RELOAD_WINDOW_MS = 10_000
const KEY_PREFIX = 'hallil:chunk-reload:'

export type KeyValueStore = Pick<Storage, 'getItem' | 'setItem'>

export function shouldReloadForChunkError(storage: KeyValueStore, path: string, now: number): boolean {
  const key = KEY_PREFIX + path
  const stored = storage.getItem(key)
  const last = stored === null ? Number.NaN : Number(stored)
  if (Number.isFinite(last) && now - last >= 0 && now - last < CHUNK_RELOAD_WINDOW_MS) return false
  storage.setItem(key, String(now))
  return true
}

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error ?? '')
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(
    message,
  )
}
