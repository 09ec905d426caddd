export { absenceSampleWorkbook } from './sample-workbook.server.ts'
export { absenceSheetNames, absenceTitle, schoolDaysField, uploadAbsence } from './upload-absence.server.ts'
export { absenceReportPage, searchAbsenceStudents } from './report-page.server.ts'
export { absenceExport, schoolDaysFromQuery, storedAbsence } from './export.server.ts'
