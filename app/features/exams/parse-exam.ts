import { DomainError } from '#app/lib/errors.ts'
import { EXAM_SIZE_ERRORS, examFieldErrors, examSchema, type ExamInput } from './schemas.ts'

/**
 * The test in a request body, or a 422 DomainError with every error under its full path
 * (`questions.2.options`); a test past a whole-test limit is answered with that limit as the message.
 */
export function parseExam(body: unknown): ExamInput {
  const parsed = examSchema.safeParse(body)
  if (!parsed.success) {
    const fields = examFieldErrors(parsed.error)
    const sizeError = EXAM_SIZE_ERRORS.find((key) => fields._form?.includes(key))
    throw new DomainError(422, sizeError ?? 'common.errors.validation', fields)
  }
  return parsed.data
}
