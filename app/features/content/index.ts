export { contactSchema, type ContactInput } from './contact-schema.ts'
export { publicPages } from './public-pages.ts'
