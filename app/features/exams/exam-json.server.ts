import { wireCount, wireDateTime, wireDay, wireId, wireShape, type Wire } from '#app/lib/wire.server.ts'
import { z } from '#app/lib/zod.ts'
import { questionSchema } from './schemas.ts'
import type { ExamJson, ExamSummaryJson } from './exam-json.ts'
import type { ExamRecord, ExamSummary } from './store.server.ts'

// A test as the REST API answers it, and as the pages hand it to the editor (one mapping). Its
// questions are the editor's own schema (schemas.ts) with the address of their image: the six
// question types are declared there only.

/** A question as it was saved, and where its image is read from. */
export const questionWire = wireShape(
  'Question',
  z.intersection(questionSchema, z.object({ image_url: z.string().nullable().describe('Where to read the image, with the bearer token') })),
  { io: 'input' },
)

export const examWire = wireShape(
  'Exam',
  z.object({
    id: wireId,
    title: z.string(),
    school_name: z.string(),
    subject: z.string(),
    grade: z.string(),
    date: wireDay.nullable(),
    duration_minutes: z.int().min(1).nullable(),
    info: z.string(),
    show_student_name: z.boolean(),
    total_marks: z.number().min(0),
    questions: z.array(questionWire),
    created_at: wireDateTime,
    updated_at: wireDateTime,
  }),
)

export const examSummaryWire = wireShape(
  'ExamSummary',
  examWire
    .pick({ id: true, title: true, subject: true, grade: true, date: true, total_marks: true, created_at: true, updated_at: true })
    .extend({ question_count: wireCount }),
)

/** `imageUrl` turns an image id into the address this client reads it from (page or API). */
export function examToJson(exam: ExamRecord, imageUrl: (imageId: string) => string): Wire<typeof examWire> & ExamJson {
  return {
    id: exam.id,
    title: exam.title,
    school_name: exam.schoolName,
    subject: exam.subject,
    grade: exam.grade,
    date: exam.date,
    duration_minutes: exam.durationMinutes,
    info: exam.info,
    show_student_name: exam.showStudentName,
    total_marks: exam.totalMarks,
    questions: exam.questions.map((q) => ({ ...q, image_url: q.image ? imageUrl(q.image) : null })),
    created_at: exam.createdAt.toISOString(),
    updated_at: exam.updatedAt.toISOString(),
  }
}

export function examSummaryToJson(exam: ExamSummary): Wire<typeof examSummaryWire> & ExamSummaryJson {
  return {
    id: exam.id,
    title: exam.title,
    subject: exam.subject,
    grade: exam.grade,
    date: exam.date,
    question_count: exam.questionCount,
    total_marks: exam.totalMarks,
    created_at: exam.createdAt.toISOString(),
    updated_at: exam.updatedAt.toISOString(),
  }
}
