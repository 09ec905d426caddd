export type { ExamJson, ExamSummaryJson, QuestionJson } from './exam-json.ts'
export {
  examPdfFileName,
  examPdfResponse,
  examPrintErrorPage,
  examPrintOptions,
  renderExamPdf,
  renderExamPrint,
  renderExamSvg,
  type ExamPrint,
  type ExamPrintKind,
  type ExamPrintOptions,
  type ExamPrintOutput,
} from './exam-pdf.server.ts'
export { examSummaryToJson, examSummaryWire, examToJson, examWire } from './exam-json.server.ts'
export {
  EXAM_IMAGE_MAX_BYTES,
  EXAM_IMAGE_MAX_PIXELS,
  examImageResponse,
  examImageTypeOf,
  readExamImage,
  readExamImages,
  storeExamImage,
  type ExamImageFile,
  type StoredExamImage,
} from './images.server.ts'
export { parseExam } from './parse-exam.ts'
export {
  createExam,
  deleteExam,
  duplicateExam,
  findExam,
  listExams,
  pruneExamImages,
  updateExam,
  type ExamRecord,
  type ExamSummary,
} from './store.server.ts'
