export { publicPages } from './public-pages.ts'
export { FaqList, type FaqItem } from './faq-list.tsx'
export { LegalPage, LEGAL_UPDATED_ON } from './legal-page.tsx'
export { ProductShots } from './product-shots.tsx'
