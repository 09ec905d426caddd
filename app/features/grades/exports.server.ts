// The two exports of a grades analysis (docs/grades.md), for the report route and the API.
export { gradesReportWorkbook, type GradesExportOptions } from './report-xlsx.server.ts'
export { renderGradesReportPdf, type GradesReportPdfOptions } from './report-pdf.server.ts'
