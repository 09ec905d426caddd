export { absenceSampleWorkbook } from './sample-workbook.server.ts'
export { absenceSheetNames, absenceTitle, schoolDaysField, uploadAbsence } from './upload-absence.server.ts'
export { absenceReportPage, searchAbsenceStudents } from './report-page.server.ts'
export { absenceExport, absenceStorage, loadAbsence, schoolDaysFromQuery, type StoredAbsence } from './export.server.ts'
