export { ladderOf, saveLadder, type LadderOfOptions, type SaveLadderOptions } from './ladder-settings.server.ts'
export {
  deleteRegisterEntry,
  findFollowUpRegister,
  followUpRegisterPage,
  recordIssue,
  studentRef,
  updateRegisterEntry,
  type DeleteRegisterEntryOptions,
  type FollowUpRegisterOptions,
  type FollowUpRegisterView,
  type RecordIssueOptions,
  type UpdateRegisterEntryOptions,
} from './register.server.ts'
export { followUpRegisterExport, type RegisterExportOptions } from './register-export.server.ts'
export { registerEntryJson, registerEntryWire, registerJson, registerWire } from './wire.server.ts'
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
