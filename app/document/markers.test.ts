import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import guardSource from './guard-early-submits.client.ts?inline-script'
import loaderSource from './load-modules-after-paint.client.ts?inline-script'
import { attributeOf, DEFERRED_MODULES_ID, ENHANCED, HYDRATED } from './markers.ts'

const css = readFileSync(path.resolve(import.meta.dirname, '../styles/app.css'), 'utf8')

describe('the marks the document and its scripts share', () => {
  it('are the attributes the stylesheet keys its not-yet-ready look on', () => {
    expect(attributeOf(HYDRATED)).toBe('data-hydrated')
    expect(css).toContain(`[${attributeOf(HYDRATED)}]`)
    expect(css).toContain(`[${attributeOf(ENHANCED)}]`)
  })

  it('reach the browser scripts bundled, as classic scripts that import and export nothing', () => {
    for (const source of [guardSource, loaderSource]) {
      expect(source).not.toMatch(/^\s*(import|export)\b|\bimport\(|<\/script/m)
      expect(() => new Function(source)).not.toThrow()
    }
    expect(guardSource).toContain(HYDRATED)
    expect(loaderSource).toContain(DEFERRED_MODULES_ID)
  })
})
