import type { ReactNode } from 'react'
import { useT } from '#app/i18n/use-t.ts'

/**
 * A labelled field with its hint and errors. Errors are translation keys; they are linked to
 * the control with aria-describedby and announced when they appear.
 */
export function FormField({
  id,
  label,
  hint,
  errors,
  required,
  children,
}: {
  id: string
  label: string
  hint?: ReactNode
  errors?: string[]
  required?: boolean
  children: (props: { id: string; 'aria-invalid': boolean | undefined; 'aria-describedby': string | undefined }) => ReactNode
}) {
  const { t } = useT()
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = errors?.length ? `${id}-error` : undefined
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined
  return (
    <div className={`field${errors?.length ? ' has-error' : ''}`}>
      <label htmlFor={id}>
        {label}
        {required ? (
          <span className="required" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </label>
      {children({ id, 'aria-invalid': errors?.length ? true : undefined, 'aria-describedby': describedBy })}
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
      <div aria-live="polite">
        {errors?.length ? (
          <p id={errorId} className="field-error">
            {errors.map((key) => t(key)).join(' · ')}
          </p>
        ) : null}
      </div>
    </div>
  )
}
