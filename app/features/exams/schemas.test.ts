import { describe, expect, it } from 'vitest'
import { countBlanks, examFieldErrors, examSchema, questionSchema, splitBlanks } from './schemas.ts'
import { sampleExamBody } from '#tests/exams.ts'

/** The error keys of one question, by field (`options`, `pairs.1.right`), or [] when it is valid. */
function questionErrors(question: Record<string, unknown>) {
  const parsed = questionSchema.safeParse(question)
  return parsed.success ? {} : examFieldErrors(parsed.error)
}

const base = { text: 'Question', marks: 1 }

describe('the test header', () => {
  it('accepts a full test with one question of each type, trimmed, with nulls for the empty optional fields', () => {
    const exam = examSchema.parse(sampleExamBody({ title: '  Final test  ', date: '', duration_minutes: '', school_name: undefined }))
    expect(exam.title).toBe('Final test')
    expect(exam.date).toBeNull()
    expect(exam.duration_minutes).toBeNull()
    expect(exam.school_name).toBe('')
    expect(exam.questions.map((q) => q.type)).toEqual(['multiple_choice', 'checkbox', 'true_false', 'essay', 'matching', 'fill_blank'])
    expect(exam.questions.every((q) => q.image === null)).toBe(true)
  })

  it('requires a title and checks the date, the duration and the lengths', () => {
    const parsed = examSchema.safeParse(
      sampleExamBody({ title: '   ', date: '2026-02-30', duration_minutes: 0, subject: 'x'.repeat(121), show_student_name: 'yes' }),
    )
    expect(parsed.success).toBe(false)
    if (parsed.success) return
    expect(examFieldErrors(parsed.error)).toEqual({
      title: ['exams.errors.titleRequired'],
      date: ['exams.errors.date'],
      duration_minutes: ['exams.errors.duration'],
      subject: ['exams.errors.tooLong'],
      show_student_name: ['exams.errors.showStudentName'],
    })
  })

  it('allows an empty test (a draft) but at most 100 questions and 1000 marks', () => {
    expect(examSchema.parse({ title: 'Draft' }).questions).toEqual([])
    const essay = { type: 'essay', text: 'Q', marks: 10, lines: 2 }
    const tooMany = examSchema.safeParse({ title: 'T', questions: Array.from({ length: 101 }, () => ({ ...essay, marks: 1 })) })
    expect(tooMany.success ? {} : examFieldErrors(tooMany.error)).toEqual({ questions: ['exams.errors.tooManyQuestions'] })
    const heavy = examSchema.safeParse({ title: 'T', questions: Array.from({ length: 11 }, () => ({ ...essay, marks: 100 })) })
    expect(heavy.success ? {} : examFieldErrors(heavy.error)).toEqual({ questions: ['exams.errors.totalMarks'] })
  })

  it('reports a question’s errors under its full path, as the editor and the API show them', () => {
    const parsed = examSchema.safeParse({
      title: 'T',
      questions: [
        { type: 'essay', text: 'ok', marks: 1, lines: 3 },
        { type: 'essay', text: '', marks: 1, lines: 3 },
      ],
    })
    expect(parsed.success ? {} : examFieldErrors(parsed.error)).toEqual({ 'questions.1.text': ['exams.errors.questionText'] })
  })
})

describe('every question', () => {
  it('has a known type', () => {
    expect(questionErrors({ ...base, type: 'ranking' })).toEqual({ type: ['exams.errors.questionType'] })
    expect(questionErrors({ ...base })).toEqual({ type: ['exams.errors.questionType'] })
  })

  it('has text and marks above 0, at most 100, in quarter steps', () => {
    const essay = { type: 'essay', lines: 3 }
    expect(questionErrors({ ...essay, text: ' ', marks: 1 })).toEqual({ text: ['exams.errors.questionText'] })
    for (const marks of [0, -1, 100.25, 0.3, '2', Number.NaN, Number.POSITIVE_INFINITY])
      expect({ marks, errors: questionErrors({ ...essay, text: 'Q', marks }) }).toEqual({
        marks,
        errors: { marks: ['exams.errors.marks'] },
      })
    for (const marks of [0.25, 0.5, 1.75, 100]) expect(questionErrors({ ...essay, text: 'Q', marks })).toEqual({})
  })

  it('takes an optional image id, nothing else', () => {
    const essay = { ...base, type: 'essay', lines: 3 }
    expect(questionSchema.parse({ ...essay, image: '1b4e28ba-2fa1-11d2-883f-0016d3cca427' }).image).toBe(
      '1b4e28ba-2fa1-11d2-883f-0016d3cca427',
    )
    expect(questionSchema.parse({ ...essay, image: null }).image).toBeNull()
    expect(questionErrors({ ...essay, image: '../../etc/passwd' })).toEqual({ image: ['exams.errors.image'] })
  })
})

describe('multiple choice', () => {
  const mc = { ...base, type: 'multiple_choice', options: ['a', 'b', 'c', 'd'], correct: 3 }
  it('has exactly four written answers and one correct index', () => {
    expect(questionErrors(mc)).toEqual({})
    expect(questionErrors({ ...mc, options: ['a', 'b', 'c'] })).toEqual({ options: ['exams.errors.mcOptions'] })
    expect(questionErrors({ ...mc, options: ['a', 'b', 'c', 'd', 'e'] })).toEqual({ options: ['exams.errors.mcOptions'] })
    expect(questionErrors({ ...mc, options: ['a', ' ', 'c', 'd'] })).toEqual({ 'options.1': ['exams.errors.optionRequired'] })
    expect(questionErrors({ ...mc, correct: 4 })).toEqual({ correct: ['exams.errors.mcCorrect'] })
    expect(questionErrors({ ...mc, correct: [0] })).toEqual({ correct: ['exams.errors.mcCorrect'] })
    expect(questionErrors({ ...mc, correct: undefined })).toEqual({ correct: ['exams.errors.mcCorrect'] })
  })
})

describe('checkbox', () => {
  const cb = { ...base, type: 'checkbox', options: ['a', 'b', 'c'], correct: [2, 0] }
  it('has two to six answers and one or more distinct correct indexes, kept in order', () => {
    expect(questionSchema.parse(cb)).toMatchObject({ correct: [0, 2] })
    expect(questionErrors({ ...cb, options: ['a'], correct: [0] })).toEqual({ options: ['exams.errors.checkboxOptions'] })
    expect(questionErrors({ ...cb, options: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] })).toEqual({ options: ['exams.errors.checkboxOptions'] })
    expect(questionErrors({ ...cb, correct: [] })).toEqual({ correct: ['exams.errors.checkboxCorrect'] })
    expect(questionErrors({ ...cb, correct: [3] })).toEqual({ correct: ['exams.errors.checkboxCorrect'] })
    expect(questionErrors({ ...cb, correct: [1, 1] })).toEqual({ correct: ['exams.errors.checkboxCorrect'] })
    expect(questionErrors({ ...cb, correct: [1.5] })).toEqual({ 'correct.0': ['exams.errors.correct'] })
  })
})

describe('true or false', () => {
  it('says which', () => {
    expect(questionErrors({ ...base, type: 'true_false', correct: false })).toEqual({})
    expect(questionErrors({ ...base, type: 'true_false', correct: 'false' })).toEqual({ correct: ['exams.errors.trueFalseCorrect'] })
    expect(questionErrors({ ...base, type: 'true_false' })).toEqual({ correct: ['exams.errors.trueFalseCorrect'] })
  })
})

describe('essay', () => {
  it('prints 1 to 30 answer lines', () => {
    expect(questionErrors({ ...base, type: 'essay', lines: 30 })).toEqual({})
    for (const lines of [0, 31, 2.5, undefined])
      expect(questionErrors({ ...base, type: 'essay', lines })).toEqual({ lines: ['exams.errors.essayLines'] })
  })
})

describe('matching', () => {
  const pairs = (n: number) => Array.from({ length: n }, (_, i) => ({ left: `L${i}`, right: `R${i}` }))
  it('has two to ten pairs with both sides written', () => {
    expect(questionErrors({ ...base, type: 'matching', pairs: pairs(2) })).toEqual({})
    expect(questionErrors({ ...base, type: 'matching', pairs: pairs(10) })).toEqual({})
    expect(questionErrors({ ...base, type: 'matching', pairs: pairs(1) })).toEqual({ pairs: ['exams.errors.matchingPairs'] })
    expect(questionErrors({ ...base, type: 'matching', pairs: pairs(11) })).toEqual({ pairs: ['exams.errors.matchingPairs'] })
    expect(
      questionErrors({
        ...base,
        type: 'matching',
        pairs: [
          { left: 'a', right: 'b' },
          { left: 'c', right: '' },
        ],
      }),
    ).toEqual({ 'pairs.1.right': ['exams.errors.pairRequired'] })
    expect(questionErrors({ ...base, type: 'matching', pairs: [{ left: 'a', right: 'b' }, 'c'] })).toEqual({
      'pairs.1': ['exams.errors.pairRequired'],
    })
  })
})

describe('fill in the blank', () => {
  it('has at least one blank of three or more underscores, and one answer per blank', () => {
    const fb = { ...base, type: 'fill_blank' }
    expect(questionErrors({ ...fb, text: 'The ___ rises in the _____.', answers: ['sun', 'east'] })).toEqual({})
    expect(questionErrors({ ...fb, text: 'No blank here, only __ two.', answers: [] })).toEqual({ text: ['exams.errors.blankMissing'] })
    expect(questionErrors({ ...fb, text: 'The ___ rises in the ___.', answers: ['sun'] })).toEqual({
      answers: ['exams.errors.blankAnswers'],
    })
    expect(questionErrors({ ...fb, text: 'The ___ rises.', answers: [' '] })).toEqual({ 'answers.0': ['exams.errors.blankAnswerRequired'] })
  })

  it('splits the sentence around its blanks', () => {
    expect(countBlanks('a ___ b ______ c')).toBe(2)
    expect(splitBlanks('___ a ___')).toEqual(['', ' a ', ''])
    expect(splitBlanks('no blanks')).toEqual(['no blanks'])
  })
})
