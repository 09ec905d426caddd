// The feature's form schemas, apart from index.ts so pages that show no form do not load zod.
export { contactSchema, type ContactInput } from './contact-schema.ts'
