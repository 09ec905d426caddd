import { DomainError } from '#app/lib/errors.ts'
import { examFieldErrors, examSchema, type ExamInput } from './schemas.ts'

/** The test in a request body, or a 422 DomainError with every error under its full path (`questions.2.options`). */
export function parseExam(body: unknown): ExamInput {
  const parsed = examSchema.safeParse(body)
  if (!parsed.success) throw new DomainError(422, 'common.errors.validation', examFieldErrors(parsed.error))
  return parsed.data
}
