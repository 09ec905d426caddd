import { useEffect, useId, useRef } from 'react'

/**
 * A modal question with two answers (delete a question, leave with unsaved changes). Open while
 * `isOpen`; Escape or the cancel button answer no. The confirming button gets the focus, and the
 * browser returns it where it was when the dialog closes.
 */
export function ConfirmDialog({
  isOpen,
  title,
  text,
  confirmLabel,
  cancelLabel,
  isDanger,
  onConfirm,
  onCancel,
}: {
  isOpen: boolean
  title: string
  text: string
  confirmLabel: string
  cancelLabel: string
  isDanger?: boolean
  onConfirm: () => void
  onCancel: () => void
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  const id = useId()
  useEffect(() => {
    const element = dialog.current
    if (!element) return
    if (isOpen && !element.open) element.showModal()
    if (!isOpen && element.open) element.close()
  }, [isOpen])
  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onCancel={(event) => {
        event.preventDefault()
        onCancel()
      }}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      <p id={`${id}-text`}>{text}</p>
      <div className="dialog-actions">
        <button type="button" className={`button ${isDanger ? 'button-danger' : 'button-primary'}`} onClick={onConfirm}>
          {confirmLabel}
        </button>
        <button type="button" className="button button-ghost" onClick={onCancel}>
          {cancelLabel}
        </button>
      </div>
    </dialog>
  )
}
