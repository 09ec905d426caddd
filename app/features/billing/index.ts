export { priceBreakdown, vatOf, type PriceBreakdown } from './vat.ts'
export type { PackageView } from './list-packages.server.ts'
export { PackageCard, PackageGrid } from './package-card.tsx'
export {
  appleMerchantSession,
  cardSource,
  confirmStcPay,
  createBrowserPayment,
  stcPaySource,
  type PayError,
  type PayStep,
} from './gateway-browser.ts'
