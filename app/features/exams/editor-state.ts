import type { QuestionJson, ExamJson } from './exam-json.ts'
import { countBlanks, EXAM_LIMITS, type QuestionType } from './schemas.ts'

// The editor's state in the browser: the test as the teacher is typing it. Numbers stay the text
// of their inputs until saved (an empty marks box is an error to show, not a zero), an answer not
// chosen yet is null. `toExamBody` turns it into what examSchema reads, so the browser and the
// server validate the very same object.

export type DraftQuestion = {
  /** A key for React and for reordering; never sent. */
  key: string
  type: QuestionType
  text: string
  marks: string
  image: { id: string; url: string } | null
  /** multiple_choice (4) and checkbox (2–6). */
  options: string[]
  /** multiple_choice: one index; checkbox: several; true_false: the truth; else unused. */
  correct: number | number[] | boolean | null
  lines: string
  pairs: Array<{ left: string; right: string }>
  /** fill_blank: one per blank in the text, in order. */
  answers: string[]
}

export type DraftExam = {
  title: string
  school_name: string
  subject: string
  grade: string
  date: string
  duration_minutes: string
  info: string
  show_student_name: boolean
  questions: DraftQuestion[]
}

export type HeaderField = Exclude<keyof DraftExam, 'questions'>

let counter = 0
export const newKey = () => `q${Date.now().toString(36)}${(counter++).toString(36)}`

export function newQuestion(type: QuestionType): DraftQuestion {
  const base: DraftQuestion = {
    key: newKey(),
    type,
    text: '',
    marks: '1',
    image: null,
    options: [],
    correct: null,
    lines: '5',
    pairs: [],
    answers: [],
  }
  switch (type) {
    case 'multiple_choice':
      return { ...base, options: ['', '', '', ''] }
    case 'checkbox':
      return { ...base, options: ['', '', ''], correct: [] }
    case 'matching':
      return {
        ...base,
        pairs: [
          { left: '', right: '' },
          { left: '', right: '' },
          { left: '', right: '' },
        ],
      }
    case 'fill_blank':
      return { ...base, text: '' }
    default:
      return base
  }
}

export function emptyDraft(): DraftExam {
  return {
    title: '',
    school_name: '',
    subject: '',
    grade: '',
    date: '',
    duration_minutes: '',
    info: '',
    show_student_name: true,
    questions: [],
  }
}

const numberText = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value))

export function draftFromJson(exam: ExamJson): DraftExam {
  return {
    title: exam.title,
    school_name: exam.school_name,
    subject: exam.subject,
    grade: exam.grade,
    date: exam.date ? typedDateFromIso(exam.date) : '',
    duration_minutes: numberText(exam.duration_minutes),
    info: exam.info,
    show_student_name: exam.show_student_name,
    questions: exam.questions.map(draftQuestionFromJson),
  }
}

function draftQuestionFromJson(q: QuestionJson): DraftQuestion {
  const draft = {
    ...newQuestion(q.type),
    text: q.text,
    marks: String(q.marks),
    image: q.image && q.image_url ? { id: q.image, url: q.image_url } : null,
  }
  switch (q.type) {
    case 'multiple_choice':
      return { ...draft, options: [...q.options], correct: q.correct }
    case 'checkbox':
      return { ...draft, options: [...q.options], correct: [...q.correct] }
    case 'true_false':
      return { ...draft, correct: q.correct }
    case 'essay':
      return { ...draft, lines: String(q.lines) }
    case 'matching':
      return { ...draft, pairs: q.pairs.map((p) => ({ ...p })) }
    case 'fill_blank':
      return { ...draft, answers: [...q.answers] }
  }
}

/** A number typed in a box: '' is missing (undefined), anything else as typed (NaN fails the schema). */
const typedNumber = (text: string) => (text.trim() === '' ? undefined : Number(text.replace(',', '.')))

/**
 * A date as a teacher types it in the builder's date box — 22/11/2026, 22-11-2026 or 2026-11-22,
 * in Western or Arabic-Indic digits — as YYYY-MM-DD; null when it is not a real day. The box is
 * text, not the browser's date control, whose words and order follow the browser's language
 * rather than the page's.
 */
export function isoFromTypedDate(text: string): string | null {
  const digits = text.trim().replace(/[\u0660-\u0669\u06F0-\u06F9]/g, (d) => String(d.charCodeAt(0) & 0xf))
  const dayFirst = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/.exec(digits)
  const yearFirst = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(digits)
  const [y, m, d] = dayFirst ? [dayFirst[3], dayFirst[2], dayFirst[1]] : yearFirst ? [yearFirst[1], yearFirst[2], yearFirst[3]] : []
  if (!y || !m || !d) return null
  const iso = `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`
  const date = new Date(`${iso}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === iso ? iso : null
}

/** A stored day (YYYY-MM-DD) as the date box shows it: day/month/year. */
export function typedDateFromIso(iso: string): string {
  const [y, m, d] = iso.split('-')
  return y && m && d ? `${d}/${m}/${y}` : iso
}

/** The object examSchema validates and the action stores: docs/api.md's shape. */
export function toExamBody(draft: DraftExam) {
  return {
    title: draft.title,
    school_name: draft.school_name,
    subject: draft.subject,
    grade: draft.grade,
    // A date that is not one goes as typed, and the schema says so beside the box.
    date: draft.date.trim() === '' ? null : (isoFromTypedDate(draft.date) ?? draft.date.trim()),
    duration_minutes: typedNumber(draft.duration_minutes) ?? null,
    info: draft.info,
    show_student_name: draft.show_student_name,
    questions: draft.questions.map(toQuestionBody),
  }
}

function toQuestionBody(q: DraftQuestion) {
  const base = { type: q.type, text: q.text, marks: typedNumber(q.marks), image: q.image?.id ?? null }
  switch (q.type) {
    case 'multiple_choice':
      return { ...base, options: q.options, correct: typeof q.correct === 'number' ? q.correct : undefined }
    case 'checkbox':
      return { ...base, options: q.options, correct: Array.isArray(q.correct) ? q.correct : [] }
    case 'true_false':
      return { ...base, correct: typeof q.correct === 'boolean' ? q.correct : undefined }
    case 'essay':
      return { ...base, lines: typedNumber(q.lines) }
    case 'matching':
      return { ...base, pairs: q.pairs }
    case 'fill_blank':
      return { ...base, answers: q.answers }
  }
}

export type EditorAction =
  | { type: 'reset'; draft: DraftExam }
  | { type: 'header'; field: HeaderField; value: string | boolean }
  | { type: 'add'; questionType: QuestionType }
  | { type: 'update'; key: string; patch: Partial<Omit<DraftQuestion, 'key' | 'type'>> }
  | { type: 'remove'; key: string }
  | { type: 'duplicate'; key: string }
  | { type: 'move'; key: string; to: number }
  | { type: 'addOption'; key: string }
  | { type: 'removeOption'; key: string; index: number }
  | { type: 'addPair'; key: string }
  | { type: 'removePair'; key: string; index: number }
  /** Text found in the field at `path` (its `data-path`, as errors name it) when the editor took over the page. */
  | { type: 'typed'; path: string; value: string }

/** The answers of a fill-in-the-blank question follow its blanks: one per blank, the typed ones kept. */
function syncBlanks(q: DraftQuestion): DraftQuestion {
  if (q.type !== 'fill_blank') return q
  const blanks = countBlanks(q.text)
  if (blanks === q.answers.length) return q
  return { ...q, answers: Array.from({ length: blanks }, (_, i) => q.answers[i] ?? '') }
}

/** A removed option takes its tick with it, and the ticks after it move up one place. */
function withoutOption(q: DraftQuestion, index: number): DraftQuestion {
  const options = q.options.filter((_, i) => i !== index)
  const shift = (i: number) => (i > index ? i - 1 : i)
  if (Array.isArray(q.correct)) return { ...q, options, correct: q.correct.filter((i) => i !== index).map(shift) }
  if (typeof q.correct === 'number') return { ...q, options, correct: q.correct === index ? null : shift(q.correct) }
  return { ...q, options }
}

function mapQuestion(draft: DraftExam, key: string, change: (q: DraftQuestion) => DraftQuestion): DraftExam {
  return { ...draft, questions: draft.questions.map((q) => (q.key === key ? change(q) : q)) }
}

export function editorReducer(draft: DraftExam, action: EditorAction): DraftExam {
  switch (action.type) {
    case 'reset':
      return action.draft
    case 'header':
      return { ...draft, [action.field]: action.value }
    case 'add':
      if (draft.questions.length >= EXAM_LIMITS.questions) return draft
      return { ...draft, questions: [...draft.questions, newQuestion(action.questionType)] }
    case 'update':
      return mapQuestion(draft, action.key, (q) => syncBlanks({ ...q, ...action.patch }))
    case 'remove':
      return { ...draft, questions: draft.questions.filter((q) => q.key !== action.key) }
    case 'duplicate': {
      const at = draft.questions.findIndex((q) => q.key === action.key)
      const original = draft.questions[at]
      if (!original || draft.questions.length >= EXAM_LIMITS.questions) return draft
      const copy: DraftQuestion = structuredClone({ ...original, key: newKey() })
      return { ...draft, questions: [...draft.questions.slice(0, at + 1), copy, ...draft.questions.slice(at + 1)] }
    }
    case 'move': {
      const from = draft.questions.findIndex((q) => q.key === action.key)
      const to = Math.max(0, Math.min(draft.questions.length - 1, action.to))
      if (from < 0 || from === to) return draft
      const questions = [...draft.questions]
      const [moved] = questions.splice(from, 1)
      questions.splice(to, 0, moved as DraftQuestion)
      return { ...draft, questions }
    }
    case 'addOption':
      return mapQuestion(draft, action.key, (q) =>
        q.options.length >= EXAM_LIMITS.checkboxOptions.max ? q : { ...q, options: [...q.options, ''] },
      )
    case 'removeOption':
      return mapQuestion(draft, action.key, (q) =>
        q.options.length <= EXAM_LIMITS.checkboxOptions.min ? q : withoutOption(q, action.index),
      )
    case 'addPair':
      return mapQuestion(draft, action.key, (q) =>
        q.pairs.length >= EXAM_LIMITS.matchingPairs.max ? q : { ...q, pairs: [...q.pairs, { left: '', right: '' }] },
      )
    case 'removePair':
      return mapQuestion(draft, action.key, (q) =>
        q.pairs.length <= EXAM_LIMITS.matchingPairs.min ? q : { ...q, pairs: q.pairs.filter((_, i) => i !== action.index) },
      )
    case 'typed':
      return typedAt(draft, action.path, action.value)
  }
}

const TYPED_HEADER_FIELDS = new Set<string>(['title', 'school_name', 'subject', 'grade', 'date', 'duration_minutes', 'info'])

/**
 * The draft with `value` at `path` (`title`, `questions.0.text`, `questions.1.options.2`,
 * `questions.2.pairs.0.left`, `questions.3.answers.1`); unchanged for a path it does not hold.
 * What the teacher typed before the page's script took over reaches the draft this way
 * (exam-editor.tsx, decision 016).
 */
function typedAt(draft: DraftExam, path: string, value: string): DraftExam {
  if (TYPED_HEADER_FIELDS.has(path)) return { ...draft, [path]: value }
  const [root, at, field, index, side] = path.split('.')
  const q = root === 'questions' ? draft.questions[Number(at)] : undefined
  if (!q) return draft
  const i = Number(index)
  const update = (patch: Partial<DraftQuestion>) => mapQuestion(draft, q.key, (x) => syncBlanks({ ...x, ...patch }))
  if ((field === 'text' || field === 'marks' || field === 'lines') && index === undefined) return update({ [field]: value })
  if (field === 'options' && i < q.options.length && side === undefined)
    return update({ options: q.options.map((o, k) => (k === i ? value : o)) })
  if (field === 'answers' && i < q.answers.length && side === undefined)
    return update({ answers: q.answers.map((a, k) => (k === i ? value : a)) })
  if (field === 'pairs' && i < q.pairs.length && (side === 'left' || side === 'right'))
    return update({ pairs: q.pairs.map((p, k) => (k === i ? { ...p, [side]: value } : p)) })
  return draft
}

/** What the teacher would lose by leaving: the draft differs from what was last saved. */
export function isDirty(draft: DraftExam, saved: DraftExam): boolean {
  return JSON.stringify(toExamBody(draft)) !== JSON.stringify(toExamBody(saved))
}
