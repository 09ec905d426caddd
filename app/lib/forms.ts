import type { core } from 'zod/mini'

/** Field → translation keys of its errors (the first path segment names the field). */
export type FieldErrors = Record<string, string[]>

export function fieldErrorsOf(error: core.$ZodError): FieldErrors {
  const out: FieldErrors = {}
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '_form')
    const list = (out[field] ??= [])
    if (!list.includes(issue.message)) list.push(issue.message)
  }
  return out
}

/** The string fields of a submitted form, for re-filling it after an error. */
export function formValues(form: FormData, fields: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const field of fields) {
    const value = form.get(field)
    if (typeof value === 'string') out[field] = value
  }
  return out
}
