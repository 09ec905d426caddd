// Values shared by the database schema, the zod schemas and the UI (client-safe, no imports).

export const contactMessageTypes = ['request', 'suggestion', 'inquiry', 'complaint', 'other'] as const
export type ContactMessageType = (typeof contactMessageTypes)[number]

/** How old a public listing (packages, approved reviews) may be when a page shows it. */
export const PUBLIC_LIST_TTL_MS = 15_000
