import type { Lang } from '#app/i18n/config.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { contactMessages } from '#app/platform/db/schema.ts'
import { hitRateLimit } from '#app/platform/rate-limit.server.ts'
import type { ContactInput } from './contact-schema.ts'

export const CONTACT_LIMIT_PER_HOUR = 5

export type SendContactMessageOptions = { db: Db; input: ContactInput; lang: Lang; clientIp: string }
export type SendContactMessageResult = { ok: true; id: string } | { ok: false; reason: 'rate_limited'; retryAfterSeconds: number }

/** Stores a message from the contact form or the API, at most five an hour from one address. */
export async function sendContactMessage({ db, input, lang, clientIp }: SendContactMessageOptions): Promise<SendContactMessageResult> {
  const limit = await hitRateLimit({ db, key: `contact:ip:${clientIp}`, limit: CONTACT_LIMIT_PER_HOUR, windowSeconds: 3600 })
  if (!limit.allowed) return { ok: false, reason: 'rate_limited', retryAfterSeconds: limit.retryAfterSeconds }
  const [row] = await db
    .insert(contactMessages)
    .values({ type: input.type, name: input.name, email: input.email.toLowerCase(), message: input.message, lang })
    .returning({ id: contactMessages.id })
  if (!row) throw new Error('contact message insert returned no row')
  return { ok: true, id: row.id }
}
