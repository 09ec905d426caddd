// The follow-up of absence (issue 18): the ladder and its settings, how students are matched across
// analyses, the register of documents issued, and the report's block of letters by step.
export {
  defaultLadder,
  ladderDocuments,
  ladderLimits,
  ladderPresetNames,
  ladderPresets,
  ladderProblem,
  presetOf,
  stepOf,
  type LadderDocument,
  type LadderPresetName,
  type LadderStep,
} from './ladder.ts'
export { studentKey, type StudentIdentity } from './student-key.ts'
export { classroomLabel, lettersAtStep, studentsPerStep, type StepStudent, type StepTally } from './step-documents.ts'
export { StepDocumentsBlock, type StepDocumentsBlockProps } from './step-documents-block.tsx'
export {
  ladderBodySchema,
  ladderFormFields,
  ladderFormRows,
  ladderFormSchema,
  ladderFormValues,
  ladderWire,
  problemStep,
} from './ladder-form.ts'
export { LadderSettings } from './ladder-settings-view.tsx'
export {
  analysisDay,
  registerStatus,
  registerStatuses,
  schoolYearOf,
  schoolYearsOf,
  studentsAtStep,
  type ClassroomFollowUp,
  type RegisterEntry,
  type RegisterStatus,
  type RegisterStatusView,
  type RosterInput,
  type StudentAtStep,
} from './register-status.ts'
export { issueFields, issueSchema, updateFields, updateSchema } from './register-form.ts'
export { FollowUpRegisterView, type OutstandingRow, type RegisterFailure, type RegisterPageData } from './register-view.tsx'
