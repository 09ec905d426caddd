import type { z } from 'zod/mini'
import type { examSummaryWire, examWire, questionWire } from './exam-json.server.ts'

// What a reader of a test holds (the editor, the list): the API's shape of a test
// (exam-json.server.ts), types only, so the pages load no schema.

export type ExamJson = z.output<typeof examWire>
export type QuestionJson = z.output<typeof questionWire>
export type ExamSummaryJson = z.output<typeof examSummaryWire>
