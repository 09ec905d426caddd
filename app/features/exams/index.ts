// Client-safe exports. The form schemas (zod) are in ./schemas.ts.
export { ExamEditor, type SaveExamResult } from './exam-editor.tsx'
export type { ExamJson, ExamSummaryJson, QuestionJson } from './exam-json.ts'
export { default as examsStylesHref } from './exams.css?url'
export { default as examPrintStylesHref } from './exam-print.css?url'
