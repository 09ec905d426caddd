import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { safeRedirect } from './safe-redirect.ts'

describe('safeRedirect', () => {
  it('keeps paths of this site', () => {
    expect(safeRedirect('/ar/profile')).toBe('/ar/profile')
    expect(safeRedirect('/en/packages?x=1#top')).toBe('/en/packages?x=1#top')
  })

  it.each([
    '//evil.example/x',
    '/\\evil.example',
    'https://evil.example',
    'javascript:alert(1)',
    'data:text/html,hi',
    'JAVASCRIPT:alert(1)',
    ' /ar',
    '/\t/evil.example',
    '',
    null,
    undefined,
    42,
  ])('refuses %s', (target) => {
    expect(safeRedirect(target, '/ar')).toBe('/ar')
  })

  it('never leaves the site, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (input) => {
        const out = safeRedirect(input, '/fallback')
        const resolved = new URL(out, 'http://hallil.invalid')
        expect(resolved.origin).toBe('http://hallil.invalid')
        expect(out.startsWith('/')).toBe(true)
        expect(out.startsWith('//')).toBe(false)
      }),
      { numRuns: 2000 },
    )
  })
})
