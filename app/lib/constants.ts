// Values shared by the database schema, the zod schemas and the UI (client-safe, no imports).

export const contactMessageTypes = ['request', 'suggestion', 'inquiry', 'complaint', 'other'] as const
export type ContactMessageType = (typeof contactMessageTypes)[number]
