import { describe, expect, it } from 'vitest'
import { publicPages } from './public-pages.ts'
import { robotsTxt } from './seo.server.ts'

// docs/decisions/009: robots.txt keeps crawlers off the API and the language switch only. The
// signed-in pages are not disallowed: a crawler must be able to see their redirect to login.
describe('robots.txt', () => {
  const lines = robotsTxt('https://hallil.example').split('\n')
  const disallowed = lines.filter((l) => l.startsWith('Disallow:')).map((l) => l.slice('Disallow:'.length).trim())

  it('disallows only the API and the language switch', () => {
    expect(disallowed).toEqual(['/api/', '/set-language'])
    expect(lines).toContain('Sitemap: https://hallil.example/sitemap.xml')
  })

  it('blocks no page, public or behind sign-in', () => {
    const pages = [...publicPages.map((p) => `/ar/${p}`), '/en/analysis', '/ar/exams', '/en/profile', '/ar/checkout/1']
    for (const page of pages) expect(disallowed.filter((prefix) => page.startsWith(prefix))).toEqual([])
  })
})
