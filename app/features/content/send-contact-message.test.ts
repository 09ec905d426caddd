import { describe, expect, it } from 'vitest'
import { contactMessages } from '#app/platform/db/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { contactSchema } from './contact-schema.ts'
import { CONTACT_LIMIT_PER_HOUR, sendContactMessage } from './send-contact-message.server.ts'

const testDb = setupTestDatabase()

const valid = { type: 'inquiry', name: 'نورة', email: 'Noura@School.SA ', message: 'متى يتوفر تحليل الدرجات للمرحلة الابتدائية؟' }

describe('contact schema', () => {
  it('accepts a complete message and trims it', () => {
    const parsed = contactSchema.parse(valid)
    expect(parsed.email).toBe('Noura@School.SA')
  })

  it('names each bad field with a translation key', () => {
    const result = contactSchema.safeParse({ type: 'spam', name: ' ', email: 'not-an-email', message: 'short' })
    expect(result.success).toBe(false)
    const byField = Object.fromEntries(result.error!.issues.map((i) => [String(i.path[0]), i.message]))
    expect(byField).toEqual({
      type: 'contact.errors.type',
      name: 'contact.errors.nameRequired',
      email: 'common.validation.email',
      message: 'contact.errors.messageTooShort',
    })
  })

  it('asks for missing fields', () => {
    const result = contactSchema.safeParse({})
    const fields = result.error!.issues.map((i) => `${String(i.path[0])}:${i.message}`)
    expect(fields).toContain('email:common.validation.emailRequired')
    expect(fields).toContain('message:contact.errors.messageRequired')
  })
})

describe('sendContactMessage', () => {
  it('stores the message with its type and language', async () => {
    const result = await sendContactMessage({ db: testDb().db, input: contactSchema.parse(valid), lang: 'ar', clientIp: '198.51.100.1' })
    expect(result.ok).toBe(true)
    const rows = await testDb().db.select().from(contactMessages)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ type: 'inquiry', name: 'نورة', email: 'noura@school.sa', lang: 'ar' })
  })

  it(`accepts ${CONTACT_LIMIT_PER_HOUR} messages an hour from one address, then refuses`, async () => {
    const input = contactSchema.parse(valid)
    const results = []
    for (let i = 0; i < CONTACT_LIMIT_PER_HOUR + 1; i++)
      results.push(await sendContactMessage({ db: testDb().db, input, lang: 'en', clientIp: '198.51.100.2' }))
    expect(results.filter((r) => r.ok)).toHaveLength(CONTACT_LIMIT_PER_HOUR)
    expect(results.at(-1)).toMatchObject({ ok: false, reason: 'rate_limited', retryAfterSeconds: expect.any(Number) })
  })
})
