import { schoolStudents } from '#app/lib/constants.ts'
import { plainText } from '#app/lib/plain-text.ts'
import { required } from '#app/lib/required.ts'
import { z } from '#app/lib/zod-mini.ts'

// The account forms, shared by the pages (instant feedback), their actions and /api/v1/auth.
// Messages are translation keys of the `accounts` namespace (the English texts are the product's).
// Written with zod/mini: the same rules as zod's chained API in a fraction of the bytes the sign-in
// and registration pages send to the browser.

const ARABIC_INDIC = /[\u0660-\u0669\u06F0-\u06F9]/g

/** ٠١٢٣ and ۰۱۲۳ → 0123, so codes and phone numbers typed on an Arabic keyboard are accepted. */
export function latinDigits(value: string): string {
  return value.replace(ARABIC_INDIC, (d) => String((d.charCodeAt(0) & 0xf) % 10))
}

/** A Saudi mobile number as 05xxxxxxxx, 5xxxxxxxx, 9665xxxxxxxx or +9665xxxxxxxx → +9665xxxxxxxx. */
export function toSaudiE164(value: string): string | null {
  const digits = latinDigits(value).replace(/[\s()-]/g, '')
  const match = /^(?:\+?966|00966|0)?(5\d{8})$/.exec(digits)
  return match ? `+966${match[1]}` : null
}

export const emailField = z.pipe(
  z.pipe(
    z
      .string({ error: 'accounts.errors.emailRequired' })
      .check(plainText(), z.trim(), required('accounts.errors.emailRequired'), z.maxLength(254, 'accounts.errors.email')),
    z.email('accounts.errors.email'),
  ),
  z.transform((v: string) => v.toLowerCase()),
)

/** A password that must be given, with the further rules of its use. */
const password = (...checks: Array<z.core.$ZodCheck<string>>) =>
  z.string({ error: 'accounts.errors.passwordRequired' }).check(required('accounts.errors.passwordRequired'), ...checks)

const passwordRequired = password()

/** A new password: 8+ characters with an uppercase letter and a number (the common-list check is on the server). */
export const newPasswordField = password(
  z.minLength(8, 'accounts.errors.passwordMin'),
  z.maxLength(128, 'accounts.errors.passwordMax'),
  z.regex(/\p{Lu}/u, 'accounts.errors.passwordUppercase'),
  z.regex(/\p{Nd}/u, 'accounts.errors.passwordNumber'),
)

export const confirmationField = z.string({ error: 'accounts.errors.confirmRequired' }).check(required('accounts.errors.confirmRequired'))

const usernameField = z
  .string({ error: 'accounts.errors.usernameRequired' })
  .check(
    plainText(),
    z.trim(),
    required('accounts.errors.usernameRequired'),
    z.minLength(3, 'accounts.errors.usernameShort'),
    z.maxLength(40, 'accounts.errors.usernameLong'),
    z.regex(/^[\p{L}\p{N}_. -]+$/u, 'accounts.errors.usernameChars'),
  )

const phoneField = z.pipe(
  z.string({ error: 'accounts.errors.phoneRequired' }).check(plainText(), z.trim(), required('accounts.errors.phoneRequired')),
  z.transform((v: string, ctx) => {
    const e164 = toSaudiE164(v)
    if (!e164) {
      ctx.issues.push({ code: 'custom', message: 'accounts.errors.phoneInvalid', input: v })
      return z.NEVER
    }
    return e164
  }),
)

/** The confirmation matches the password (reported on the confirmation field). */
export const passwordsMatch = z.superRefine((value: { password: string; password_confirmation: string }, ctx) => {
  if (value.password_confirmation && value.password && value.password !== value.password_confirmation)
    ctx.addIssue({ code: 'custom', path: ['password_confirmation'], message: 'accounts.errors.confirmMatch', input: value })
})

const accepted = z.pipe(
  z.transform((v: unknown) => v === true || v === 'true' || v === 'on' || v === '1' || v === 1),
  z.literal(true, { error: 'accounts.errors.terms' }),
)

export const registerSchema = z
  .object({
    username: usernameField,
    email: emailField,
    phone: phoneField,
    password: newPasswordField,
    password_confirmation: confirmationField,
    terms: accepted,
  })
  .check(passwordsMatch)

export const loginSchema = z.object({ email: emailField, password: password(z.maxLength(128, 'accounts.errors.passwordMax')) })

export const codeField = z.pipe(
  z.pipe(
    z.string({ error: 'accounts.errors.codeRequired' }),
    z.transform((v: string) => latinDigits(v).replace(/\s/g, '')),
  ),
  z.string().check(required('accounts.errors.codeRequired'), z.regex(/^\d{6}$/, 'accounts.errors.codeFormat')),
)

export const activateSchema = z.object({ email: emailField, code: codeField })

export const resendSchema = z.object({
  email: emailField,
  purpose: z.enum(['activation', 'reset', 'change_email', 'change_password'], { error: 'accounts.errors.purpose' }),
})

const temporaryToken = z.string().check(z.minLength(10, 'accounts.errors.flowExpired'), z.maxLength(200))

export const forgotPasswordSchema = z.object({ email: emailField })
export const verifyResetCodeSchema = z.object({ temporary_token: temporaryToken, code: codeField })
export const resetPasswordSchema = z
  .object({ temporary_token: temporaryToken, password: newPasswordField, password_confirmation: confirmationField })
  .check(passwordsMatch)

const FULL_NAME_MAX = 100
// Letters of the name's script, with its marks (harakat), spaces, dots, hyphens and apostrophes.
const arabicName = /^(?=.*\p{L})[\p{Script=Arabic}\p{M} .'-]+$/u
const latinName = /^(?=.*\p{L})[\p{Script=Latin}\p{M} .'-]+$/u

/** A full name, its inner spaces collapsed; empty is null (none given, or cleared). */
const fullName = (letters: RegExp, lettersKey: string) =>
  z.pipe(
    z.nullable(z.string({ error: lettersKey }).check(plainText(), z.trim(), z.maxLength(FULL_NAME_MAX, 'accounts.errors.fullNameLong'))),
    z.transform((v: string | null, ctx) => {
      const name = (v ?? '').replace(/\s+/g, ' ')
      if (name === '') return null
      if (!letters.test(name)) {
        ctx.issues.push({ code: 'custom', message: lettersKey, input: v })
        return z.NEVER
      }
      return name
    }),
  )

export const fullNameArField = fullName(arabicName, 'accounts.errors.fullNameArabic')
export const fullNameEnField = fullName(latinName, 'accounts.errors.fullNameLatin')

/** The step after activation: the Arabic name is asked for (skipping is its own button), the English one optional. */
export const fullNameSchema = z.object({ full_name_ar: fullNameArField, full_name_en: z.optional(fullNameEnField) }).check(
  z.superRefine((value: { full_name_ar: string | null }, ctx) => {
    if (value.full_name_ar === null)
      ctx.addIssue({ code: 'custom', path: ['full_name_ar'], message: 'accounts.errors.fullNameRequired', input: value })
  }),
)

/** Absent fields stay as they are; an empty full name clears it. */
export const profileSchema = z.object({
  username: z.optional(usernameField),
  phone: z.optional(phoneField),
  full_name_ar: z.optional(fullNameArField),
  full_name_en: z.optional(fullNameEnField),
})

export const changePasswordSchema = z
  .object({ current_password: passwordRequired, password: newPasswordField, password_confirmation: confirmationField })
  .check(passwordsMatch)

export const changeEmailSchema = z.object({ email: emailField, password: passwordRequired })
export const confirmCodeSchema = z.object({ code: codeField })
export const deleteAccountSchema = z.object({ password: passwordRequired })

/** The second factor: six digits from the authenticator app, or a recovery code (ten letters and digits, dash optional). */
export const secondFactorCodeField = z.pipe(
  z.pipe(
    z.string({ error: 'accounts.errors.codeRequired' }),
    z.transform((v: string) => latinDigits(v).replace(/[\s-]/g, '').toLowerCase()),
  ),
  z.string().check(required('accounts.errors.codeRequired'), z.regex(/^(\d{6}|[a-z2-7]{10})$/, 'accounts.errors.twoFactorCodeFormat')),
)
export const secondFactorSchema = z.object({ code: secondFactorCodeField })
export const twoFactorLoginSchema = z.object({
  two_factor_token: z
    .string()
    .check(z.minLength(10, 'accounts.errors.twoFactorExpired'), z.maxLength(200, 'accounts.errors.twoFactorExpired')),
  code: secondFactorCodeField,
})
export const disableTwoFactorSchema = z.object({ password: passwordRequired, code: secondFactorCodeField })

export const reviewSchema = z.object({
  rating: z.pipe(
    z.coerce.number({ error: 'accounts.errors.rating' }),
    z.int({ error: 'accounts.errors.rating' }).check(z.gte(1, 'accounts.errors.rating'), z.lte(5, 'accounts.errors.rating')),
  ),
  comment: z
    .string({ error: 'accounts.errors.commentRequired' })
    .check(plainText(), z.trim(), required('accounts.errors.commentRequired'), z.maxLength(1000, 'accounts.errors.commentLong')),
})

export type RegisterInput = z.infer<typeof registerSchema>

const SCHOOL_TEXT_MAX = 120

/** A line of the school's details as typed, its inner spaces collapsed; empty is null. */
const schoolText = z.pipe(
  z.nullable(
    z
      .string({ error: 'accounts.errors.schoolTextLong' })
      .check(plainText(), z.trim(), z.maxLength(SCHOOL_TEXT_MAX, 'accounts.errors.schoolTextLong')),
  ),
  z.transform((v: string | null) => {
    const text = (v ?? '').replace(/\s+/g, ' ')
    return text === '' ? null : text
  }),
)

/**
 * The school's details printed on the follow-up documents (issue 18): the school's name is
 * required, the education office and the two names may be filled in later (the documents leave a
 * line for them). `remove_logo` (a checkbox, or true in JSON) takes the logo off; a new logo is a
 * file beside the fields, checked like the profile picture.
 */
export const schoolDetailsSchema = z.object({
  school_name: z.pipe(
    z
      .string({ error: 'accounts.errors.schoolNameRequired' })
      .check(
        plainText(),
        z.trim(),
        required('accounts.errors.schoolNameRequired'),
        z.maxLength(SCHOOL_TEXT_MAX, 'accounts.errors.schoolTextLong'),
      ),
    z.transform((v: string) => v.replace(/\s+/g, ' ')),
  ),
  education_office: z.optional(schoolText),
  principal_name: z.optional(schoolText),
  counsellor_name: z.optional(schoolText),
  /** Boys or girls (absent: kept as it was; a new school is for boys until she says otherwise). */
  students: z.optional(z.enum(schoolStudents, { error: 'accounts.errors.schoolStudents' })),
  remove_logo: z.optional(
    z.pipe(
      z.union([z.boolean(), z.literal('on'), z.literal('true'), z.literal('false'), z.literal('')]),
      z.transform((v: boolean | '' | 'on' | 'true' | 'false') => v === true || v === 'on' || v === 'true'),
    ),
  ),
})
export type SchoolDetailsInput = z.infer<typeof schoolDetailsSchema>
