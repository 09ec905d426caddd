import { describe, expect, it } from 'vitest'
import type { core } from 'zod/mini'
import * as accounts from '#app/features/accounts/schemas.ts'
import { contactSchema } from '#app/features/content/schemas.ts'
import { fieldErrorsOf } from './forms.ts'
import { z } from './zod-mini.ts'

// Every form of the site, sent with each field empty (as a browser sends it): the field says
// only that it is required, never also the rules an empty value breaks besides.
const forms: Record<string, { schema: core.$ZodType; fields: Record<string, string> }> = {
  register: {
    schema: accounts.registerSchema,
    fields: {
      username: 'نورة_المطيري',
      email: 'noura@school.sa',
      phone: '0501234567',
      password: 'Sunrise-Falcon-42',
      password_confirmation: 'Sunrise-Falcon-42',
      terms: 'on',
    },
  },
  login: { schema: accounts.loginSchema, fields: { email: 'noura@school.sa', password: 'x' } },
  activate: { schema: accounts.activateSchema, fields: { email: 'noura@school.sa', code: '123456' } },
  forgotPassword: { schema: accounts.forgotPasswordSchema, fields: { email: 'noura@school.sa' } },
  verifyResetCode: { schema: accounts.verifyResetCodeSchema, fields: { temporary_token: 'x'.repeat(20), code: '123456' } },
  resetPassword: {
    schema: accounts.resetPasswordSchema,
    fields: { temporary_token: 'x'.repeat(20), password: 'Sunrise-Falcon-42', password_confirmation: 'Sunrise-Falcon-42' },
  },
  changePassword: {
    schema: accounts.changePasswordSchema,
    fields: { current_password: 'x', password: 'Sunrise-Falcon-42', password_confirmation: 'Sunrise-Falcon-42' },
  },
  changeEmail: { schema: accounts.changeEmailSchema, fields: { email: 'noura@school.sa', password: 'x' } },
  confirmCode: { schema: accounts.confirmCodeSchema, fields: { code: '123456' } },
  deleteAccount: { schema: accounts.deleteAccountSchema, fields: { password: 'x' } },
  secondFactor: { schema: accounts.secondFactorSchema, fields: { code: '123456' } },
  disableTwoFactor: { schema: accounts.disableTwoFactorSchema, fields: { password: 'x', code: '123456' } },
  fullName: { schema: accounts.fullNameSchema, fields: { full_name_ar: 'نورة بنت سعد العتيبي', full_name_en: '' } },
  review: { schema: accounts.reviewSchema, fields: { rating: '5', comment: 'مفيد جدًا' } },
  contact: {
    schema: contactSchema,
    fields: { type: 'inquiry', name: 'نورة', email: 'noura@school.sa', message: 'سؤال عن الباقات السنوية' },
  },
}

// Fields whose empty value is a different question than "required" (a token the page carries).
const notAsked = new Set(['temporary_token', 'terms', 'type', 'rating', 'full_name_en'])

describe('an empty field', () => {
  for (const [form, { schema, fields }] of Object.entries(forms)) {
    it(`of the ${form} form says only that it is required`, () => {
      expect(z.safeParse(schema, fields).success).toBe(true)
      for (const field of Object.keys(fields).filter((f) => !notAsked.has(f))) {
        // A password keeps its spaces (they are characters of it); other fields are trimmed.
        for (const empty of /password/.test(field) ? [''] : ['', '   ']) {
          const parsed = z.safeParse(schema, { ...fields, [field]: empty })
          expect(parsed.success, `${form}.${field} empty`).toBe(false)
          const errors = fieldErrorsOf(parsed.error!)
          expect(errors[field], `${form}.${field}`).toHaveLength(1)
          expect(errors[field]?.[0], `${form}.${field}`).toMatch(/Required$/)
        }
      }
    })
  }
})
