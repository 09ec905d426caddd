export { gradesSampleWorkbook } from './sample-workbook.server.ts'
export { gradesTitle, uploadGrades } from './upload-grades.server.ts'
export { gradesExport, gradesStorage, loadGradeRecords } from './export.server.ts'
export { gradesAnalysisWire } from './wire.server.ts'
