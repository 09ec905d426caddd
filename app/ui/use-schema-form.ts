import { useState, type FormEvent } from 'react'
import type { core } from 'zod/mini'
import { z } from '#app/lib/zod-mini.ts'
import { fieldErrorsOf, formValues, type FieldErrors } from '#app/lib/forms.ts'

/**
 * Instant feedback with the same schema the server uses: an invalid form is not sent, its
 * errors show beside the fields and the first invalid field gets the focus. The server's
 * answer (which may add errors only it can know) replaces them when it arrives.
 */
export function useSchemaForm(schema: core.$ZodType, fields: readonly string[], serverErrors: FieldErrors | undefined) {
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null)
  // A new answer from the server replaces what the browser found (React's reset-on-prop-change pattern).
  const [lastServerErrors, setLastServerErrors] = useState(serverErrors)
  if (serverErrors !== lastServerErrors) {
    setLastServerErrors(serverErrors)
    setClientErrors(null)
  }
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const parsed = z.safeParse(schema, formValues(new FormData(event.currentTarget), fields))
    if (parsed.success) {
      setClientErrors(null)
      return
    }
    event.preventDefault()
    const found = fieldErrorsOf(parsed.error)
    setClientErrors(found)
    const first = fields.find((f) => found[f])
    if (first) event.currentTarget.querySelector<HTMLElement>(`[name="${first}"]`)?.focus()
  }
  return { errors: clientErrors ?? serverErrors ?? {}, onSubmit }
}
