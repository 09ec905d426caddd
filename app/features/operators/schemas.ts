import { plainText } from '#app/lib/plain-text.ts'
import { required } from '#app/lib/required.ts'
import { z } from '#app/lib/zod-mini.ts'

// The operator area's forms, shared by the pages (instant feedback), their actions and the
// /api/v1/admin endpoints. Messages are translation keys. zod/mini: the pages send them to the browser.

/** The answer to a contact message, mailed as typed. */
export const answerMessageSchema = z.object({
  answer: z
    .string({ error: 'operators.errors.answerRequired' })
    .check(
      plainText(),
      z.trim(),
      required('operators.errors.answerRequired'),
      z.minLength(2, 'operators.errors.answerRequired'),
      z.maxLength(5000, 'operators.errors.answerTooLong'),
    ),
})
export type AnswerMessageInput = z.infer<typeof answerMessageSchema>

/** What an operator does to an account. */
export const teacherActions = ['deactivate', 'reactivate', 'end-sessions', 'two-factor-off'] as const
export type TeacherAction = (typeof teacherActions)[number]
export const teacherActionSchema = z.object({ action: z.enum(teacherActions, { error: 'operators.errors.unknownAction' }) })

/** A review's decision. */
export const reviewDecisionSchema = z.object({ decision: z.enum(['approve', 'reject'], { error: 'operators.errors.unknownAction' }) })
