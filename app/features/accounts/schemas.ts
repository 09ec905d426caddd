import { z } from '#app/lib/zod.ts'

// The account forms, shared by the pages (instant feedback), their actions and /api/v1/auth.
// Messages are translation keys of the `accounts` namespace (the English texts are the product's).

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

export const emailField = z
  .string({ error: 'accounts.errors.emailRequired' })
  .trim()
  .min(1, 'accounts.errors.emailRequired')
  .max(254, 'accounts.errors.email')
  .pipe(z.email('accounts.errors.email'))
  .transform((v) => v.toLowerCase())

const passwordRequired = z.string({ error: 'accounts.errors.passwordRequired' }).min(1, 'accounts.errors.passwordRequired')

/** A new password: 8+ characters with an uppercase letter and a number (the common-list check is on the server). */
export const newPasswordField = passwordRequired
  .min(8, 'accounts.errors.passwordMin')
  .max(128, 'accounts.errors.passwordMax')
  .regex(/\p{Lu}/u, 'accounts.errors.passwordUppercase')
  .regex(/\p{Nd}/u, 'accounts.errors.passwordNumber')

const confirmation = z.string({ error: 'accounts.errors.confirmRequired' }).min(1, 'accounts.errors.confirmRequired')

const usernameField = z
  .string({ error: 'accounts.errors.usernameRequired' })
  .trim()
  .min(1, 'accounts.errors.usernameRequired')
  .min(3, 'accounts.errors.usernameShort')
  .max(40, 'accounts.errors.usernameLong')
  .regex(/^[\p{L}\p{N}_. -]+$/u, 'accounts.errors.usernameChars')

const phoneField = z
  .string({ error: 'accounts.errors.phoneRequired' })
  .trim()
  .min(1, 'accounts.errors.phoneRequired')
  .transform((v, ctx) => {
    const e164 = toSaudiE164(v)
    if (!e164) {
      ctx.addIssue({ code: 'custom', message: 'accounts.errors.phoneInvalid' })
      return z.NEVER
    }
    return e164
  })

const mustMatch = <T extends { password: string; password_confirmation: string }>(value: T, ctx: z.RefinementCtx) => {
  if (value.password_confirmation && value.password && value.password !== value.password_confirmation)
    ctx.addIssue({ code: 'custom', path: ['password_confirmation'], message: 'accounts.errors.confirmMatch' })
}

const accepted = z.preprocess(
  (v) => v === true || v === 'true' || v === 'on' || v === '1' || v === 1,
  z.literal(true, { error: 'accounts.errors.terms' }),
)

export const registerSchema = z
  .object({
    username: usernameField,
    email: emailField,
    phone: phoneField,
    password: newPasswordField,
    password_confirmation: confirmation,
    terms: accepted,
  })
  .superRefine(mustMatch)

export const loginSchema = z.object({ email: emailField, password: passwordRequired.max(128, 'accounts.errors.passwordMax') })

export const codeField = z
  .string({ error: 'accounts.errors.codeRequired' })
  .transform((v) => latinDigits(v).replace(/\s/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'accounts.errors.codeFormat'))

export const activateSchema = z.object({ email: emailField, code: codeField })

export const resendSchema = z.object({
  email: emailField,
  purpose: z.enum(['activation', 'reset', 'change_email', 'change_password'], { error: 'accounts.errors.purpose' }),
})

export const forgotPasswordSchema = z.object({ email: emailField })
export const verifyResetCodeSchema = z.object({ temporary_token: z.string().min(10, 'accounts.errors.flowExpired').max(200), code: codeField })
export const resetPasswordSchema = z
  .object({ temporary_token: z.string().min(10, 'accounts.errors.flowExpired').max(200), password: newPasswordField, password_confirmation: confirmation })
  .superRefine(mustMatch)

export const profileSchema = z.object({ username: usernameField.optional(), phone: phoneField.optional() })

export const changePasswordSchema = z
  .object({ current_password: passwordRequired, password: newPasswordField, password_confirmation: confirmation })
  .superRefine(mustMatch)

export const changeEmailSchema = z.object({ email: emailField, password: passwordRequired })
export const confirmCodeSchema = z.object({ code: codeField })
export const deleteAccountSchema = z.object({ password: passwordRequired })

export const reviewSchema = z.object({
  rating: z.coerce.number({ error: 'accounts.errors.rating' }).int('accounts.errors.rating').min(1, 'accounts.errors.rating').max(5, 'accounts.errors.rating'),
  comment: z.string({ error: 'accounts.errors.commentRequired' }).trim().min(1, 'accounts.errors.commentRequired').max(1000, 'accounts.errors.commentLong'),
})

export type RegisterInput = z.infer<typeof registerSchema>
