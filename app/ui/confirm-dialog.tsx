import { useEffect, useId, useRef, type ReactNode } from 'react'

/**
 * The one confirmation of the product: a modal question with two answers, centred on any screen
 * (delete a question or an analysis, leave with unsaved changes). Open while `isOpen`; Escape or
 * the cancel button answer no. The confirming button gets the focus, and the browser returns it
 * where it was when the dialog closes. Without JavaScript, ConfirmDelete stands in for it.
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
  /** Left out where the text says it all (it then names the dialog). */
  title?: string
  text: ReactNode
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
      aria-labelledby={title ? `${id}-title` : `${id}-text`}
      aria-describedby={title ? `${id}-text` : undefined}
      onCancel={(event) => {
        event.preventDefault()
        onCancel()
      }}
    >
      {title ? <h2 id={`${id}-title`}>{title}</h2> : null}
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
