import { describe, expect, it } from 'vitest'
import {
  draftFromJson,
  editorReducer,
  emptyDraft,
  isDirty,
  isoFromTypedDate,
  newQuestion,
  toExamBody,
  typedDateFromIso,
  type DraftExam,
} from './editor-state.ts'
import type { ExamJson } from './exam-json.ts'
import { examFieldErrors, examSchema, questionTypes } from './schemas.ts'
import { sampleExam } from '#tests/exams.ts'

const json: ExamJson = {
  id: 'e1',
  ...sampleExam(),
  questions: sampleExam().questions.map((q) => ({ ...q, image_url: null })),
  total_marks: 13,
  created_at: '2026-11-01T08:00:00.000Z',
  updated_at: '2026-11-01T08:00:00.000Z',
}

function withQuestions(...types: Array<(typeof questionTypes)[number]>): DraftExam {
  return types.reduce((draft, questionType) => editorReducer(draft, { type: 'add', questionType }), { ...emptyDraft(), title: 'T' })
}

describe('the editor state', () => {
  it('round-trips a saved test: what it sends is what was loaded', () => {
    const draft = draftFromJson(json)
    expect(examSchema.parse(toExamBody(draft))).toEqual(sampleExam())
    expect(isDirty(draft, draftFromJson(json))).toBe(false)
    expect(isDirty(editorReducer(draft, { type: 'header', field: 'title', value: 'Other' }), draftFromJson(json))).toBe(true)
  })

  it('starts every new question invalid until the teacher writes it and chooses its answer', () => {
    const draft = withQuestions(...questionTypes)
    const parsed = examSchema.safeParse(toExamBody(draft))
    expect(parsed.success).toBe(false)
    const errors = parsed.success ? {} : examFieldErrors(parsed.error)
    expect(errors['questions.0.correct']).toEqual(['exams.errors.mcCorrect'])
    expect(errors['questions.1.correct']).toEqual(['exams.errors.checkboxCorrect'])
    expect(errors['questions.2.correct']).toEqual(['exams.errors.trueFalseCorrect'])
    expect(errors['questions.4.pairs.0.left']).toEqual(['exams.errors.pairRequired'])
    // An empty question says only that it is to be written, not also that it lacks its blank.
    expect(errors['questions.5.text']).toEqual(['exams.errors.questionText'])
    expect(errors['questions.3.text']).toEqual(['exams.errors.questionText'])
    expect(Object.keys(errors).some((k) => k.endsWith('.marks'))).toBe(false)
  })

  it('treats an empty or odd number as what it is', () => {
    let draft = withQuestions('essay')
    const key = draft.questions[0]!.key
    draft = editorReducer(draft, { type: 'update', key, patch: { text: 'Q', marks: '', lines: '2,5' } })
    const parsed = examSchema.safeParse(toExamBody(draft))
    expect(parsed.success ? {} : examFieldErrors(parsed.error)).toEqual({
      'questions.0.marks': ['exams.errors.marks'],
      'questions.0.lines': ['exams.errors.essayLines'],
    })
    draft = editorReducer(draft, { type: 'update', key, patch: { marks: '1,5', lines: '3' } })
    expect(examSchema.parse(toExamBody(draft)).questions[0]).toMatchObject({ marks: 1.5, lines: 3 })
  })

  it('keeps one answer per blank as the sentence changes, the typed ones in place', () => {
    let draft = withQuestions('fill_blank')
    const key = draft.questions[0]!.key
    draft = editorReducer(draft, { type: 'update', key, patch: { text: 'The ___ rises.' } })
    expect(draft.questions[0]!.answers).toEqual([''])
    draft = editorReducer(draft, { type: 'update', key, patch: { answers: ['sun'] } })
    draft = editorReducer(draft, { type: 'update', key, patch: { text: 'The ___ rises in the ___.' } })
    expect(draft.questions[0]!.answers).toEqual(['sun', ''])
    draft = editorReducer(draft, { type: 'update', key, patch: { text: 'No blanks.' } })
    expect(draft.questions[0]!.answers).toEqual([])
  })

  it('adds and removes checkbox answers within two to six, the ticks following their answers', () => {
    let draft = withQuestions('checkbox')
    const key = draft.questions[0]!.key
    draft = editorReducer(draft, { type: 'update', key, patch: { options: ['a', 'b', 'c'], correct: [0, 2] } })
    for (let i = 0; i < 5; i++) draft = editorReducer(draft, { type: 'addOption', key })
    expect(draft.questions[0]!.options).toHaveLength(6)
    draft = editorReducer(draft, { type: 'removeOption', key, index: 0 })
    expect(draft.questions[0]).toMatchObject({ options: ['b', 'c', '', '', ''], correct: [1] })
    for (let i = 0; i < 6; i++) draft = editorReducer(draft, { type: 'removeOption', key, index: 0 })
    expect(draft.questions[0]!.options).toHaveLength(2)
  })

  it('adds and removes matching pairs within two to ten', () => {
    let draft = withQuestions('matching')
    const key = draft.questions[0]!.key
    for (let i = 0; i < 10; i++) draft = editorReducer(draft, { type: 'addPair', key })
    expect(draft.questions[0]!.pairs).toHaveLength(10)
    for (let i = 0; i < 10; i++) draft = editorReducer(draft, { type: 'removePair', key, index: 0 })
    expect(draft.questions[0]!.pairs).toHaveLength(2)
  })

  it('duplicates a question right after itself, with its own key and its own answers', () => {
    let draft = draftFromJson(json)
    const original = draft.questions[4]!
    draft = editorReducer(draft, { type: 'duplicate', key: original.key })
    const copy = draft.questions[5]!
    expect(copy.key).not.toBe(original.key)
    expect({ ...copy, key: '' }).toEqual({ ...original, key: '' })
    draft = editorReducer(draft, { type: 'update', key: copy.key, patch: { pairs: [{ left: 'x', right: 'y' }] } })
    expect(draft.questions[4]!.pairs).toHaveLength(3)
  })

  it('moves a question to any place, and removes one', () => {
    let draft = draftFromJson(json)
    const types = () => draft.questions.map((q) => q.type)
    const essay = draft.questions[3]!.key
    draft = editorReducer(draft, { type: 'move', key: essay, to: 0 })
    expect(types()).toEqual(['essay', 'multiple_choice', 'checkbox', 'true_false', 'matching', 'fill_blank'])
    draft = editorReducer(draft, { type: 'move', key: essay, to: 99 })
    expect(types().at(-1)).toBe('essay')
    draft = editorReducer(draft, { type: 'remove', key: essay })
    expect(types()).toEqual(['multiple_choice', 'checkbox', 'true_false', 'matching', 'fill_blank'])
  })

  it('starts questions of each type with the shape the print needs', () => {
    expect(newQuestion('multiple_choice').options).toHaveLength(4)
    expect(newQuestion('checkbox').correct).toEqual([])
    expect(newQuestion('matching').pairs).toHaveLength(3)
    expect(newQuestion('true_false').correct).toBeNull()
  })

  it('puts text found in a field by its path, as typed before the script took over, into the draft', () => {
    const typed = (draft: DraftExam, path: string, value: string) => editorReducer(draft, { type: 'typed', path, value })
    let draft = withQuestions(...questionTypes)
    draft = typed(draft, 'title', 'Typed early')
    draft = typed(draft, 'questions.0.text', 'Which planet is largest?')
    draft = typed(draft, 'questions.0.options.2', 'Jupiter')
    draft = typed(draft, 'questions.0.marks', '2')
    draft = typed(draft, 'questions.3.lines', '8')
    draft = typed(draft, 'questions.4.pairs.1.right', 'H2O')
    draft = typed(draft, 'questions.5.text', 'The sun is a ___ .')
    draft = typed(draft, 'questions.5.answers.0', 'star')
    expect(draft.title).toBe('Typed early')
    expect(draft.questions[0]).toMatchObject({ text: 'Which planet is largest?', options: ['', '', 'Jupiter', ''], marks: '2' })
    expect(draft.questions[3]?.lines).toBe('8')
    expect(draft.questions[4]?.pairs[1]).toEqual({ left: '', right: 'H2O' })
    // The answer's box exists once the text has its blank, as in the page.
    expect(draft.questions[5]?.answers).toEqual(['star'])
  })

  it('leaves the draft as it was for a path it does not hold', () => {
    const draft = withQuestions('multiple_choice', 'matching')
    for (const path of [
      'questions',
      'questions.9.text',
      'questions.0.options.7',
      'questions.1.pairs.0.middle',
      'questions.0.key',
      'questions.0.type',
      'show_student_name',
      'nothing',
    ])
      expect(editorReducer(draft, { type: 'typed', path, value: 'x' })).toBe(draft)
  })
})

describe('the date box', () => {
  it('takes a day as a teacher types it and gives the stored day', () => {
    expect(isoFromTypedDate('22/11/2026')).toBe('2026-11-22')
    expect(isoFromTypedDate(' 2/3/2026 ')).toBe('2026-03-02')
    expect(isoFromTypedDate('2026-11-22')).toBe('2026-11-22')
    expect(isoFromTypedDate('٢٢/١١/٢٠٢٦')).toBe('2026-11-22')
    expect(isoFromTypedDate('22-11-2026')).toBe('2026-11-22')
  })

  it('refuses what is not a real day', () => {
    for (const text of ['31/02/2026', '22/13/2026', '2026/11', 'tomorrow', '']) expect(isoFromTypedDate(text)).toBeNull()
  })

  it('shows a stored day as day/month/year, and a saved test reads back unchanged', () => {
    expect(typedDateFromIso('2026-11-22')).toBe('22/11/2026')
    const draft = { ...emptyDraft(), date: typedDateFromIso('2026-11-22') }
    expect(toExamBody(draft).date).toBe('2026-11-22')
    expect(toExamBody({ ...draft, date: '31/02/2026' }).date).toBe('31/02/2026')
    expect(toExamBody({ ...draft, date: ' ' }).date).toBeNull()
  })
})
