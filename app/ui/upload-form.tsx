import { useEffect, useRef, useState, type DragEvent, type FormEvent, type ReactNode } from 'react'
import { Form, useNavigate } from 'react-router'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { AppLink } from './app-link.tsx'
import type { UploadFailure } from '#app/lib/upload-failure.ts'
import { FileChooser } from './file-chooser.tsx'

/** What the file picker offers: Excel workbooks (2007 and 97–2003) and CSV; the server reads the bytes, not the name. */
const ACCEPTED_FILES = [
  '.xlsx',
  '.xls',
  '.csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-excel',
  'text/csv',
].join(',')

type UploadAnswer = { ok: true; location: string } | ({ ok: false } & UploadFailure)

/**
 * The workbook upload: a plain multipart form that works before JavaScript loads; with
 * JavaScript, a drop zone and a progress bar (XHR to `jsonAction`, which answers JSON).
 */
export function UploadForm({
  maxMb,
  failure,
  jsonAction,
  columnsNamespace,
  children,
}: {
  maxMb: number
  /** Fields sent with the file (the absence tool's school days). */
  children?: ReactNode
  failure: UploadFailure | null
  jsonAction: string
  /** Where the column names of a "missing columns" refusal are translated (e.g. `absence.columns`). */
  columnsNamespace: string
}) {
  const { t } = useT()
  const navigate = useNavigate()
  const input = useRef<HTMLInputElement>(null)
  const [fileName, setFileName] = useState<string | null>(null)
  const [dragging, setDragging] = useState(false)
  const [progress, setProgress] = useState<number | null>(null)
  const [analysing, setAnalysing] = useState(false)
  const [shown, setShown] = useState<UploadFailure | null>(failure)

  useEffect(() => setShown(failure), [failure])

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault()
    setDragging(false)
    const file = event.dataTransfer.files[0]
    if (!file || !input.current) return
    const list = new DataTransfer()
    list.items.add(file)
    input.current.files = list.files
    setFileName(file.name)
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const file = input.current?.files?.[0]
    if (!file) {
      event.preventDefault()
      setShown({ status: 422, messageKey: 'analyses.errors.noFile' })
      return
    }
    if (typeof XMLHttpRequest === 'undefined') return
    event.preventDefault()
    setShown(null)
    setProgress(0)
    // Every field of the form, the file included (a dropped file was put into the input).
    const body = new FormData(event.currentTarget)
    const xhr = new XMLHttpRequest()
    xhr.open('POST', jsonAction)
    xhr.setRequestHeader('Accept', 'application/json')
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable) setProgress(Math.round((100 * e.loaded) / e.total))
    })
    xhr.upload.addEventListener('load', () => {
      setProgress(100)
      setAnalysing(true)
    })
    xhr.addEventListener('load', () => {
      setProgress(null)
      setAnalysing(false)
      let answer: UploadAnswer | null = null
      try {
        answer = JSON.parse(xhr.responseText) as UploadAnswer
      } catch {
        answer = null
      }
      if (answer?.ok) {
        navigate(answer.location)
        return
      }
      if (answer) setShown(answer)
      else if (xhr.status === 413) setShown({ status: 413, messageKey: 'analyses.errors.tooLarge', values: { mb: maxMb } })
      else setShown({ status: xhr.status || 500, messageKey: 'common.errors.unexpected' })
    })
    xhr.addEventListener('error', () => {
      setProgress(null)
      setAnalysing(false)
      setShown({ status: 0, messageKey: 'common.errors.network' })
    })
    xhr.send(body)
  }

  const busy = progress !== null
  return (
    <Form method="post" encType="multipart/form-data" className="form upload-form" onSubmit={onSubmit} noValidate>
      {shown ? <UploadFailureNotice failure={shown} columnsNamespace={columnsNamespace} /> : null}
      <div
        className={`upload-zone${dragging ? ' is-dragging' : ''}`}
        onDragOver={(e) => {
          e.preventDefault()
          setDragging(true)
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <p className="upload-zone-title">
          <strong>{t('analyses.upload.drop')}</strong>
        </p>
        <FileChooser
          inputRef={input}
          id="upload-file"
          name="file"
          accept={ACCEPTED_FILES}
          buttonLabel={t('analyses.upload.choose')}
          fileName={fileName}
          aria-describedby="upload-rules"
          onChange={(e) => setFileName(e.currentTarget.files?.[0]?.name ?? null)}
          required
        />
        <p id="upload-rules" className="muted">
          {t('analyses.upload.rules', { mb: maxMb })}
        </p>
      </div>
      {busy ? (
        <div role="status" aria-live="polite">
          <progress className="upload-progress" max={100} value={analysing ? undefined : (progress ?? 0)} />
          <p>{analysing ? t('analyses.upload.analysing') : t('analyses.upload.uploading', { percent: progress ?? 0 })}</p>
        </div>
      ) : null}
      {children}
      <button type="submit" className="button button-primary button-large" disabled={busy}>
        {t('analyses.upload.submit')}
      </button>
    </Form>
  )
}

export function UploadFailureNotice({ failure, columnsNamespace }: { failure: UploadFailure; columnsNamespace: string }) {
  const { t } = useT()
  const lang = useLang()
  // The missing columns are named once, in the message, as a list in the page's language.
  const columns = new Intl.ListFormat(lang, { type: 'conjunction' }).format(
    (failure.missingColumns ?? []).map((c) => t(`${columnsNamespace}.${c}`)),
  )
  const otherTool = failure.otherTool === 'absence' || failure.otherTool === 'grades' ? failure.otherTool : null
  return (
    <div className="notice notice-error" role="alert">
      <p>
        <strong>{t(failure.messageKey, { ...failure.values, columns })}</strong>
      </p>
      {otherTool ? (
        <p className="other-tool-hint">
          {t(`analyses.errors.otherTool.${otherTool}.question`)}{' '}
          <AppLink to={otherTool === 'grades' ? 'analysis-grade' : 'analysis'}>{t(`analyses.errors.otherTool.${otherTool}.link`)}</AppLink>
        </p>
      ) : null}
      {failure.skipped?.length ? (
        <>
          <p>{t('analyses.errors.skippedTitle')}</p>
          <ul className="skip-list">
            {failure.skipped.map((s) => (
              <li key={s.row}>
                {t('analyses.report.row')} {s.row}: {t(s.reason.key, s.reason.values)}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  )
}
