import type { Context } from 'hono'
import type { z } from 'zod'
import { isLang, type Lang } from '#app/i18n/config.ts'
import { langFromAcceptLanguage } from '#app/i18n/detect.server.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { createTranslator, type Translate } from '#app/i18n/translate.ts'
import type { DomainError } from '#app/lib/errors.ts'
import { fieldErrorsOf } from '#app/lib/forms.ts'
import type { ApiEnv } from './types.ts'

// The response conventions of api.md: `{message, data}` on success, `{message, errors}` on 422.

export function apiLang(c: Context<ApiEnv>): Lang {
  const header = c.req.header('accept-language')
  const exact = header?.trim().toLowerCase()
  if (isLang(exact)) return exact
  return langFromAcceptLanguage(header) ?? 'ar'
}

export function apiTranslator(c: Context<ApiEnv>, namespaces: string[] = []): Translate {
  const lang = apiLang(c)
  return createTranslator(lang, getMessages(lang, ['common', ...namespaces])).t
}

export function ok<T>(c: Context<ApiEnv>, data: T, message = '', status: 200 | 201 = 200) {
  return c.json({ message, data }, status)
}

export function validationFailed(c: Context<ApiEnv>, error: z.core.$ZodError, t: Translate) {
  const errors: Record<string, string[]> = {}
  for (const [field, keys] of Object.entries(fieldErrorsOf(error))) errors[field] = keys.map((k) => t(k))
  return c.json({ message: t('common.errors.validation'), errors }, 422)
}

export function tooManyRequests(c: Context<ApiEnv>, retryAfterSeconds: number, t: Translate) {
  c.header('Retry-After', String(retryAfterSeconds))
  return c.json({ message: t('common.errors.tooManyRequests') }, 429)
}

/** Reads a JSON body; a body that is not JSON is treated as an empty object (and fails validation). */
export async function jsonBody(c: Context<ApiEnv>): Promise<unknown> {
  try {
    return await c.req.json()
  } catch {
    return {}
  }
}

/** A domain failure as api.md answers it: its status, the message, per-field errors, Retry-After. */
export function domainErrorResponse(c: Context<ApiEnv>, error: DomainError) {
  // The namespaces the keys come from (accounts, billing, …), besides common.
  const messageKeys = [error.messageKey, ...Object.values(error.fields ?? {}).flat()]
  const namespaces = [...new Set(messageKeys.map((k) => k.split('.')[0] ?? 'common'))].filter((ns) => ns !== 'common')
  const t = apiTranslator(c, namespaces)
  if (error.retryAfterSeconds) c.header('Retry-After', String(error.retryAfterSeconds))
  const body: { message: string; errors?: Record<string, string[]> } = { message: t(error.messageKey) }
  // A 422 always carries `errors` (api.md), empty when no one field is at fault (a gateway's refusal).
  if (error.fields || error.status === 422) body.errors = Object.fromEntries(Object.entries(error.fields ?? {}).map(([field, keys]) => [field, keys.map((k) => t(k))]))
  return c.json(body, error.status)
}
