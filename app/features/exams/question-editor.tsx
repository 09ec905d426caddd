import { useRef, useState, type Dispatch, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react'
import { useT } from '#app/i18n/use-t.ts'
import { FileChooser } from '#app/ui/file-chooser.tsx'
import { FormField } from '#app/ui/form-field.tsx'
import { useHydrated } from '#app/ui/use-hydrated.ts'
import type { DraftQuestion, EditorAction } from './editor-state.ts'
import { EXAM_LIMITS } from './schemas.ts'

export type UploadResult = { ok: true; id: string; url: string } | { ok: false; error: string }

type Props = {
  question: DraftQuestion
  index: number
  count: number
  /** The error keys of a field of this question (`text`, `options.1`), if any. */
  errorsOf: (field: string) => string[] | undefined
  dispatch: Dispatch<EditorAction>
  onDelete: (key: string) => void
  /** Moves the question; `byKeyboard` keeps the focus on its handle. */
  onMove: (key: string, to: number, byKeyboard: boolean) => void
  uploadImage: (file: File) => Promise<UploadResult>
  /** Dragging by the handle (mouse, pen or finger): where it would land, and the handle's pointer events. */
  dragging: {
    isDragged: boolean
    isTarget: boolean
    onPointerDown: (e: PointerEvent<HTMLButtonElement>) => void
    onPointerMove: (e: PointerEvent<HTMLButtonElement>) => void
    onPointerUp: (e: PointerEvent<HTMLButtonElement>) => void
    onPointerCancel: () => void
  }
  handleRef: (element: HTMLButtonElement | null) => void
}

/** One question's card: its text, marks and image, and the fields of its type. */
export function QuestionEditor({
  question: q,
  index,
  count,
  errorsOf,
  dispatch,
  onDelete,
  onMove,
  uploadImage,
  dragging,
  handleRef,
}: Props) {
  const { t, tm } = useT()
  // Its buttons do their work in the page's script: not ready until it runs (decision 016).
  const isHydrated = useHydrated()
  const notReady = !isHydrated
  const letters = tm<string[]>('exams.pdf.optionLetters')
  const id = (field: string) => `q-${q.key}-${field}`
  const path = (field: string) => `questions.${index}.${field}`
  const number = index + 1
  const update = (patch: Partial<Omit<DraftQuestion, 'key' | 'type'>>) => dispatch({ type: 'update', key: q.key, patch })
  const textArea = useRef<HTMLTextAreaElement>(null)
  const [upload, setUpload] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null })

  const onHandleKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
      event.preventDefault()
      onMove(q.key, index + (event.key === 'ArrowUp' ? -1 : 1), true)
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault()
      onMove(q.key, event.key === 'Home' ? 0 : count - 1, true)
    }
  }

  const insertBlank = () => {
    const area = textArea.current
    const at = area ? area.selectionStart : q.text.length
    const end = area ? area.selectionEnd : q.text.length
    const before = q.text.slice(0, at)
    const blank = `${before && !before.endsWith(' ') ? ' ' : ''}___ `
    update({ text: `${before}${blank}${q.text.slice(end)}` })
    requestAnimationFrame(() => {
      area?.focus()
      area?.setSelectionRange(at + blank.length, at + blank.length)
    })
  }

  const chooseImage = async (file: File | undefined) => {
    if (!file) return
    setUpload({ busy: true, error: null })
    const result = await uploadImage(file)
    if (result.ok) {
      update({ image: { id: result.id, url: result.url } })
      setUpload({ busy: false, error: null })
    } else setUpload({ busy: false, error: result.error })
  }

  const textLabel =
    q.type === 'true_false'
      ? t('exams.editor.question.statement')
      : q.type === 'fill_blank'
        ? t('exams.editor.question.sentence')
        : t('exams.editor.question.text')

  return (
    <li
      className={`card question-card${dragging.isTarget ? ' is-drop-target' : ''}${dragging.isDragged ? ' is-dragged' : ''}`}
      aria-labelledby={id('heading')}
      data-question={index}
    >
      <div className="question-head">
        <button
          ref={handleRef}
          type="button"
          className="icon-button drag-handle"
          data-needs-script
          disabled={notReady}
          aria-label={t('exams.editor.question.move', { number })}
          aria-describedby="exam-move-hint"
          onKeyDown={onHandleKey}
          onPointerDown={dragging.onPointerDown}
          onPointerMove={dragging.onPointerMove}
          onPointerUp={dragging.onPointerUp}
          onPointerCancel={dragging.onPointerCancel}
        >
          <svg viewBox="0 0 16 16" width="18" height="18" aria-hidden="true" focusable="false">
            {[3, 8, 13].flatMap((y) => [5, 11].map((x) => <circle key={`${x}-${y}`} cx={x} cy={y} r="1.5" fill="currentColor" />))}
          </svg>
        </button>
        <h3 id={id('heading')}>{t('exams.editor.question.heading', { number, type: t(`exams.editor.types.${q.type}`) })}</h3>
        <div className="question-tools">
          <button
            type="button"
            className="button button-small button-ghost"
            data-needs-script
            onClick={() => onMove(q.key, index - 1, false)}
            disabled={notReady || index === 0}
          >
            {t('exams.editor.question.moveUp')}
          </button>
          <button
            type="button"
            className="button button-small button-ghost"
            data-needs-script
            onClick={() => onMove(q.key, index + 1, false)}
            disabled={notReady || index === count - 1}
          >
            {t('exams.editor.question.moveDown')}
          </button>
          <button
            type="button"
            className="button button-small button-ghost"
            data-needs-script
            onClick={() => dispatch({ type: 'duplicate', key: q.key })}
            disabled={notReady || count >= EXAM_LIMITS.questions}
          >
            {t('exams.editor.question.duplicate')}
          </button>
          <button
            type="button"
            className="button button-small button-ghost button-delete"
            data-needs-script
            disabled={notReady}
            onClick={() => onDelete(q.key)}
          >
            {t('exams.editor.question.delete')}
          </button>
        </div>
      </div>

      <FormField
        id={id('text')}
        label={textLabel}
        errors={errorsOf('text')}
        required
        hint={q.type === 'fill_blank' ? t('exams.editor.question.blankHint') : undefined}
      >
        {(p) => (
          <textarea
            {...p}
            ref={textArea}
            data-path={path('text')}
            rows={q.type === 'essay' ? 3 : 2}
            maxLength={EXAM_LIMITS.questionText}
            value={q.text}
            onChange={(e) => update({ text: e.target.value })}
            dir="auto"
          />
        )}
      </FormField>
      {q.type === 'fill_blank' ? (
        <p>
          <button type="button" className="button button-small button-ghost" data-needs-script disabled={notReady} onClick={insertBlank}>
            {t('exams.editor.question.insertBlank')}
          </button>
        </p>
      ) : null}

      <div className="question-meta">
        <FormField
          id={id('marks')}
          label={t('exams.editor.question.marks')}
          hint={t('exams.editor.question.marksHint')}
          errors={errorsOf('marks')}
          required
        >
          {(p) => (
            <input
              {...p}
              data-path={path('marks')}
              type="number"
              inputMode="decimal"
              min={0.25}
              max={EXAM_LIMITS.marks}
              step={0.25}
              dir="ltr"
              value={q.marks}
              onChange={(e) => update({ marks: e.target.value })}
            />
          )}
        </FormField>
        <div className="question-image">
          {q.image ? (
            <figure>
              <img src={q.image.url} alt={t('exams.editor.question.imageAlt', { number })} />
              <button
                type="button"
                className="button button-small button-ghost"
                data-needs-script
                disabled={notReady}
                onClick={() => update({ image: null })}
              >
                {t('exams.editor.question.removeImage')}
              </button>
            </figure>
          ) : (
            <FormField
              id={id('image')}
              label={t('exams.editor.question.image')}
              hint={upload.busy ? t('exams.editor.question.uploading') : t('exams.editor.question.imageHint')}
              errors={[...(upload.error ? [upload.error] : []), ...(errorsOf('image') ?? [])]}
            >
              {(p) => (
                <FileChooser
                  {...p}
                  buttonLabel={t('exams.editor.question.chooseImage')}
                  data-path={path('image')}
                  accept="image/png,image/jpeg,image/webp"
                  data-needs-script
                  disabled={notReady || upload.busy}
                  onChange={(e) => chooseImage(e.target.files?.[0])}
                />
              )}
            </FormField>
          )}
        </div>
      </div>

      {q.type === 'multiple_choice' || q.type === 'checkbox' ? (
        <Group
          legend={t('exams.editor.question.options')}
          path={path('options')}
          errors={[...(errorsOf('options') ?? []), ...(errorsOf('correct') ?? [])]}
        >
          <ul className="option-list">
            {q.options.map((option, i) => {
              const letter = letters[i] ?? String(i + 1)
              const isCorrect = Array.isArray(q.correct) ? q.correct.includes(i) : q.correct === i
              return (
                <li key={i} className={isCorrect ? 'is-correct' : undefined}>
                  <input
                    type={q.type === 'checkbox' ? 'checkbox' : 'radio'}
                    name={id('correct')}
                    data-path={i === 0 ? path('correct') : undefined}
                    data-choice={i}
                    checked={isCorrect}
                    aria-label={t('exams.editor.question.correctOf', { letter })}
                    onChange={(e) => {
                      if (q.type === 'multiple_choice') return update({ correct: i })
                      const ticked = Array.isArray(q.correct) ? q.correct : []
                      update({ correct: e.target.checked ? [...ticked, i].sort((a, b) => a - b) : ticked.filter((c) => c !== i) })
                    }}
                  />
                  <span className="option-letter" aria-hidden="true">
                    {letter}
                  </span>
                  <FieldInline
                    id={id(`option-${i}`)}
                    label={t('exams.editor.question.option', { letter })}
                    errors={errorsOf(`options.${i}`)}
                  >
                    {(p) => (
                      <input
                        {...p}
                        data-path={path(`options.${i}`)}
                        value={option}
                        maxLength={EXAM_LIMITS.option}
                        dir="auto"
                        onChange={(e) => update({ options: q.options.map((o, k) => (k === i ? e.target.value : o)) })}
                      />
                    )}
                  </FieldInline>
                  {q.type === 'checkbox' && q.options.length > EXAM_LIMITS.checkboxOptions.min ? (
                    <button
                      type="button"
                      className="icon-button"
                      data-needs-script
                      disabled={notReady}
                      aria-label={t('exams.editor.question.removeOption', { letter })}
                      onClick={() => dispatch({ type: 'removeOption', key: q.key, index: i })}
                    >
                      ×
                    </button>
                  ) : null}
                </li>
              )
            })}
          </ul>
          {q.type === 'checkbox' && q.options.length < EXAM_LIMITS.checkboxOptions.max ? (
            <button
              type="button"
              className="button button-small button-ghost"
              data-needs-script
              disabled={notReady}
              onClick={() => dispatch({ type: 'addOption', key: q.key })}
            >
              {t('exams.editor.question.addOption')}
            </button>
          ) : null}
        </Group>
      ) : null}

      {q.type === 'true_false' ? (
        <Group legend={t('exams.editor.question.trueOrFalse')} path={path('correct')} errors={errorsOf('correct')}>
          <div className="choice-row">
            {([true, false] as const).map((value) => (
              <label key={String(value)} className="choice">
                <input
                  type="radio"
                  name={id('correct')}
                  data-path={value ? path('correct') : undefined}
                  data-choice={String(value)}
                  checked={q.correct === value}
                  onChange={() => update({ correct: value })}
                />
                {value ? t('exams.editor.question.answerTrue') : t('exams.editor.question.answerFalse')}
              </label>
            ))}
          </div>
        </Group>
      ) : null}

      {q.type === 'essay' ? (
        <FormField id={id('lines')} label={t('exams.editor.question.lines')} errors={errorsOf('lines')} required>
          {(p) => (
            <input
              {...p}
              data-path={path('lines')}
              type="number"
              inputMode="numeric"
              min={EXAM_LIMITS.essayLines.min}
              max={EXAM_LIMITS.essayLines.max}
              step={1}
              dir="ltr"
              className="input-short"
              value={q.lines}
              onChange={(e) => update({ lines: e.target.value })}
            />
          )}
        </FormField>
      ) : null}

      {q.type === 'matching' ? (
        <Group legend={t('exams.editor.question.pairs')} path={path('pairs')} errors={errorsOf('pairs')}>
          <ol className="pair-list">
            {q.pairs.map((pair, i) => (
              <li key={i}>
                <FieldInline
                  id={id(`left-${i}`)}
                  label={t('exams.editor.question.left', { number: i + 1 })}
                  errors={errorsOf(`pairs.${i}.left`) ?? errorsOf(`pairs.${i}`)}
                >
                  {(p) => (
                    <input
                      {...p}
                      data-path={path(`pairs.${i}.left`)}
                      value={pair.left}
                      maxLength={EXAM_LIMITS.option}
                      dir="auto"
                      onChange={(e) => update({ pairs: q.pairs.map((x, k) => (k === i ? { ...x, left: e.target.value } : x)) })}
                    />
                  )}
                </FieldInline>
                <FieldInline id={id(`right-${i}`)} label={t('exams.editor.question.right')} errors={errorsOf(`pairs.${i}.right`)}>
                  {(p) => (
                    <input
                      {...p}
                      data-path={path(`pairs.${i}.right`)}
                      value={pair.right}
                      maxLength={EXAM_LIMITS.option}
                      dir="auto"
                      onChange={(e) => update({ pairs: q.pairs.map((x, k) => (k === i ? { ...x, right: e.target.value } : x)) })}
                    />
                  )}
                </FieldInline>
                {q.pairs.length > EXAM_LIMITS.matchingPairs.min ? (
                  <button
                    type="button"
                    className="icon-button"
                    data-needs-script
                    disabled={notReady}
                    aria-label={t('exams.editor.question.removePair', { number: i + 1 })}
                    onClick={() => dispatch({ type: 'removePair', key: q.key, index: i })}
                  >
                    ×
                  </button>
                ) : null}
              </li>
            ))}
          </ol>
          {q.pairs.length < EXAM_LIMITS.matchingPairs.max ? (
            <button
              type="button"
              className="button button-small button-ghost"
              data-needs-script
              disabled={notReady}
              onClick={() => dispatch({ type: 'addPair', key: q.key })}
            >
              {t('exams.editor.question.addPair')}
            </button>
          ) : null}
        </Group>
      ) : null}

      {q.type === 'fill_blank' ? (
        <Group legend={t('exams.editor.question.answers')} path={path('answers')} errors={errorsOf('answers')}>
          {q.answers.length === 0 ? <p className="muted">{t('exams.editor.question.noBlanks')}</p> : null}
          <ol className="blank-list">
            {q.answers.map((answer, i) => (
              <li key={i}>
                <FieldInline
                  id={id(`answer-${i}`)}
                  label={t('exams.editor.question.answer', { number: i + 1 })}
                  errors={errorsOf(`answers.${i}`)}
                >
                  {(p) => (
                    <input
                      {...p}
                      data-path={path(`answers.${i}`)}
                      value={answer}
                      maxLength={EXAM_LIMITS.blankAnswer}
                      dir="auto"
                      onChange={(e) => update({ answers: q.answers.map((a, k) => (k === i ? e.target.value : a)) })}
                    />
                  )}
                </FieldInline>
              </li>
            ))}
          </ol>
        </Group>
      ) : null}
    </li>
  )
}

/** A fieldset whose errors concern the group (four answers, a correct one): focusable to be pointed at. */
function Group({ legend, path, errors, children }: { legend: string; path: string; errors?: string[]; children: ReactNode }) {
  const { t } = useT()
  const errorId = `${path.replace(/\./g, '-')}-error`
  return (
    <fieldset
      className={`question-group${errors?.length ? ' has-error' : ''}`}
      data-path={path}
      tabIndex={-1}
      aria-describedby={errors?.length ? errorId : undefined}
    >
      <legend>{legend}</legend>
      {children}
      <div aria-live="polite">
        {errors?.length ? (
          <p id={errorId} className="field-error">
            {errors.map((key) => t(key)).join(' · ')}
          </p>
        ) : null}
      </div>
    </fieldset>
  )
}

/** A compact labelled input inside a list row, with its errors under it. */
function FieldInline({
  id,
  label,
  errors,
  children,
}: {
  id: string
  label: string
  errors?: string[]
  children: (props: {
    id: string
    'aria-invalid': boolean | undefined
    'aria-describedby': string | undefined
    'aria-label': string
  }) => ReactNode
}) {
  const { t } = useT()
  const errorId = errors?.length ? `${id}-error` : undefined
  return (
    <div className={`field field-inline${errors?.length ? ' has-error' : ''}`}>
      {children({ id, 'aria-invalid': errors?.length ? true : undefined, 'aria-describedby': errorId, 'aria-label': label })}
      {errors?.length ? (
        <p id={errorId} className="field-error">
          {errors.map((key) => t(key)).join(' · ')}
        </p>
      ) : null}
    </div>
  )
}
