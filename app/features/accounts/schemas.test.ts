import { describe, expect, it } from 'vitest'
import type { core } from 'zod/mini'
import { z } from '#app/lib/zod-mini.ts'
import { activateSchema, codeField, latinDigits, registerSchema, toSaudiE164 } from './schemas.ts'

const valid = {
  username: 'نورة_المطيري',
  email: ' Noura.T@School.SA ',
  phone: '0501234567',
  password: 'Sunrise-Falcon-42',
  password_confirmation: 'Sunrise-Falcon-42',
  terms: 'on',
}

/** Each failing field with its messages, e.g. { password: ['accounts.errors.passwordMin'] }. */
function issuesOf(schema: core.$ZodType, value: unknown): Record<string, string[]> {
  const result = z.safeParse(schema, value)
  if (result.success) return {}
  const byField: Record<string, string[]> = {}
  for (const issue of result.error.issues) (byField[issue.path.join('.')] ??= []).push(issue.message)
  return byField
}

describe('Saudi mobile numbers', () => {
  it.each([
    ['0501234567', '+966501234567'],
    ['501234567', '+966501234567'],
    ['966501234567', '+966501234567'],
    ['+966501234567', '+966501234567'],
    ['00966501234567', '+966501234567'],
    ['050 123 4567', '+966501234567'],
    ['+966 50 123 4567', '+966501234567'],
    ['(050) 123-4567', '+966501234567'],
    ['٠٥٠١٢٣٤٥٦٧', '+966501234567'],
    ['+٩٦٦ ٥٥ ٩٨٧ ٦٥٤٣', '+966559876543'],
    ['۰۵۰۱۲۳۴۵۶۷', '+966501234567'],
  ])('%s → %s', (typed, e164) => {
    expect(toSaudiE164(typed)).toBe(e164)
    expect(registerSchema.parse({ ...valid, phone: typed }).phone).toBe(e164)
  })

  it.each([
    ['a Riyadh landline', '0112345678'],
    ['a landline with the country code', '+966112345678'],
    ['a short number', '05012345'],
    ['a long number', '05012345678'],
    ['another country', '+971501234567'],
    ['letters', '05O1234567'],
  ])('refuses %s with phoneInvalid', (_, typed) => {
    expect(toSaudiE164(typed)).toBeNull()
    expect(issuesOf(registerSchema, { ...valid, phone: typed })).toEqual({ phone: ['accounts.errors.phoneInvalid'] })
  })

  it('asks for a missing number', () => {
    expect(issuesOf(registerSchema, { ...valid, phone: '  ' })).toEqual({ phone: ['accounts.errors.phoneRequired'] })
  })
})

describe('codes typed on an Arabic keyboard', () => {
  it('turns Arabic-Indic and Persian digits into Latin ones', () => {
    expect(latinDigits('٠١٢٣٤٥٦٧٨٩')).toBe('0123456789')
    expect(latinDigits('۰۱۲۳۴۵۶۷۸۹')).toBe('0123456789')
    expect(latinDigits('abc 12')).toBe('abc 12')
  })

  it.each(['123456', '١٢٣٤٥٦', '۱۲۳۴۵۶', '١٢٣ ٤٥٦', ' 123 456 '])('accepts %s as 123456', (typed) => {
    expect(codeField.parse(typed)).toBe('123456')
    expect(activateSchema.parse({ email: 'a@b.sa', code: typed }).code).toBe('123456')
  })

  it('says only that an empty code is required', () => {
    expect(issuesOf(codeField, '')).toEqual({ '': ['accounts.errors.codeRequired'] })
  })

  it.each(['12345', '1234567', '12a456'])('refuses %j with codeFormat', (typed) => {
    expect(issuesOf(codeField, typed)).toEqual({ '': ['accounts.errors.codeFormat'] })
  })
})

describe('registration form', () => {
  it('accepts a complete form, lower-cases the email and normalises the phone', () => {
    const parsed = registerSchema.parse(valid)
    expect(parsed).toMatchObject({ username: 'نورة_المطيري', email: 'noura.t@school.sa', phone: '+966501234567', terms: true })
  })

  it.each([
    ['short', 'Ab1defg', 'accounts.errors.passwordMin'],
    ['without an uppercase letter', 'sunrise-falcon-42', 'accounts.errors.passwordUppercase'],
    ['without a number', 'Sunrise-Falcon', 'accounts.errors.passwordNumber'],
    ['too long', `Aa1${'x'.repeat(126)}`, 'accounts.errors.passwordMax'],
  ])('refuses a password %s', (_, password, key) => {
    expect(issuesOf(registerSchema, { ...valid, password, password_confirmation: password })).toEqual({ password: [key] })
  })

  it('says only that an empty password is required, not the four rules it would break', () => {
    const issues = issuesOf(registerSchema, { ...valid, password: '', password_confirmation: 'x' })
    expect(issues.password).toEqual(['accounts.errors.passwordRequired'])
  })

  it('counts Arabic-Indic digits and a 128-character password as valid', () => {
    expect(registerSchema.safeParse({ ...valid, password: 'Sunrise-Falcon-٤٢', password_confirmation: 'Sunrise-Falcon-٤٢' }).success).toBe(
      true,
    )
    const longest = `Aa1${'x'.repeat(125)}`
    expect(registerSchema.safeParse({ ...valid, password: longest, password_confirmation: longest }).success).toBe(true)
  })

  it('reports a confirmation that does not match on password_confirmation', () => {
    expect(issuesOf(registerSchema, { ...valid, password_confirmation: 'Sunrise-Falcon-43' })).toEqual({
      password_confirmation: ['accounts.errors.confirmMatch'],
    })
  })

  it('asks for a missing confirmation', () => {
    expect(issuesOf(registerSchema, { ...valid, password_confirmation: '' })).toEqual({
      password_confirmation: ['accounts.errors.confirmRequired'],
    })
  })

  it.each([['on'], [true], ['true'], ['1']])('accepts the terms as %j', (terms) => {
    expect(registerSchema.parse({ ...valid, terms }).terms).toBe(true)
  })

  it.each([[undefined], [false], ['off'], ['']])('refuses terms %j', (terms) => {
    expect(issuesOf(registerSchema, { ...valid, terms })).toEqual({ terms: ['accounts.errors.terms'] })
  })

  it('names bad emails and usernames with their keys', () => {
    expect(issuesOf(registerSchema, { ...valid, email: 'not-an-email' })).toEqual({ email: ['accounts.errors.email'] })
    expect(issuesOf(registerSchema, { ...valid, email: '' })).toEqual({ email: ['accounts.errors.emailRequired'] })
    expect(issuesOf(registerSchema, { ...valid, username: 'ab' })).toEqual({ username: ['accounts.errors.usernameShort'] })
    expect(issuesOf(registerSchema, { ...valid, username: 'noura<script>' })).toEqual({ username: ['accounts.errors.usernameChars'] })
  })
})
