import { data } from 'react-router'
import type { core, infer as Infer } from 'zod/mini'
import { z } from './zod-mini.ts'
import { isDomainError } from './errors.ts'
import { fieldErrorsOf, formValues, type FieldErrors } from './forms.ts'

export type FormFailure = { ok: false; errors: FieldErrors; values: Record<string, string> }

/** A failed form: the status, each field's error keys, and what was typed (never passwords). */
export function formFailure(status: number, errors: FieldErrors, values: Record<string, string>, headers?: HeadersInit) {
  const kept = Object.fromEntries(Object.entries(values).filter(([k]) => !/password|code/i.test(k)))
  return data<FormFailure>({ ok: false, errors, values: kept }, { status, headers })
}

/** Parses a form with its schema, or answers 422 with the errors. */
export function parseForm<S extends core.$ZodType>(
  schema: S,
  form: FormData,
  fields: readonly string[],
): { ok: true; data: Infer<S>; values: Record<string, string> } | { ok: false; response: ReturnType<typeof formFailure> } {
  const values = formValues(form, fields)
  const parsed = z.safeParse(schema, values)
  if (!parsed.success) return { ok: false, response: formFailure(422, fieldErrorsOf(parsed.error), values) }
  return { ok: true, data: parsed.data, values }
}

/** Runs a use case; a DomainError becomes the form's error answer, anything else propagates (500). */
export async function runForm<T>(values: Record<string, string>, run: () => Promise<T>): Promise<T | ReturnType<typeof formFailure>> {
  try {
    return await run()
  } catch (error) {
    if (!isDomainError(error)) throw error
    const errors = error.fields ?? { _form: [error.messageKey] }
    const headers = error.retryAfterSeconds ? { 'Retry-After': String(error.retryAfterSeconds) } : undefined
    return formFailure(error.status, errors, values, headers)
  }
}
