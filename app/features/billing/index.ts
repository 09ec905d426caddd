export { priceBreakdown, vatOf, type PriceBreakdown } from './vat.ts'
export type { PackageView } from './list-packages.server.ts'
export { PackageCard, PackageGrid } from './package-card.tsx'
