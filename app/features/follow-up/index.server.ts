// The follow-up of absence (issue 18), server side: the ladder in force and each step's documents.
export { ladderOf, type LadderOfOptions } from './ladder-settings.server.ts'
export {
  stepDocumentsPdf,
  stepDocumentsSummary,
  stepDocumentsWorkbook,
  stepDocumentsXlsx,
  type StepDocumentsOptions,
  type StepDocumentsSummaryOptions,
  type StepSummary,
} from './step-documents.server.ts'
export { renderStepLettersPdf, lettersData, letterDay, type LetterSchool, type StepLettersPdfOptions } from './letters-pdf.server.ts'
