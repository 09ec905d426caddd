import { useState, type ChangeEvent, type InputHTMLAttributes, type Ref } from 'react'
import { useT } from '#app/i18n/use-t.ts'

/**
 * A file input in the page's language, whatever the browser's: the browser's own control says
 * "Choose file · No file chosen" in the browser's language, so the real input is hidden from
 * sight (it still takes the focus, the keyboard and the form's submission) and a label drawn as
 * a button opens it, which a browser does without JavaScript. Beside it, the chosen file's name
 * (JavaScript: this component on React pages, `app/document/enhance.client.ts` on guests' pages);
 * without JavaScript, a required input still says that a file is chosen (CSS, `:valid`).
 */
export function FileChooser({
  id,
  buttonLabel,
  fileName,
  inputRef,
  onChange,
  isSmall,
  ...input
}: {
  id: string
  buttonLabel: string
  /** The name to show when the parent knows it (a file dropped on the page); the chosen file's otherwise. */
  fileName?: string | null
  inputRef?: Ref<HTMLInputElement>
  isSmall?: boolean
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type' | 'className'>) {
  const { t } = useT()
  const [chosen, setChosen] = useState<string | null>(null)
  const name = fileName === undefined ? chosen : fileName
  const nameId = `${id}-file-name`
  return (
    <span className={`file-chooser${name ? ' has-file' : ''}`} data-file-chooser>
      <input
        {...input}
        ref={inputRef}
        id={id}
        type="file"
        className="file-chooser-input"
        aria-describedby={[input['aria-describedby'], nameId].filter(Boolean).join(' ')}
        onChange={(event: ChangeEvent<HTMLInputElement>) => {
          setChosen(event.currentTarget.files?.[0]?.name ?? null)
          onChange?.(event)
        }}
      />
      <label htmlFor={id} className={`button button-ghost file-chooser-button${isSmall ? ' button-small' : ''}`}>
        {buttonLabel}
      </label>
      <span id={nameId} className="file-chooser-name" aria-live="polite">
        {name ? (
          <bdi dir="auto">{name}</bdi>
        ) : (
          <>
            <span className="file-chooser-none">{t('common.fileChooser.none')}</span>
            <span className="file-chooser-picked">{t('common.fileChooser.picked')}</span>
          </>
        )}
      </span>
    </span>
  )
}
