import { z } from '#app/lib/zod.ts'

// A test and its questions: one schema for the editor (instant feedback), the page's action and
// /api/v1/exams. Messages are translation keys of the `exams` namespace. The shapes are api.md's.

export const questionTypes = ['multiple_choice', 'checkbox', 'true_false', 'essay', 'matching', 'fill_blank'] as const
export type QuestionType = (typeof questionTypes)[number]

export const EXAM_LIMITS = {
  title: 200,
  shortText: 120,
  info: 2000,
  questionText: 2000,
  option: 500,
  blankAnswer: 200,
  questions: 100,
  marks: 100,
  totalMarks: 1000,
  durationMinutes: 600,
  checkboxOptions: { min: 2, max: 6 },
  matchingPairs: { min: 2, max: 10 },
  essayLines: { min: 1, max: 30 },
} as const

/** A blank in a fill-in-the-blank sentence: three or more underscores. */
export const BLANK_PATTERN = /_{3,}/g

export function countBlanks(text: string): number {
  return text.match(BLANK_PATTERN)?.length ?? 0
}

/** The sentence around its blanks: `a ___ b ___` → ['a ', ' b ', '']; always one more piece than blanks. */
export function splitBlanks(text: string): string[] {
  return text.split(BLANK_PATTERN)
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const text = (max: number, required: string, tooLong = 'exams.errors.tooLong') =>
  z.string({ error: required }).trim().min(1, required).max(max, tooLong)

const optionalText = (max: number) =>
  z
    .string({ error: 'exams.errors.text' })
    .trim()
    .max(max, 'exams.errors.tooLong')
    .nullish()
    .transform((v) => v ?? '')

const questionBase = {
  text: text(EXAM_LIMITS.questionText, 'exams.errors.questionText'),
  marks: z
    .number({ error: 'exams.errors.marks' })
    .positive('exams.errors.marks')
    .max(EXAM_LIMITS.marks, 'exams.errors.marks')
    // Quarter marks at the finest: sums stay exact and print as 0.25, 0.5, 0.75.
    .refine((m) => Number.isInteger(m * 4), 'exams.errors.marks'),
  image: z
    .string({ error: 'exams.errors.image' })
    .regex(UUID, 'exams.errors.image')
    .nullish()
    .transform((v) => v ?? null),
}

const option = text(EXAM_LIMITS.option, 'exams.errors.optionRequired')
const index = z.number({ error: 'exams.errors.correct' }).int('exams.errors.correct').min(0, 'exams.errors.correct')

const multipleChoice = z.object({
  type: z.literal('multiple_choice'),
  ...questionBase,
  options: z.array(option, { error: 'exams.errors.mcOptions' }).length(4, 'exams.errors.mcOptions'),
  correct: z.number({ error: 'exams.errors.mcCorrect' }).int('exams.errors.mcCorrect').min(0, 'exams.errors.mcCorrect').max(3, 'exams.errors.mcCorrect'),
})

const checkbox = z
  .object({
    type: z.literal('checkbox'),
    ...questionBase,
    options: z
      .array(option, { error: 'exams.errors.checkboxOptions' })
      .min(EXAM_LIMITS.checkboxOptions.min, 'exams.errors.checkboxOptions')
      .max(EXAM_LIMITS.checkboxOptions.max, 'exams.errors.checkboxOptions'),
    correct: z.array(index, { error: 'exams.errors.checkboxCorrect' }).min(1, 'exams.errors.checkboxCorrect'),
  })
  .superRefine((q, ctx) => {
    const isValid = q.correct.every((i) => i < q.options.length) && new Set(q.correct).size === q.correct.length
    if (!isValid) ctx.addIssue({ code: 'custom', path: ['correct'], message: 'exams.errors.checkboxCorrect' })
  })
  // One order for the same answer, whatever order the indexes were ticked in.
  .transform((q) => ({ ...q, correct: [...q.correct].sort((a, b) => a - b) }))

const trueFalse = z.object({
  type: z.literal('true_false'),
  ...questionBase,
  correct: z.boolean({ error: 'exams.errors.trueFalseCorrect' }),
})

const essay = z.object({
  type: z.literal('essay'),
  ...questionBase,
  lines: z
    .number({ error: 'exams.errors.essayLines' })
    .int('exams.errors.essayLines')
    .min(EXAM_LIMITS.essayLines.min, 'exams.errors.essayLines')
    .max(EXAM_LIMITS.essayLines.max, 'exams.errors.essayLines'),
})

const pairSide = text(EXAM_LIMITS.option, 'exams.errors.pairRequired')
const pair = z.object({ left: pairSide, right: pairSide }, { error: 'exams.errors.pairRequired' })

const matching = z.object({
  type: z.literal('matching'),
  ...questionBase,
  pairs: z
    .array(pair, { error: 'exams.errors.matchingPairs' })
    .min(EXAM_LIMITS.matchingPairs.min, 'exams.errors.matchingPairs')
    .max(EXAM_LIMITS.matchingPairs.max, 'exams.errors.matchingPairs'),
})

const fillBlank = z
  .object({
    type: z.literal('fill_blank'),
    ...questionBase,
    answers: z.array(text(EXAM_LIMITS.blankAnswer, 'exams.errors.blankAnswerRequired'), { error: 'exams.errors.blankAnswers' }),
  })
  .superRefine((q, ctx) => {
    const blanks = countBlanks(q.text)
    if (blanks === 0) ctx.addIssue({ code: 'custom', path: ['text'], message: 'exams.errors.blankMissing' })
    else if (q.answers.length !== blanks) ctx.addIssue({ code: 'custom', path: ['answers'], message: 'exams.errors.blankAnswers' })
  })

export const questionSchema = z.discriminatedUnion('type', [multipleChoice, checkbox, trueFalse, essay, matching, fillBlank], {
  error: 'exams.errors.questionType',
})

export type Question = z.infer<typeof questionSchema>
export type QuestionOf<T extends QuestionType> = Extract<Question, { type: T }>

const blankToNull = (v: unknown) => (v === '' ? null : v)

function isRealDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value
}

/** The whole test as the editor saves it and the API receives it (POST and PUT). */
export const examSchema = z
  .object({
    title: text(EXAM_LIMITS.title, 'exams.errors.titleRequired'),
    school_name: optionalText(EXAM_LIMITS.title),
    subject: optionalText(EXAM_LIMITS.shortText),
    grade: optionalText(EXAM_LIMITS.shortText),
    date: z.preprocess(
      blankToNull,
      z
        .string({ error: 'exams.errors.date' })
        .regex(/^\d{4}-\d{2}-\d{2}$/, 'exams.errors.date')
        .refine(isRealDate, 'exams.errors.date')
        .nullish()
        .transform((v) => v ?? null),
    ),
    duration_minutes: z.preprocess(
      blankToNull,
      z
        .number({ error: 'exams.errors.duration' })
        .int('exams.errors.duration')
        .min(1, 'exams.errors.duration')
        .max(EXAM_LIMITS.durationMinutes, 'exams.errors.duration')
        .nullish()
        .transform((v) => v ?? null),
    ),
    info: optionalText(EXAM_LIMITS.info),
    show_student_name: z.boolean({ error: 'exams.errors.showStudentName' }).default(true),
    questions: z
      .array(questionSchema, { error: 'exams.errors.questions' })
      .max(EXAM_LIMITS.questions, 'exams.errors.tooManyQuestions')
      .default([]),
  }, { error: 'exams.errors.body' })
  .superRefine((exam, ctx) => {
    if (totalMarks(exam.questions) > EXAM_LIMITS.totalMarks) ctx.addIssue({ code: 'custom', path: ['questions'], message: 'exams.errors.totalMarks' })
  })

export type ExamInput = z.infer<typeof examSchema>

export function totalMarks(questions: ReadonlyArray<{ marks: number }>): number {
  return questions.reduce((sum, q) => sum + q.marks, 0)
}

/**
 * The PDF's options (GET …/pdf?answers=1&versions=N&seed=…): the test, its answer key, or
 * versions A–D each with its key. A value it cannot read is ignored (the plain test prints).
 */
export const pdfOptionsSchema = z.object({
  answers: z
    .string()
    .optional()
    .catch(undefined)
    .transform((v) => v === '1' || v === 'true'),
  versions: z.coerce.number().int().min(2).max(4).optional().catch(undefined),
  seed: z.string().trim().min(1).max(64).optional().catch(undefined),
})

export type FieldErrorMap = Record<string, string[]>

/**
 * Each error under its full path (`questions.2.options.1`), as the editor places it beside its
 * control and the API reports it (api.md: the field names as in the request).
 */
export function examFieldErrors(error: z.ZodError): FieldErrorMap {
  const out: FieldErrorMap = {}
  for (const issue of error.issues) {
    const field = issue.path.length ? issue.path.map(String).join('.') : '_form'
    // Every message above is a key; zod's own English (a case missed) is never shown as is.
    const message = issue.message.startsWith('exams.') ? issue.message : 'common.errors.validation'
    const list = (out[field] ??= [])
    if (!list.includes(message)) list.push(message)
  }
  return out
}
