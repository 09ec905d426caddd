import { useState, type ReactNode } from 'react'
import { Form, useLocation, useSubmit } from 'react-router'
import { useT } from '#app/i18n/use-t.ts'
import { ConfirmDialog } from './confirm-dialog.tsx'

/**
 * Delete after a confirmation, the product's one pattern: with JavaScript the button opens the
 * centred dialog (ConfirmDialog); before it loads, or without it, the same button opens a panel
 * centred on the screen in the same shape, whose Delete sends the form and whose Cancel reloads
 * the page as it was. Either way only the confirming button sends `intent=delete` (and the
 * record's `id` when given).
 */
export function ConfirmDelete({
  id,
  label,
  message,
  confirmLabel,
  small,
}: {
  id?: string
  label: string
  message: ReactNode
  confirmLabel: string
  small?: boolean
}) {
  const { t } = useT()
  const location = useLocation()
  const submit = useSubmit()
  const [isOpen, setIsOpen] = useState(false)
  const size = small ? ' button-small' : ''
  const messageId = `confirm-delete-${id ?? 'page'}`
  return (
    <>
      <details className="confirm-delete">
        <summary
          className={`button button-ghost${size}`}
          onClick={(event) => {
            // Hydrated: the dialog instead of the panel (a browser without <dialog> keeps the panel).
            if (typeof HTMLDialogElement === 'undefined') return
            event.preventDefault()
            setIsOpen(true)
          }}
        >
          {label}
        </summary>
        <div className="confirm-panel" role="alertdialog" aria-labelledby={messageId}>
          <p id={messageId}>{message}</p>
          <div className="dialog-actions">
            <Form method="post">
              {id ? <input type="hidden" name="id" value={id} /> : null}
              <button type="submit" name="intent" value="delete" className="button button-danger">
                {confirmLabel}
              </button>
            </Form>
            <a className="button button-ghost" href={`${location.pathname}${location.search}`}>
              {t('common.form.cancel')}
            </a>
          </div>
        </div>
      </details>
      <ConfirmDialog
        isOpen={isOpen}
        text={message}
        confirmLabel={confirmLabel}
        cancelLabel={t('common.form.cancel')}
        isDanger
        onConfirm={() => {
          setIsOpen(false)
          void submit(id ? { intent: 'delete', id } : { intent: 'delete' }, { method: 'post' })
        }}
        onCancel={() => setIsOpen(false)}
      />
    </>
  )
}
