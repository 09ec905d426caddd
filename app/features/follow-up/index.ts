// The follow-up's shared core (issue 18): the escalation ladder and how a student is recognised
// across a teacher's analyses.
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
