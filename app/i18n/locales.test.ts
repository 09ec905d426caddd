import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { catalogue } from './messages.server.ts'
import { lookup } from './translate.ts'

// Every namespace exists in both languages with the same keys and array lengths, and every
// literal key used in the code exists in both.

type Shape = string[]

function shapeOf(value: unknown, prefix = ''): Shape {
  if (Array.isArray(value)) return [`${prefix}[${value.length}]`, ...value.flatMap((v, i) => shapeOf(v, `${prefix}[${i}]`))]
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
    // Plural forms too: an English counted message carries the forms the Arabic one has (those
    // English never selects repeat its `other`), so both files keep one set of keys.
    return entries.flatMap(([k, v]) => shapeOf(v, prefix ? `${prefix}.${k}` : k))
  }
  return [prefix]
}

function emptyLeaves(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') return value.trim() === '' ? [prefix] : []
  if (Array.isArray(value)) return value.flatMap((v, i) => emptyLeaves(v, `${prefix}[${i}]`))
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => emptyLeaves(v, prefix ? `${prefix}.${k}` : k))
  return [`${prefix} (not a string)`]
}

describe('locale files', () => {
  const namespaces = new Set([...Object.keys(catalogue.ar), ...Object.keys(catalogue.en)])

  it('has namespaces to check', () => {
    expect(namespaces.size).toBeGreaterThanOrEqual(8)
  })

  for (const ns of namespaces) {
    it(`${ns}: the same keys in Arabic and English, none empty`, () => {
      expect(catalogue.ar[ns], `missing ar/${ns}.json`).toBeDefined()
      expect(catalogue.en[ns], `missing en/${ns}.json`).toBeDefined()
      expect(shapeOf(catalogue.ar[ns])).toEqual(shapeOf(catalogue.en[ns]))
      expect(emptyLeaves(catalogue.ar[ns])).toEqual([])
      expect(emptyLeaves(catalogue.en[ns])).toEqual([])
    })
  }

  it('gives Arabic counted messages all six plural forms', () => {
    const missing: string[] = []
    const visit = (value: unknown, at: string) => {
      if (!value || typeof value !== 'object' || Array.isArray(value)) return
      const keys = Object.keys(value)
      if (keys.includes('other') && keys.every((k) => ['zero', 'one', 'two', 'few', 'many', 'other'].includes(k))) {
        for (const form of ['zero', 'one', 'two', 'few', 'many', 'other']) if (!keys.includes(form)) missing.push(`${at}.${form}`)
        return
      }
      for (const [k, v] of Object.entries(value)) visit(v, `${at}.${k}`)
    }
    for (const [ns, content] of Object.entries(catalogue.ar)) visit(content, ns)
    expect(missing).toEqual([])
  })

  it('has every key the code uses, in both languages', () => {
    const files: string[] = []
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const full = path.join(dir, entry)
        if (statSync(full).isDirectory()) walk(full)
        else if (/\.(ts|tsx)$/.test(entry) && !entry.endsWith('.test.ts')) files.push(full)
      }
    }
    walk(path.resolve('app'))
    walk(path.resolve('server'))
    const used = new Set<string>()
    const pattern = /\b(?:t|tm)\(\s*'([a-z][\w-]*\.[\w.-]+)'/g
    const keyInSchema = /'((?:common|contact|packages)\.(?:errors|validation)\.[\w.]+)'/g
    for (const file of files) {
      const source = readFileSync(file, 'utf8')
      for (const match of source.matchAll(pattern)) used.add(match[1] as string)
      for (const match of source.matchAll(keyInSchema)) used.add(match[1] as string)
    }
    expect(used.size).toBeGreaterThan(20)
    const missing = [...used].flatMap((key) =>
      (['ar', 'en'] as const).filter((lang) => lookup(catalogue[lang], key) === undefined).map((lang) => `${lang}: ${key}`),
    )
    expect(missing).toEqual([])
  })
})
