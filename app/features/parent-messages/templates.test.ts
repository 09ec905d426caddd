import { describe, expect, it } from 'vitest'
import { ladderPresets } from '#app/features/follow-up/index.ts'
import { z } from '#app/lib/zod-mini.ts'
import { defaultTemplates } from './store.server.ts'
import { studentMessages } from './student-messages.ts'
import {
  arabicPlaceholders,
  fillTemplate,
  messageTemplatesSchema,
  placeholders,
  templateFields,
  templatesWire,
  unknownPlaceholders,
  whatsAppUrl,
  type MessageTemplates,
} from './templates.ts'

const values = { student: 'سارة علي أحمد', classroom: 'الأول المتوسط / 1', count: '4', dates: '٣ و٤ ربيع الأول', school: 'متوسطة النور' }

describe('filling a template', () => {
  it('puts each placeholder’s value in, as often as it appears, and leaves an unknown one as written', () => {
    expect(fillTemplate('{student} ({classroom}): {count} أيام — {student} · {school} · {dates} · {name}', values)).toBe(
      'سارة علي أحمد (الأول المتوسط / 1): 4 أيام — سارة علي أحمد · متوسطة النور · ٣ و٤ ربيع الأول · {name}',
    )
  })
  it('names the placeholders it does not know', () => {
    expect(unknownPlaceholders('{student} {name} {Count} {} {اسم}')).toEqual(['name', 'Count', '', 'اسم'])
    expect(unknownPlaceholders(placeholders.map((p) => `{${p}} {${arabicPlaceholders[p]}}`).join(' '))).toEqual([])
  })
  it('fills the Arabic names as the English ones, in either language’s template', () => {
    const arabic = '{اسم الطالب} ({الصف والفصل}): {عدد الأيام} · {التواريخ} · {اسم المدرسة}'
    expect(fillTemplate(arabic, values)).toBe(fillTemplate('{student} ({classroom}): {count} · {dates} · {school}', values))
    expect(fillTemplate(arabic, values)).toBe('سارة علي أحمد (الأول المتوسط / 1): 4 · ٣ و٤ ربيع الأول · متوسطة النور')
  })
})

describe('WhatsApp’s link', () => {
  it('encodes Arabic text as UTF-8, spaces as %20, and goes to the number when there is one', () => {
    // غ U+063A → D8 BA, ا U+0627 → D8 A7, ب U+0628 → D8 A8; ع D8 B9, ل D9 84, ي D9 8A; و D9 88, م D9 85.
    expect(whatsAppUrl('غاب علي اليوم', '966551234567')).toBe(
      'https://wa.me/966551234567?text=%D8%BA%D8%A7%D8%A8%20%D8%B9%D9%84%D9%8A%20%D8%A7%D9%84%D9%8A%D9%88%D9%85',
    )
    expect(whatsAppUrl('a & b?\nc')).toBe('https://wa.me/?text=a%20%26%20b%3F%0Ac')
  })
  it('leaves out a number that is not digits', () => {
    expect(whatsAppUrl('x', '+966 55')).toBe('https://wa.me/?text=x')
  })
})

describe('the templates form', () => {
  const defaults = templatesWire(defaultTemplates())
  it('has twelve fields, Arabic first, and the defaults pass it in both languages', () => {
    expect(templateFields).toHaveLength(12)
    expect(templateFields[0]).toBe('ar_first_warning')
    expect(templateFields.at(-1)).toBe('en_same_day')
    const parsed = z.safeParse(messageTemplatesSchema, defaults)
    expect(parsed.success).toBe(true)
    // The defaults are short, say the school will follow up, and use the placeholders: the
    // Arabic ones by their Arabic names, the English ones by theirs.
    const arabic = Object.entries(defaults).filter(([field]) => field.startsWith('ar_'))
    expect(arabic.filter(([, text]) => /\{[a-z]+\}/.test(text))).toEqual([])
    for (const [field, text] of Object.entries(defaults)) {
      expect(text.length).toBeLessThan(400)
      const names = field.startsWith('ar_') ? arabicPlaceholders : { student: 'student', school: 'school' }
      expect(text).toContain(`{${names.student}}`)
      expect(text).toContain(`{${names.school}}`)
      expect(text).toMatch(/ستتابع المدرسة|the school will follow up/)
    }
  })
  it('refuses an empty text, a text too long, and an unknown placeholder, each with its message key', () => {
    const parsed = z.safeParse(messageTemplatesSchema, {
      ...defaults,
      ar_first_warning: '  ',
      en_same_day: 'x'.repeat(1001),
      ar_guardian_pledge: 'ولي أمر {name}',
    })
    expect(parsed.success).toBe(false)
    const issues = parsed.error?.issues.map((i) => [i.path.join('.'), i.message]) ?? []
    expect(issues).toEqual(
      expect.arrayContaining([
        ['ar_first_warning', 'parent-messages.errors.required'],
        ['en_same_day', 'parent-messages.errors.tooLong'],
        ['ar_guardian_pledge', 'parent-messages.errors.placeholder'],
      ]),
    )
    const missing = { ...defaults }
    delete missing.en_first_warning
    expect(z.safeParse(messageTemplatesSchema, missing).success).toBe(false)
  })
})

describe('a student’s messages', () => {
  const templates: MessageTemplates = {
    ar: {
      ...defaultTemplates().ar,
      secondWarning: '{student} · {classroom} · {count} · {dates} · {school}',
      sameDay: 'اليوم {dates} · {student}',
    },
    en: { ...defaultTemplates().en, firstWarning: '{student}: {count} days ({dates}) — {school}', sameDay: 'Absent {dates}' },
  }
  const base = { name: 'سارة علي أحمد', grade: 'الأول المتوسط', classroom: '1' }

  it('gives the step’s message with the unexcused dates (Umm al-Qura in Arabic) and the same-day one for the latest day', () => {
    const [step, sameDay] = studentMessages({
      student: {
        ...base,
        unexcused: 5,
        guardianMobile: '966551234567',
        absences: [
          { date: '2025-08-24', type: 'unexcused' },
          { date: '2025-08-25', type: 'excused' },
          { date: '2025-08-26', type: 'unexcused' },
        ],
      },
      ladder: ladderPresets.standard,
      templates,
      lang: 'ar',
      school: 'متوسطة النور',
      noDates: '—',
    })
    // 5 unexcused days: the second warning. 24 August 2025 was 1 Rabi al-Awwal 1447; the 26th the 3rd.
    expect(step?.kind).toBe('secondWarning')
    expect(step?.text).toMatch(/^سارة علي أحمد · الأول المتوسط \/ 1 · 5 · .*1.*ربيع الأول.*3.*ربيع الأول.* · متوسطة النور$/)
    expect(step?.text).not.toMatch(/\b2\b.*ربيع/)
    expect(step?.whatsApp.startsWith('https://wa.me/966551234567?text=')).toBe(true)
    expect(decodeURIComponent(step?.whatsApp.split('?text=')[1] ?? '')).toBe(step?.text)
    expect(sameDay).toMatchObject({ kind: 'sameDay', hasNumber: true })
    expect(sameDay?.text).toMatch(/^اليوم .*3.*ربيع الأول.* · سارة علي أحمد$/)
  })

  it('a totals file: the step’s message says the file has no dates, and there is no same-day message', () => {
    const messages = studentMessages({
      student: { ...base, unexcused: 3 },
      ladder: ladderPresets.standard,
      templates,
      lang: 'en',
      school: 'Al Noor',
      noDates: 'dates not in the file',
    })
    expect(messages).toEqual([
      {
        kind: 'firstWarning',
        text: 'سارة علي أحمد: 3 days (dates not in the file) — Al Noor',
        whatsApp: `https://wa.me/?text=${encodeURIComponent('سارة علي أحمد: 3 days (dates not in the file) — Al Noor')}`,
        hasNumber: false,
      },
    ])
  })

  it('no absence, no message; below the first step, only the same-day one', () => {
    const none = studentMessages({
      student: { ...base, unexcused: 0, absences: [] },
      ladder: ladderPresets.standard,
      templates,
      lang: 'en',
      school: 'S',
      noDates: '—',
    })
    expect(none).toEqual([])
    const one = studentMessages({
      student: { ...base, unexcused: 2, absences: [{ date: '2025-09-01', type: 'unexcused' }] },
      ladder: ladderPresets.standard,
      templates,
      lang: 'en',
      school: 'S',
      noDates: '—',
    })
    expect(one.map((m) => [m.kind, m.text])).toEqual([['sameDay', 'Absent 1 Sept 2025']])
  })
})
