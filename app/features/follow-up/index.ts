// The follow-up of absence (issue 18): the ladder, how students are matched across analyses, and
// the report's block of documents by step.
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
