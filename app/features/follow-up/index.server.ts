export { ladderOf, saveLadder, type LadderOfOptions, type SaveLadderOptions } from './ladder-settings.server.ts'
export {
  deleteRegisterEntry,
  findFollowUpRegister,
  recordIssue,
  studentRef,
  updateRegisterEntry,
  type DeleteRegisterEntryOptions,
  type FollowUpRegisterOptions,
  type FollowUpRegisterView,
  type RecordIssueOptions,
  type UpdateRegisterEntryOptions,
} from './register.server.ts'
