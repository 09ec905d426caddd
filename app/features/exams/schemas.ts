import { plainText } from '#app/lib/plain-text.ts'
import { required } from '#app/lib/required.ts'
import { z } from '#app/lib/zod-mini.ts'

// A test and its questions: one schema for the editor (instant feedback), the page's action and
// /api/v1/exams. Messages are translation keys of the `exams` namespace. The shapes are docs/api.md's.
// Written with zod/mini: the editor sends it to the browser, and zod's chained API there would
// pull all of zod's core into the chunk that the sign-in and contact pages share.

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
  // The whole test, not one field: what a render costs grows with these (README, "Limits of a
  // test"). A full 50-question term test with images is about 12,000 characters and 30 pairs;
  // at these limits four versions with their keys render in 5–8 s on two busy cores.
  totalCharacters: 30_000,
  totalPairs: 100,
  pagesPerCopy: 50,
  versions: 4,
} as const

type SizedExam = {
  title?: string
  school_name?: string
  subject?: string
  grade?: string
  info?: string
  questions: ReadonlyArray<{
    text: string
    options?: readonly string[]
    pairs?: ReadonlyArray<{ left: string; right: string }>
    answers?: readonly string[]
  }>
}

/** How large a test is against the whole-test limits: characters of every text, matching pairs, questions. */
export function examSize(exam: SizedExam): { characters: number; pairs: number; questions: number } {
  // Code points, as a teacher counts letters (an emoji is one).
  const count = (text: string | undefined) => (text ? [...text].length : 0)
  let characters = count(exam.title) + count(exam.school_name) + count(exam.subject) + count(exam.grade) + count(exam.info)
  let pairs = 0
  for (const q of exam.questions) {
    characters += count(q.text)
    for (const option of q.options ?? []) characters += count(option)
    for (const answer of q.answers ?? []) characters += count(answer)
    for (const pair of q.pairs ?? []) characters += count(pair.left) + count(pair.right)
    pairs += q.pairs?.length ?? 0
  }
  return { characters, pairs, questions: exam.questions.length }
}

/** The whole-test limits' messages: parseExam answers with one of these as the 422's message. */
export const EXAM_SIZE_ERRORS = ['exams.errors.totalCharacters', 'exams.errors.totalPairs'] as const

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

const text = (max: number, requiredKey: string, tooLong = 'exams.errors.tooLong') =>
  z.string({ error: requiredKey }).check(plainText(), z.trim(), required(requiredKey), z.maxLength(max, tooLong))

const optionalText = (max: number) =>
  z.pipe(
    z.nullish(z.string({ error: 'exams.errors.text' }).check(plainText(), z.trim(), z.maxLength(max, 'exams.errors.tooLong'))),
    z.transform((v: string | null | undefined) => v ?? ''),
  )

/** A whole number with one message for every way it can be wrong. `z.int` as a check keeps `integer` in the JSON Schema. */
const wholeNumber = (message: string, ...checks: Array<z.core.$ZodCheck<number>>) =>
  z.number({ error: message }).check(z.int(message), ...checks)

const questionBase = {
  text: text(EXAM_LIMITS.questionText, 'exams.errors.questionText'),
  marks: z.number({ error: 'exams.errors.marks' }).check(
    z.positive('exams.errors.marks'),
    z.lte(EXAM_LIMITS.marks, 'exams.errors.marks'),
    // Quarter marks at the finest: sums stay exact and print as 0.25, 0.5, 0.75.
    z.refine((m: number) => Number.isInteger(m * 4), 'exams.errors.marks'),
  ),
  image: z.pipe(
    z.nullish(z.string({ error: 'exams.errors.image' }).check(z.regex(UUID, 'exams.errors.image'))),
    z.transform((v: string | null | undefined) => v ?? null),
  ),
}

const option = text(EXAM_LIMITS.option, 'exams.errors.optionRequired')
const index = wholeNumber('exams.errors.correct', z.gte(0, 'exams.errors.correct'))

const multipleChoice = z.object({
  type: z.literal('multiple_choice'),
  ...questionBase,
  options: z.array(option, { error: 'exams.errors.mcOptions' }).check(z.length(4, 'exams.errors.mcOptions')),
  correct: wholeNumber('exams.errors.mcCorrect', z.gte(0, 'exams.errors.mcCorrect'), z.lte(3, 'exams.errors.mcCorrect')),
})

const checkboxQuestion = z
  .object({
    type: z.literal('checkbox'),
    ...questionBase,
    options: z
      .array(option, { error: 'exams.errors.checkboxOptions' })
      .check(
        z.minLength(EXAM_LIMITS.checkboxOptions.min, 'exams.errors.checkboxOptions'),
        z.maxLength(EXAM_LIMITS.checkboxOptions.max, 'exams.errors.checkboxOptions'),
      ),
    correct: z.array(index, { error: 'exams.errors.checkboxCorrect' }).check(z.minLength(1, 'exams.errors.checkboxCorrect')),
  })
  .check(
    z.superRefine((q: { options: string[]; correct: number[] }, ctx) => {
      const isValid = q.correct.every((i) => i < q.options.length) && new Set(q.correct).size === q.correct.length
      if (!isValid) ctx.addIssue({ code: 'custom', path: ['correct'], message: 'exams.errors.checkboxCorrect' })
    }),
  )

const checkbox = z.pipe(
  checkboxQuestion,
  // One order for the same answer, whatever order the indexes were ticked in.
  z.transform((q: z.output<typeof checkboxQuestion>) => ({ ...q, correct: [...q.correct].sort((a, b) => a - b) })),
)

const trueFalse = z.object({
  type: z.literal('true_false'),
  ...questionBase,
  correct: z.boolean({ error: 'exams.errors.trueFalseCorrect' }),
})

const essay = z.object({
  type: z.literal('essay'),
  ...questionBase,
  lines: wholeNumber(
    'exams.errors.essayLines',
    z.gte(EXAM_LIMITS.essayLines.min, 'exams.errors.essayLines'),
    z.lte(EXAM_LIMITS.essayLines.max, 'exams.errors.essayLines'),
  ),
})

const pairSide = text(EXAM_LIMITS.option, 'exams.errors.pairRequired')
const pair = z.object({ left: pairSide, right: pairSide }, { error: 'exams.errors.pairRequired' })

const matching = z.object({
  type: z.literal('matching'),
  ...questionBase,
  pairs: z
    .array(pair, { error: 'exams.errors.matchingPairs' })
    .check(
      z.minLength(EXAM_LIMITS.matchingPairs.min, 'exams.errors.matchingPairs'),
      z.maxLength(EXAM_LIMITS.matchingPairs.max, 'exams.errors.matchingPairs'),
    ),
})

const fillBlank = z
  .object({
    type: z.literal('fill_blank'),
    ...questionBase,
    answers: z.array(text(EXAM_LIMITS.blankAnswer, 'exams.errors.blankAnswerRequired'), { error: 'exams.errors.blankAnswers' }),
  })
  .check(
    z.superRefine((q: { text: string; answers: string[] }, ctx) => {
      const blanks = countBlanks(q.text)
      if (blanks === 0) ctx.addIssue({ code: 'custom', path: ['text'], message: 'exams.errors.blankMissing' })
      else if (q.answers.length !== blanks) ctx.addIssue({ code: 'custom', path: ['answers'], message: 'exams.errors.blankAnswers' })
    }),
  )

export const questionSchema = z.discriminatedUnion('type', [multipleChoice, checkbox, trueFalse, essay, matching, fillBlank], {
  error: 'exams.errors.questionType',
})

export type Question = z.infer<typeof questionSchema>
export type QuestionOf<T extends QuestionType> = Extract<Question, { type: T }>

/**
 * zod's `preprocess`, which zod/mini does not have: the same pipe (a transform into the schema),
 * given the type zod gives it, so a key whose schema may be absent stays optional in the input type.
 */
function preprocess<B extends z.core.$ZodType, I = unknown>(fn: (value: I) => unknown, schema: B): z.core.$ZodPreprocess<B, I> {
  return z.pipe(z.transform(fn), schema) as unknown as z.core.$ZodPreprocess<B, I>
}

const blankToNull = (v: unknown) => (v === '' ? null : v)

function isRealDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value
}

/** The whole test as the editor saves it and the API receives it (POST and PUT). */
export const examSchema = z
  .object(
    {
      title: text(EXAM_LIMITS.title, 'exams.errors.titleRequired'),
      school_name: optionalText(EXAM_LIMITS.title),
      subject: optionalText(EXAM_LIMITS.shortText),
      grade: optionalText(EXAM_LIMITS.shortText),
      date: preprocess(
        blankToNull,
        z.pipe(
          z.nullish(
            z
              .string({ error: 'exams.errors.date' })
              .check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'exams.errors.date'), z.refine(isRealDate, 'exams.errors.date')),
          ),
          z.transform((v: string | null | undefined) => v ?? null),
        ),
      ),
      duration_minutes: preprocess(
        blankToNull,
        z.pipe(
          z.nullish(
            wholeNumber(
              'exams.errors.duration',
              z.gte(1, 'exams.errors.duration'),
              z.lte(EXAM_LIMITS.durationMinutes, 'exams.errors.duration'),
            ),
          ),
          z.transform((v: number | null | undefined) => v ?? null),
        ),
      ),
      info: optionalText(EXAM_LIMITS.info),
      show_student_name: z._default(z.boolean({ error: 'exams.errors.showStudentName' }), true),
      questions: z._default(
        z
          .array(questionSchema, { error: 'exams.errors.questions' })
          .check(z.maxLength(EXAM_LIMITS.questions, 'exams.errors.tooManyQuestions')),
        [],
      ),
    },
    { error: 'exams.errors.body' },
  )
  .check(
    z.superRefine((exam: SizedExam & { questions: ReadonlyArray<{ marks: number }> }, ctx) => {
      if (totalMarks(exam.questions) > EXAM_LIMITS.totalMarks)
        ctx.addIssue({ code: 'custom', path: ['questions'], message: 'exams.errors.totalMarks' })
      const size = examSize(exam)
      if (size.characters > EXAM_LIMITS.totalCharacters) ctx.addIssue({ code: 'custom', path: [], message: 'exams.errors.totalCharacters' })
      if (size.pairs > EXAM_LIMITS.totalPairs) ctx.addIssue({ code: 'custom', path: [], message: 'exams.errors.totalPairs' })
    }),
  )

export type ExamInput = z.infer<typeof examSchema>

export function totalMarks(questions: ReadonlyArray<{ marks: number }>): number {
  return questions.reduce((sum, q) => sum + q.marks, 0)
}

/**
 * The PDF's options (GET …/pdf?answers=1&versions=N&seed=…): the test, its answer key, or
 * versions A–D each with its key. A value it cannot read is ignored (the plain test prints).
 */
export const pdfOptionsSchema = z.object({
  answers: z.pipe(
    z.catch(z.optional(z.string()), undefined),
    z.transform((v: string | undefined) => v === '1' || v === 'true'),
  ),
  versions: z.catch(z.optional(z.coerce.number().check(z.int(), z.gte(2), z.lte(EXAM_LIMITS.versions))), undefined),
  seed: z.catch(z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(64))), undefined),
})

/** `?versions=` asking for more versions than a test prints (refused with 422, not read as the plain test). */
export function asksTooManyVersions(query: Record<string, string | undefined>): boolean {
  const count = Number(query.versions)
  return Number.isInteger(count) && count > EXAM_LIMITS.versions
}

export type FieldErrorMap = Record<string, string[]>

/**
 * Each error under its full path (`questions.2.options.1`), as the editor places it beside its
 * control and the API reports it (docs/api.md: the field names as in the request).
 */
export function examFieldErrors(error: z.core.$ZodError): FieldErrorMap {
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
