import type { Question } from './schemas.ts'
import type { ExamRecord, ExamSummary } from './store.server.ts'

// api.md's exam shape, used by the REST API and handed to the pages as is (one mapping).

export type QuestionJson = Question & { image_url: string | null }

export type ExamJson = {
  id: string
  title: string
  school_name: string
  subject: string
  grade: string
  date: string | null
  duration_minutes: number | null
  info: string
  show_student_name: boolean
  total_marks: number
  questions: QuestionJson[]
  created_at: string
  updated_at: string
}

export type ExamSummaryJson = Pick<ExamJson, 'id' | 'title' | 'subject' | 'grade' | 'date' | 'total_marks' | 'created_at' | 'updated_at'> & {
  question_count: number
}

/** `imageUrl` turns an image id into the address this client reads it from (page or API). */
export function examToJson(exam: ExamRecord, imageUrl: (imageId: string) => string): ExamJson {
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

export function examSummaryToJson(exam: ExamSummary): ExamSummaryJson {
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
