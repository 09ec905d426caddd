import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { languages } from '#app/i18n/config.ts'
import { codePurposes } from '#app/platform/db/schema.ts'
import { failingMailer } from '#tests/factories.ts'
import type { Mailer, MailMessage } from '#app/platform/mail.server.ts'
import { codeEmail, sendCodeEmail } from './emails.server.ts'

describe('codeEmail', () => {
  const cases = languages.flatMap((lang) => codePurposes.map((purpose) => [lang, purpose] as const))

  it.each(cases)('has a translated %s email for %s codes, with the code on its own line', (lang, purpose) => {
    const { subject, text, html } = codeEmail(lang, purpose, 'Noura', '048213')
    expect(subject).not.toMatch(/^emails\./)
    expect(subject.length).toBeGreaterThan(5)
    expect(text).toMatch(/^048213$/m)
    expect(text).not.toMatch(/emails\./)
    expect(html).toContain(`<html lang="${lang}" dir="${lang === 'ar' ? 'rtl' : 'ltr'}">`)
    expect(html).toContain('048213')
  })

  it('escapes the name in the HTML part', () => {
    const { html, text } = codeEmail('en', 'activation', '<img src=x onerror="alert(1)">&', '123456')
    expect(html).not.toContain('<img')
    expect(html).toContain('&#60;img src=x onerror=&#34;alert(1)&#34;&#62;&#38;')
    expect(text).toContain('Hello <img src=x onerror="alert(1)">&,')
  })
})

describe('sendCodeEmail', () => {
  const options = { lang: 'ar', purpose: 'reset', to: 'noura@school.sa', name: 'نورة', code: '774411' } as const

  it("hands the mailer the message in the reader's language, with a hint for developers", async () => {
    const sent: MailMessage[] = []
    const mailer: Mailer = { kind: 'outbox', send: async (m) => void sent.push(m), close() {} }
    const logger = pino({ level: 'silent' })
    await expect(sendCodeEmail({ ...options, mailer, logger })).resolves.toBe(true)
    expect(sent).toEqual([
      expect.objectContaining({
        to: 'noura@school.sa',
        lang: 'ar',
        subject: 'رمز إعادة تعيين كلمة المرور في حلّل',
        consoleHint: 'reset code for noura@school.sa: 774411',
      }),
    ])
  })

  it('answers false when the mail server fails, logging neither the address nor the code', async () => {
    const lines: string[] = []
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) })
    await expect(sendCodeEmail({ ...options, mailer: failingMailer(), logger })).resolves.toBe(false)
    const log = lines.join('')
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ level: 50, errCode: 'ECONNREFUSED', purpose: 'reset', msg: 'mail not sent' })
    expect(log).not.toContain('noura@school.sa')
    expect(log).not.toContain('774411')
    expect(log).not.toContain('127.0.0.1')
  })
})
