export {
  analysisEntriesByName,
  analysisEntryData,
  deleteAnalysis,
  findAnalysis,
  listAnalyses,
  renameAnalysis,
  saveAnalysis,
  sweepUnfinishedAnalyses,
  type AnalysisEntry,
  type AnalysisSummary,
  type StoredAnalysis,
} from './store.server.ts'
export {
  analyseInWorker,
  checkUpload,
  readLimits,
  uploadAnswer,
  uploadedFile,
  uploadError,
  uploadFailure,
  type UploadContext,
} from './upload.server.ts'
export { closeAnalysisWorkers } from './analysis-workers.server.ts'
export { exportResponse, xlsxResponse } from './download.server.ts'
export { AnalysisError } from './analysis-error.ts'
// The pieces both exports of every analysis are built from.
export { createExportWords, type ExportWords } from './export-words.server.ts'
export { aboutLines, columnWidths, skippedSheet, summarySheet, tableSheet, xlsxCells, type AboutLine } from './export-xlsx-kit.server.ts'
export {
  pdfReportBase,
  pdfSkipped,
  pdfSkippedRowLimit,
  renderReportPdf,
  type PdfAboutItem,
  type PdfBarChart,
  type PdfBarRow,
  type PdfLegendItem,
  type PdfReportBase,
  type PdfSegment,
  type PdfTones,
} from './export-pdf-kit.server.ts'
export { guideSheet, sampleWords, type GuideColumn, type SampleWords } from './sample-kit.server.ts'
export { analysisHeadWire, recognisedBaseWire, skippedRowWire } from './wire.server.ts'
