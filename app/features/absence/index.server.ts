export { absenceSampleWorkbook } from './sample-workbook.server.ts'
export { absenceSheetNames, absenceTitle, schoolDaysField, uploadAbsence } from './upload-absence.server.ts'
export { absenceReportPage, absenceSteps, absenceTiers, searchAbsenceStudents } from './report-page.server.ts'
export { saveTierThresholds, tierThresholdsOf, tiersOfAnalysis } from './tier-settings.server.ts'
export { absenceExport, absenceStorage, loadAbsence, schoolDaysFromQuery, type StoredAbsence } from './export.server.ts'
export { absenceAnalysisWire, ladderAnswerWire, stepsJson, studentWire, tierThresholdsAnswerWire, tiersJson } from './wire.server.ts'
export {
  absenceRosterHeads,
  absenceRosters,
  type AbsenceRoster,
  type AbsenceRosterHead,
  type AbsenceRostersOptions,
  type RosterStudent,
} from './rosters.server.ts'
export {
  entriesNamed,
  studentLines,
  studentsByUnexcused,
  studentsNamed,
  type StudentLine,
  type UnexcusedRangeOptions,
} from './student-lines.server.ts'
export { unexcusedDaysTally, type UnexcusedDaysCount } from './unexcused-days.server.ts'
