import { useT } from '#app/i18n/use-t.ts'
import type { FieldErrors } from '#app/lib/forms.ts'

/** A form-level error (not tied to one field), announced when it appears. */
export function FormErrorNotice({ errors }: { errors: FieldErrors }) {
  const { t } = useT()
  if (!errors._form?.length) return null
  return (
    <div className="notice notice-error" role="alert">
      <p>{errors._form.map((key) => t(key)).join(' ')}</p>
    </div>
  )
}
