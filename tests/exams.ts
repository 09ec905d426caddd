import { createSession, hashPassword, sessionCookieName } from '#app/features/accounts/index.server.ts'
import { sandboxFor, settlePayment, startCheckout } from '#app/features/billing/index.server.ts'
import type { RequestContext } from '#app/platform/context.server.ts'
import { users } from '#app/platform/db/schema.ts'
import { examSchema, type ExamInput } from '#app/features/exams/schemas.ts'
import type { ExamRecord } from '#app/features/exams/index.server.ts'
import { sampleExamBody } from './support/exam-body.ts'

// Test data for the tests builder's tests: a test with every question type, and teachers with
// and without a subscription.

export { sampleExamBody } from './support/exam-body.ts'

export function sampleExam(overrides: Record<string, unknown> = {}): ExamInput {
  return examSchema.parse(sampleExamBody(overrides))
}

let n = 0

/** A teacher straight in the database, with a web session cookie and an API token. */
export async function teacher(ctx: RequestContext) {
  const id = `${++n}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`
  const [user] = await ctx.db
    .insert(users)
    .values({
      username: `exams ${id}`,
      email: `exams-${id}@school.sa`,
      phone: '+966551234567',
      passwordHash: await hashPassword('x'),
      emailVerifiedAt: new Date(),
    })
    .returning()
  if (!user) throw new Error('no user')
  const web = await createSession({ db: ctx.db, secret: ctx.env.SESSION_SECRET, userId: user.id, kind: 'web' })
  const api = await createSession({ db: ctx.db, secret: ctx.env.SESSION_SECRET, userId: user.id, kind: 'api' })
  return { user, cookie: `${sessionCookieName(ctx.env)}=${web.token}`, token: api.token }
}

/** A teacher with a current subscription, paid through the sandbox gateway as in production. */
export async function subscribedTeacher(ctx: RequestContext) {
  const created = await teacher(ctx)
  const gateway = sandboxFor(ctx)
  const checkout = await startCheckout({ ...ctx, gateway, input: { userId: created.user.id, packageId: 1, method: 'mada', lang: 'ar' } })
  await gateway.submitCard(checkout.gatewayPaymentId, { number: '4111111111111111', name: 'A', expiry: '12/30', cvc: '123' })
  await gateway.confirm3ds(checkout.gatewayPaymentId)
  await settlePayment({ db: ctx.db, gateway, env: ctx.env, logger: ctx.logger, gatewayPaymentId: checkout.gatewayPaymentId })
  return created
}

/** A stored test as the renderer reads it, straight from a parsed input (no database). */
export function examRecordOf(input: ExamInput, id = '0f0e0d0c-0000-4000-8000-000000000001'): ExamRecord {
  return {
    id,
    userId: '00000000-0000-4000-8000-000000000000',
    title: input.title,
    schoolName: input.school_name,
    subject: input.subject,
    grade: input.grade,
    date: input.date,
    durationMinutes: input.duration_minutes,
    info: input.info,
    showStudentName: input.show_student_name,
    questions: input.questions,
    questionCount: input.questions.length,
    totalMarks: input.questions.reduce((sum, q) => sum + q.marks, 0),
    createdAt: new Date('2026-11-22T09:00:00Z'),
    updatedAt: new Date('2026-11-22T09:00:00Z'),
  }
}

const filler = (words: readonly string[], length: number, seed: number) => {
  let text = ''
  for (let i = seed; text.length < length; i++) text += `${words[i % words.length]} `
  return text.slice(0, length).trim()
}
const latinWords = ['water', 'boils', 'at', 'sea', 'level', 'when', 'heated', 'quickly']
const arabicWords = ['الماء', 'يغلي', 'عند', 'درجة', 'حرارة', 'مئة', 'مئوية', 'البحر']

/**
 * The test of issue #15 (about 790 KB): 100 matching questions with 1,500-character texts and
 * ten pairs of 300 characters a side, 2,000 characters of instructions. Every field is within its
 * own limit; the whole is far past the test's.
 */
export function hugeExamBody() {
  return {
    title: 'Huge test',
    info: filler(latinWords, 2000, 1),
    questions: Array.from({ length: 100 }, (_, q) => ({
      type: 'matching',
      text: filler(latinWords, 1500, q),
      marks: 1,
      pairs: Array.from({ length: 10 }, (_pair, p) => ({
        left: filler(latinWords, 300, p + q),
        right: filler(latinWords, 300, p + q + 3),
      })),
    })),
  }
}

/**
 * The largest test the limits accept, in Arabic: 100 questions of every type, the whole-test
 * character and pair limits all but used, every essay with 30 lines. The heaviest render a
 * teacher can ask for (with versions=4).
 */
export function largestExamBody(limits: { totalCharacters: number; totalPairs: number }, essayLines = 10) {
  const matching = Math.ceil(limits.totalPairs / 10)
  const pairSide = 20
  const header = {
    title: 'اختبار نهاية الفصل الدراسي',
    school_name: 'مدرسة الأندلس الابتدائية',
    subject: 'العلوم',
    grade: 'الصف الخامس',
    info: filler(arabicWords, 400, 1),
  }
  const headerChars = Object.values(header).reduce((sum, text) => sum + [...text].length, 0)
  // What is left for the question texts, shared evenly (options and answers counted in).
  const perQuestion = Math.floor((limits.totalCharacters - headerChars - matching * 10 * 2 * pairSide) / 100) - 1
  const questions = Array.from({ length: 100 }, (_, q) => {
    if (q < matching) {
      return {
        type: 'matching',
        text: filler(arabicWords, perQuestion, q),
        marks: 1,
        pairs: Array.from({ length: 10 }, (_pair, p) => ({
          left: filler(arabicWords, pairSide, p),
          right: filler(arabicWords, pairSide, p + 3),
        })),
      }
    }
    switch (q % 4) {
      case 0:
        return {
          type: 'multiple_choice',
          text: filler(arabicWords, perQuestion - 4 * 30, q),
          marks: 1,
          options: [0, 1, 2, 3].map((o) => filler(arabicWords, 30, o + q)),
          correct: 1,
        }
      case 1:
        return { type: 'true_false', text: filler(arabicWords, perQuestion, q), marks: 1, correct: true }
      case 2:
        return { type: 'essay', text: filler(arabicWords, perQuestion, q), marks: 2, lines: essayLines }
      default:
        return {
          type: 'fill_blank',
          text: `${filler(arabicWords, perQuestion - 30 - 5, q)} ___`,
          marks: 1,
          answers: [filler(arabicWords, 30, q)],
        }
    }
  })
  return { ...header, questions }
}
