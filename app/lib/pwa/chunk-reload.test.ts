import { describe, expect, it } from 'vitest'
import { CHUNK_RELOAD_WINDOW_MS, isChunkLoadError, shouldReloadForChunkError } from './chunk-reload.ts'

function memoryStore() {
  const map = new Map<string, string>()
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) }
}

describe('chunk reload guard', () => {
  it('reloads at most once per path within ten seconds', () => {
    const store = memoryStore()
    expect(shouldReloadForChunkError(store, '/ar', 1_000)).toBe(true)
    expect(shouldReloadForChunkError(store, '/ar', 1_000 + CHUNK_RELOAD_WINDOW_MS - 1)).toBe(false)
    expect(shouldReloadForChunkError(store, '/en', 2_000)).toBe(true)
    expect(shouldReloadForChunkError(store, '/ar', 1_000 + CHUNK_RELOAD_WINDOW_MS)).toBe(true)
  })

  it('recognises the browsers’ chunk failures', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(true)
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true)
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false)
  })
})
