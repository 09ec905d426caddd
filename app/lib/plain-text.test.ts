import { describe, expect, it } from 'vitest'
import { registerSchema, profileSchema, reviewSchema } from '#app/features/accounts/schemas.ts'
import { listAnalyses, renameAnalysis, saveAnalysis } from '#app/features/analyses/index.server.ts'
import { contactSchema } from '#app/features/content/schemas.ts'
import { examSchema } from '#app/features/exams/schemas.ts'
import { users } from '#app/platform/db/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { sampleExamBody } from '#tests/exams.ts'
import { withoutBidiControls } from './plain-text.ts'

// Every bidirectional control of the list, and the marks that stay.
const controls = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069']
const wrap = (text: string) => `\u202E${text}\u2066\u202C`
const hasControl = (text: string) => controls.some((c) => text.includes(c))

const testDb = setupTestDatabase()

describe('bidirectional controls', () => {
  it('are all removed; the LRM, RLM and ALM marks and the text around them stay', () => {
    expect(withoutBidiControls(`a${controls.join('')}b`)).toBe('ab')
    expect(withoutBidiControls('\u200Eنورة\u200F\u061C 05')).toBe('\u200Eنورة\u200F\u061C 05')
  })

  it('never reach an account: registration, profile and review fields', () => {
    const registered = registerSchema.parse({
      username: wrap('نورة_المعلمة'),
      email: wrap('noura@school.sa'),
      phone: wrap('0501234567'),
      password: 'Sunrise-Falcon-42',
      password_confirmation: 'Sunrise-Falcon-42',
      terms: 'on',
    })
    expect([registered.username, registered.email, registered.phone]).toEqual(['نورة_المعلمة', 'noura@school.sa', '+966501234567'])
    expect(profileSchema.parse({ username: wrap('Noura T') }).username).toBe('Noura T')
    expect(reviewSchema.parse({ rating: 5, comment: wrap('منصة رائعة') }).comment).toBe('منصة رائعة')
  })

  it('never reach a contact message', () => {
    const message = contactSchema.parse({
      type: 'other',
      name: wrap('Huda'),
      email: wrap('huda@family.sa'),
      message: wrap('A question about 1000 SAR'),
    })
    expect([message.name, message.email, message.message]).toEqual(['Huda', 'huda@family.sa', 'A question about 1000 SAR'])
  })

  it('never reach a test: its header and every question, option and pair', () => {
    const body = sampleExamBody()
    const poisoned = JSON.parse(
      JSON.stringify(body, (key, value: unknown) => (typeof value === 'string' && !['type', 'date'].includes(key) ? wrap(value) : value)),
    ) as typeof body
    const exam = examSchema.parse(poisoned)
    expect(exam).toEqual(examSchema.parse(body))
    expect(hasControl(JSON.stringify(exam))).toBe(false)
  })

  it('never reach an analysis title, saved or renamed', async () => {
    const db = testDb().db
    const [user] = await db
      .insert(users)
      .values({ username: 'bidi', email: 'bidi@example.sa', phone: '+966551234567', passwordHash: 'x', emailVerifiedAt: new Date() })
      .returning()
    const saved = await saveAnalysis({
      db,
      input: {
        userId: user!.id,
        kind: 'absence',
        title: wrap('الأسبوع الأول'),
        meta: {},
        headline: {},
        report: {},
        records: [],
      },
    })
    expect((await listAnalyses({ db, userId: user!.id })).map((a) => a.title)).toEqual(['الأسبوع الأول'])
    await renameAnalysis({ db, userId: user!.id, id: saved.id, title: wrap('الأسبوع الثاني') })
    expect((await listAnalyses({ db, userId: user!.id })).map((a) => a.title)).toEqual(['الأسبوع الثاني'])
  })
})
