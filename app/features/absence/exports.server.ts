// The two exports of an absence analysis (docs/absence.md, "Exports"), for the report route and the API.
export { absenceReportWorkbook, type AbsenceExportOptions } from './report-xlsx.server.ts'
export { renderAbsenceReportPdf, type AbsenceReportPdfOptions } from './report-pdf.server.ts'
