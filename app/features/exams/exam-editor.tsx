import { useCallback, useEffect, useMemo, useReducer, useRef, useState, type FormEvent, type PointerEvent } from 'react'
import { useBlocker, useFetcher } from 'react-router'
import { formatDate } from '#app/i18n/format.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { AppLink, localPath } from '#app/ui/app-link.tsx'
import { FormField } from '#app/ui/form-field.tsx'
import { useToast } from '#app/ui/toaster.tsx'
import { ConfirmDialog } from '#app/ui/confirm-dialog.tsx'
import { typedText } from '#app/ui/typed-before-hydration.ts'
import { useHydrated } from '#app/ui/use-hydrated.ts'
import {
  draftFromJson,
  editorReducer,
  emptyDraft,
  isDirty,
  isoFromTypedDate,
  toExamBody,
  typedDateFromIso,
  type DraftExam,
  type HeaderField,
} from './editor-state.ts'
import type { ExamJson } from './exam-json.ts'
import { QuestionEditor, type UploadResult } from './question-editor.tsx'
import { ExamSizeMeter } from './size-meter.tsx'
import { EXAM_LIMITS, examFieldErrors, examSchema, questionTypes, totalMarks, type FieldErrorMap } from './schemas.ts'

/** What the editor's action answers: the saved test, or each error under its path. */
export type SaveExamResult = { ok: true; exam: ExamJson } | { ok: false; errors: FieldErrorMap }

/**
 * The test builder: the header fields and the questions, edited in the browser and saved as one
 * JSON document to the page's action. The same schema as the server checks it first; leaving
 * with unsaved changes asks before.
 */
export function ExamEditor({ exam, onCreated }: { exam: ExamJson | null; onCreated: (id: string) => void }) {
  const { t } = useT()
  const lang = useLang()
  const toast = useToast()
  // Until the script runs, the buttons that need it are shown as not ready (decision 016).
  const isHydrated = useHydrated()
  const fetcher = useFetcher<SaveExamResult>()
  const initial = useMemo(() => (exam ? draftFromJson(exam) : emptyDraft()), [exam])
  const [draft, dispatch] = useReducer(editorReducer, initial)
  const [saved, setSaved] = useState<DraftExam>(initial)
  const [hasTriedSaving, setHasTriedSaving] = useState(false)
  const [serverErrors, setServerErrors] = useState<FieldErrorMap>({})
  const [pendingDelete, setPendingDelete] = useState<string | null>(null)
  const [announcement, setAnnouncement] = useState('')
  const [dragKey, setDragKey] = useState<string | null>(null)
  const [dropIndex, setDropIndex] = useState<number | null>(null)
  const submitted = useRef<DraftExam | null>(null)
  const handles = useRef(new Map<string, HTMLButtonElement>())
  const questionList = useRef<HTMLOListElement>(null)
  const form = useRef<HTMLFormElement>(null)

  const dirty = isDirty(draft, saved)
  const isSaving = fetcher.state !== 'idle'

  // Errors show once the teacher has tried to save, and then follow every change.
  const clientErrors = useMemo<FieldErrorMap>(() => {
    if (!hasTriedSaving) return {}
    const parsed = examSchema.safeParse(toExamBody(draft))
    return parsed.success ? {} : examFieldErrors(parsed.error)
  }, [draft, hasTriedSaving])
  const errors = { ...serverErrors, ...clientErrors }
  const errorsAt = (path: string) => errors[path]

  // Leaving: other pages inside the app ask first; closing the tab gets the browser's own question.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && !isSaving && currentLocation.pathname !== nextLocation.pathname,
  )
  useEffect(() => {
    if (!dirty) return
    const warn = (event: BeforeUnloadEvent) => event.preventDefault()
    window.addEventListener('beforeunload', warn)
    return () => window.removeEventListener('beforeunload', warn)
  }, [dirty])

  // The action's answer: saved (remember it, say so, and give a new test its address) or errors.
  const answered = useRef<SaveExamResult | undefined>(undefined)
  useEffect(() => {
    const result = fetcher.data
    if (!result || fetcher.state !== 'idle' || answered.current === result) return
    answered.current = result
    if (result.ok) {
      if (submitted.current) setSaved(submitted.current)
      setServerErrors({})
      toast.push('success', t('exams.messages.saved'))
      if (!exam) onCreated(result.exam.id)
    } else {
      setServerErrors(result.errors)
      focusFirstError(form.current, result.errors)
    }
  }, [fetcher.data, fetcher.state, exam, onCreated, t, toast])

  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    setHasTriedSaving(true)
    const body = toExamBody(draft)
    const parsed = examSchema.safeParse(body)
    if (!parsed.success) {
      focusFirstError(event.currentTarget, examFieldErrors(parsed.error))
      toast.push('error', t('exams.editor.invalid'))
      return
    }
    submitted.current = draft
    fetcher.submit(JSON.parse(JSON.stringify(body)), { method: 'post', encType: 'application/json' })
  }

  const setHeader = (field: HeaderField, value: string | boolean) => {
    setServerErrors({})
    dispatch({ type: 'header', field, value })
  }

  // What the teacher typed or ticked before the page's script took over (the page paints first and
  // loads its script after, decision 013): the fields show it, but the draft still holds the
  // server's values, and the next render would put those back. Each field whose value differs
  // from the one React rendered goes into the draft, by its path (decision 016).
  useEffect(() => {
    const root = form.current
    if (!root) return
    for (const field of root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[data-path], textarea[data-path]')) {
      if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio' || field.type === 'file')) continue
      const value = typedText(field)
      if (value !== null) dispatch({ type: 'typed', path: field.dataset.path ?? '', value })
    }
    const showName = root.querySelector<HTMLInputElement>('#exam-show-name')
    if (showName && showName.checked !== showName.defaultChecked)
      dispatch({ type: 'header', field: 'show_student_name', value: showName.checked })
    for (const card of root.querySelectorAll<HTMLElement>('[data-question]')) {
      const choices = [...card.querySelectorAll<HTMLInputElement>('input[data-choice]')]
      const q = initial.questions[Number(card.dataset.question)]
      if (!q || choices.every((c) => c.checked === c.defaultChecked)) continue
      const ticked = choices.filter((c) => c.checked).map((c) => c.dataset.choice ?? '')
      const first = ticked[0]
      const correct =
        q.type === 'checkbox' ? ticked.map(Number) : first === undefined ? null : q.type === 'true_false' ? first === 'true' : Number(first)
      dispatch({ type: 'update', key: q.key, patch: { correct } })
    }
    // Once, when the editor mounts: later values reach the draft through onChange.
    // oxlint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  const move = useCallback(
    (key: string, to: number, byKeyboard: boolean) => {
      const count = draft.questions.length
      if (to < 0 || to >= count) return
      setServerErrors({})
      dispatch({ type: 'move', key, to })
      // After a keyboard move the focus stays on the handle of the question that moved (React
      // keeps the element; moving it in the page makes the browser drop its focus).
      if (byKeyboard) requestAnimationFrame(() => handles.current.get(key)?.focus())
      setAnnouncement(t('exams.editor.question.moved', { position: to + 1, count }))
    },
    [draft.questions.length, t],
  )

  const uploadImage = useCallback(
    async (file: File): Promise<UploadResult> => {
      const body = new FormData()
      body.append('file', file)
      try {
        const res = await fetch(localPath(lang, 'exams-images'), { method: 'POST', body, headers: { Accept: 'application/json' } })
        const json = (await res.json().catch(() => ({}))) as { id?: string; url?: string; error?: string }
        if (res.ok && json.id && json.url) return { ok: true, id: json.id, url: json.url }
        return { ok: false, error: json.error ?? (res.status === 413 ? 'exams.errors.imageSize' : 'exams.errors.imageUpload') }
      } catch {
        return { ok: false, error: 'exams.errors.imageUpload' }
      }
    },
    [lang],
  )

  // Dragging by a handle: the pointer is captured by the handle, the card under it is where the
  // question would land, and near the window's edges the page scrolls along.
  const endDrag = () => {
    setDragKey(null)
    setDropIndex(null)
  }
  const dragProps = (index: number, key: string) => ({
    isDragged: dragKey === key,
    isTarget: dragKey !== null && dropIndex === index && dragKey !== key,
    onPointerDown: (event: PointerEvent<HTMLButtonElement>) => {
      if (event.button !== 0) return
      event.currentTarget.setPointerCapture(event.pointerId)
      setDragKey(key)
      setDropIndex(index)
    },
    onPointerMove: (event: PointerEvent<HTMLButtonElement>) => {
      if (dragKey !== key) return
      const over = document.elementFromPoint(event.clientX, event.clientY)?.closest<HTMLElement>('[data-question]')
      const at = over ? Number(over.dataset.question) : null
      if (at !== null && at !== dropIndex) setDropIndex(at)
      const edge = 64
      if (event.clientY < edge) window.scrollBy(0, -16)
      else if (event.clientY > window.innerHeight - edge) window.scrollBy(0, 16)
    },
    onPointerUp: () => {
      if (dragKey === key && dropIndex !== null && dropIndex !== index) move(key, dropIndex, false)
      endDrag()
    },
    onPointerCancel: endDrag,
  })

  const dateIso = isoFromTypedDate(draft.date)
  // The day the box holds, written out in the page's language in both calendars.
  const dateRead = dateIso ? formatDate(lang, new Date(`${dateIso}T12:00:00Z`)) : null
  const marks = totalMarks(draft.questions.map((q) => ({ marks: Number(q.marks) || 0 })))
  const deleting = draft.questions.findIndex((q) => q.key === pendingDelete)

  return (
    <>
      <form ref={form} className="exam-editor" onSubmit={save} noValidate aria-busy={isSaving || undefined}>
        <section className="card exam-details" aria-labelledby="exam-details-title">
          <h2 id="exam-details-title">{t('exams.editor.details')}</h2>
          <div className="exam-details-grid">
            <FormField
              id="exam-title"
              label={t('exams.editor.fields.title')}
              hint={t('exams.editor.fields.titleHint')}
              errors={errorsAt('title')}
              required
            >
              {(p) => (
                <input
                  {...p}
                  data-path="title"
                  value={draft.title}
                  maxLength={EXAM_LIMITS.title}
                  dir="auto"
                  onChange={(e) => setHeader('title', e.target.value)}
                />
              )}
            </FormField>
            <FormField id="exam-school" label={t('exams.editor.fields.schoolName')} errors={errorsAt('school_name')}>
              {(p) => (
                <input
                  {...p}
                  data-path="school_name"
                  value={draft.school_name}
                  maxLength={EXAM_LIMITS.title}
                  dir="auto"
                  autoComplete="organization"
                  onChange={(e) => setHeader('school_name', e.target.value)}
                />
              )}
            </FormField>
            <FormField id="exam-subject" label={t('exams.editor.fields.subject')} errors={errorsAt('subject')}>
              {(p) => (
                <input
                  {...p}
                  data-path="subject"
                  value={draft.subject}
                  maxLength={EXAM_LIMITS.shortText}
                  dir="auto"
                  onChange={(e) => setHeader('subject', e.target.value)}
                />
              )}
            </FormField>
            <FormField id="exam-grade" label={t('exams.editor.fields.grade')} errors={errorsAt('grade')}>
              {(p) => (
                <input
                  {...p}
                  data-path="grade"
                  value={draft.grade}
                  maxLength={EXAM_LIMITS.shortText}
                  dir="auto"
                  onChange={(e) => setHeader('grade', e.target.value)}
                />
              )}
            </FormField>
            <FormField
              id="exam-date"
              label={t('exams.editor.fields.date')}
              hint={
                dateRead
                  ? t('exams.editor.fields.dateRead', dateRead)
                  : `${t('exams.editor.fields.dateFormat')} ${t('exams.editor.fields.dateHint')}`
              }
              errors={errorsAt('date')}
            >
              {/* Text, not the browser's date control: that one speaks the browser's language, not the page's. */}
              {(p) => (
                <input
                  {...p}
                  data-path="date"
                  type="text"
                  inputMode="numeric"
                  dir="ltr"
                  autoComplete="off"
                  maxLength={10}
                  value={draft.date}
                  onChange={(e) => setHeader('date', e.target.value)}
                  onBlur={(e) => {
                    // What was typed, written back the one way the box shows a date.
                    const iso = isoFromTypedDate(e.target.value)
                    if (iso && typedDateFromIso(iso) !== e.target.value) setHeader('date', typedDateFromIso(iso))
                  }}
                />
              )}
            </FormField>
            <FormField id="exam-duration" label={t('exams.editor.fields.duration')} errors={errorsAt('duration_minutes')}>
              {(p) => (
                <input
                  {...p}
                  data-path="duration_minutes"
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={EXAM_LIMITS.durationMinutes}
                  step={1}
                  dir="ltr"
                  value={draft.duration_minutes}
                  onChange={(e) => setHeader('duration_minutes', e.target.value)}
                />
              )}
            </FormField>
          </div>
          <FormField
            id="exam-info"
            label={t('exams.editor.fields.info')}
            hint={t('exams.editor.fields.infoHint')}
            errors={errorsAt('info')}
          >
            {(p) => (
              <textarea
                {...p}
                data-path="info"
                rows={2}
                value={draft.info}
                maxLength={EXAM_LIMITS.info}
                dir="auto"
                onChange={(e) => setHeader('info', e.target.value)}
              />
            )}
          </FormField>
          <div className="field-check">
            <label htmlFor="exam-show-name">
              <input
                id="exam-show-name"
                type="checkbox"
                checked={draft.show_student_name}
                onChange={(e) => setHeader('show_student_name', e.target.checked)}
              />
              {t('exams.editor.fields.showStudentName')}
            </label>
          </div>
        </section>

        <section className="exam-questions" aria-labelledby="exam-questions-title">
          <div className="exam-questions-head">
            <h2 id="exam-questions-title">{t('exams.editor.questions')}</h2>
            <p className="muted">
              {t('exams.editor.summary', {
                questions: t('exams.list.questionCount', { count: draft.questions.length }),
                marks: t('exams.pdf.marks', { count: marks }),
              })}
            </p>
          </div>
          <ExamSizeMeter exam={toExamBody(draft)} errors={errorsAt('_form')} />
          <p id="exam-move-hint" className="visually-hidden">
            {t('exams.editor.question.moveHint')}
          </p>
          <p className="visually-hidden" aria-live="polite">
            {announcement}
          </p>
          {errorsAt('questions') ? (
            <p className="field-error" data-path="questions" tabIndex={-1}>
              {errorsAt('questions')
                ?.map((key) => t(key))
                .join(' · ')}
            </p>
          ) : null}
          {draft.questions.length === 0 ? <p className="empty-state">{t('exams.editor.noQuestions')}</p> : null}
          <ol className="question-list" ref={questionList}>
            {draft.questions.map((q, index) => (
              <QuestionEditor
                key={q.key}
                question={q}
                index={index}
                count={draft.questions.length}
                errorsOf={(field) => errorsAt(`questions.${index}.${field}`)}
                dispatch={(action) => {
                  setServerErrors({})
                  dispatch(action)
                }}
                onDelete={setPendingDelete}
                onMove={move}
                uploadImage={uploadImage}
                dragging={dragProps(index, q.key)}
                handleRef={(element) => {
                  if (element) handles.current.set(q.key, element)
                  else handles.current.delete(q.key)
                }}
              />
            ))}
          </ol>
          <div className="add-question" role="group" aria-labelledby="exam-add-title">
            <h3 id="exam-add-title">{t('exams.editor.add')}</h3>
            <div className="add-question-types">
              {questionTypes.map((type) => (
                <button
                  key={type}
                  type="button"
                  className="add-type"
                  data-needs-script
                  disabled={!isHydrated || draft.questions.length >= EXAM_LIMITS.questions}
                  onClick={() => {
                    dispatch({ type: 'add', questionType: type })
                    // The new question's first field takes the focus, so typing goes on there
                    // (with a keyboard or a screen reader the new card would otherwise be far behind).
                    requestAnimationFrame(() =>
                      questionList.current?.lastElementChild?.querySelector<HTMLElement>('textarea, input:not([type="hidden"])')?.focus(),
                    )
                  }}
                  aria-label={t('exams.editor.addType', { type: t(`exams.editor.types.${type}`) })}
                >
                  <strong>{t(`exams.editor.types.${type}`)}</strong>
                  <span className="muted">{t(`exams.editor.typeHints.${type}`)}</span>
                </button>
              ))}
            </div>
            {/* Under the buttons, so that when it goes they stay where the finger is. */}
            {isHydrated ? null : (
              <p className="not-ready-note" role="status">
                {t('exams.editor.gettingReady')}
              </p>
            )}
          </div>
        </section>

        <div className="editor-savebar">
          <div className="container editor-savebar-inner">
            {/* The editor's form has no action of its own: sent by the browser before the script
                runs, it would load the page again, empty. */}
            <button type="submit" className="button button-primary" data-needs-script disabled={!isHydrated || isSaving}>
              {isSaving ? t('exams.editor.saving') : t('exams.editor.save')}
            </button>
            {exam ? (
              <AppLink className="button button-ghost" to={`exams/${exam.id}/print`} prefetch="none">
                {t('exams.editor.print')}
              </AppLink>
            ) : (
              <span className="muted">{t('exams.editor.saveFirst')}</span>
            )}
            {dirty ? <span className="unsaved-dot muted">{t('exams.editor.leaveText')}</span> : null}
          </div>
        </div>
      </form>

      <ConfirmDialog
        isOpen={deleting >= 0}
        title={t('exams.editor.question.deleteTitle', { number: deleting + 1 })}
        text={t('exams.editor.question.deleteText')}
        confirmLabel={t('exams.editor.question.deleteConfirm')}
        cancelLabel={t('exams.editor.question.cancel')}
        isDanger
        onConfirm={() => {
          if (pendingDelete) dispatch({ type: 'remove', key: pendingDelete })
          setServerErrors({})
          setPendingDelete(null)
        }}
        onCancel={() => setPendingDelete(null)}
      />
      <ConfirmDialog
        isOpen={blocker.state === 'blocked'}
        title={t('exams.editor.leaveTitle')}
        text={t('exams.editor.leaveText')}
        confirmLabel={t('exams.editor.leave')}
        cancelLabel={t('exams.editor.stay')}
        isDanger
        onConfirm={() => blocker.proceed?.()}
        onCancel={() => blocker.reset?.()}
      />
    </>
  )
}

/** Focuses the first control, in page order, that has an error. */
function focusFirstError(root: HTMLElement | null, errors: FieldErrorMap) {
  if (!root) return
  const paths = Object.keys(errors)
  const first = [...root.querySelectorAll<HTMLElement>('[data-path]')].find((el) => paths.includes(el.dataset.path ?? ''))
  first?.focus()
}
