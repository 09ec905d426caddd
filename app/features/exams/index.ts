// Client-safe exports. The form schemas (zod) are in ./schemas.ts.
export type { ExamJson, ExamSummaryJson, QuestionJson } from './exam-json.ts'
