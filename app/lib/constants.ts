// Values shared by the database schema, the zod schemas and the UI (client-safe, no imports).

export const contactMessageTypes = ['request', 'suggestion', 'inquiry', 'complaint', 'other'] as const
export type ContactMessageType = (typeof contactMessageTypes)[number]

/** Whom a school teaches: Saudi schools are for boys or for girls, and a letter to a guardian says which. */
export const schoolStudents = ['boys', 'girls'] as const
export type SchoolStudents = (typeof schoolStudents)[number]

/** How old a public listing (packages, approved reviews) may be when a page shows it. */
export const PUBLIC_LIST_TTL_MS = 15_000
