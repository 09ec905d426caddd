import { useId, useRef, useState } from 'react'
import { useT } from '#app/i18n/use-t.ts'
import { useHydrated } from '#app/ui/use-hydrated.ts'
import type { ParentMessage } from './student-messages.ts'

/**
 * One parent message: the filled text in a read-only text area (select and copy it without a
 * script), a Copy button once the script runs (navigator.clipboard), and WhatsApp's link with
 * the text. Hallil sends nothing itself.
 */
export function ParentMessageCard({ message, studentName }: { message: ParentMessage; studentName: string }) {
  const { t } = useT()
  const id = useId()
  const area = useRef<HTMLTextAreaElement>(null)
  const isHydrated = useHydrated()
  const [status, setStatus] = useState<'copied' | 'failed' | null>(null)
  const kind = t(`parent-messages.kinds.${message.kind}`)
  async function copy() {
    try {
      await navigator.clipboard.writeText(message.text)
      setStatus('copied')
    } catch {
      // No clipboard (an insecure page, a refusal): the text is selected for the teacher to copy.
      area.current?.select()
      setStatus('failed')
    }
  }
  return (
    <div className="parent-message" data-kind={message.kind}>
      <label htmlFor={`${id}-text`} className="parent-message-title">
        {t('parent-messages.card.title', { kind })}
      </label>
      <textarea
        id={`${id}-text`}
        ref={area}
        className="parent-message-text"
        readOnly
        rows={4}
        value={message.text}
        aria-describedby={message.hasNumber ? undefined : `${id}-note`}
      />
      <div className="parent-message-actions">
        <button
          type="button"
          className="button button-small button-primary"
          onClick={() => void copy()}
          disabled={!isHydrated}
          data-needs-script
          aria-label={`${t('parent-messages.card.copy')}: ${kind} · ${studentName}`}
        >
          {t('parent-messages.card.copy')}
        </button>
        <a
          className="button button-small button-ghost"
          href={message.whatsApp}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={`${t(message.hasNumber ? 'parent-messages.card.whatsappTo' : 'parent-messages.card.whatsapp')}: ${kind} · ${studentName}`}
        >
          {t(message.hasNumber ? 'parent-messages.card.whatsappTo' : 'parent-messages.card.whatsapp')}
        </a>
        <span className="parent-message-status" role="status">
          {status ? t(`parent-messages.card.${status === 'copied' ? 'copied' : 'copyFailed'}`) : ''}
        </span>
      </div>
      {message.hasNumber ? null : (
        <p id={`${id}-note`} className="muted parent-message-note">
          {t('parent-messages.card.noNumber')}
        </p>
      )}
    </div>
  )
}

/** A student's messages (or why there is none). */
export function ParentMessages({ messages, studentName }: { messages: readonly ParentMessage[]; studentName: string }) {
  const { t } = useT()
  if (messages.length === 0) return <p className="muted">{t('parent-messages.card.none')}</p>
  return (
    <div className="parent-messages">
      {messages.map((m) => (
        <ParentMessageCard key={m.kind} message={m} studentName={studentName} />
      ))}
    </div>
  )
}
