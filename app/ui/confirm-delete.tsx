import type { ReactNode } from 'react'
import { Form } from 'react-router'

/**
 * Delete with a confirmation that works before JavaScript loads: the button opens a panel that
 * says what will be lost, and only the panel's button sends the form (`intent=delete`, and the
 * record's `id` when given).
 */
export function ConfirmDelete({ id, label, message, confirmLabel, small }: { id?: string; label: string; message: ReactNode; confirmLabel: string; small?: boolean }) {
  const size = small ? ' button-small' : ''
  const messageId = `confirm-delete-${id ?? 'page'}`
  return (
    <details className="confirm-delete">
      <summary className={`button button-ghost${size}`}>{label}</summary>
      <div className="confirm-panel" role="alertdialog" aria-labelledby={messageId}>
        <p id={messageId}>{message}</p>
        <Form method="post">
          {id ? <input type="hidden" name="id" value={id} /> : null}
          <button type="submit" name="intent" value="delete" className={`button button-danger${size}`}>
            {confirmLabel}
          </button>
        </Form>
      </div>
    </details>
  )
}
