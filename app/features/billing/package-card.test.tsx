import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { describe, expect, it } from 'vitest'
import { getMessages } from '#app/i18n/messages.server.ts'
import type { Lang } from '#app/i18n/config.ts'
import type { PackageView } from './list-packages.server.ts'
import { PackageGrid, type PackageHeadingLevel } from './package-card.tsx'

function render(lang: Lang, packages: PackageView[], headingLevel: PackageHeadingLevel = 3) {
  const Stub = createRoutesStub([
    { id: 'root', path: '/', Component: () => <PackageGrid packages={packages} headingLevel={headingLevel} /> },
  ])
  return renderToString(
    <Stub initialEntries={['/']} hydrationData={{ loaderData: { root: { lang, messages: getMessages(lang, ['common', 'packages']) } } }} />,
  )
}

const yearly: PackageView = {
  id: 3,
  name: 'Yearly',
  description: 'A full year.',
  months: 12,
  price: 24900,
  vatRate: 15,
  vat: 3735,
  total: 28635,
  isBestSeller: true,
}

describe('PackageGrid', () => {
  it('says so when there are no packages, in both languages', () => {
    expect(render('en', [])).toContain('No packages available')
    expect(render('ar', [])).toContain('لا توجد باقات متاحة')
  })

  it('shows price, VAT and total on separate lines and marks the best seller', () => {
    const html = render('en', [yearly])
    expect(html).toContain('Best seller')
    expect(html).toContain('SAR 249.00')
    expect(html).toContain('VAT (15%)')
    expect(html).toContain('SAR 37.35')
    expect(html).toContain('SAR 286.35')
    expect(html).toContain('12 months')
    const ar = render('ar', [yearly])
    expect(ar).toContain('286.35 ر.س')
    expect(ar).toContain('12 شهراً')
  })

  it('names each package at the heading level its page gives it, so the outline has no gap', () => {
    expect(render('en', [yearly], 2)).toContain('<h2 id="package-3" class="package-name">Yearly</h2>')
    expect(render('en', [yearly], 3)).toContain('<h3 id="package-3" class="package-name">Yearly</h3>')
  })
})
