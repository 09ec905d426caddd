export { deleteAnalysis, findAnalysis, listAnalyses, renameAnalysis, saveAnalysis, type AnalysisSummary } from './store.server.ts'
export { analyseInWorker, checkUpload, readLimits, uploadedFile, uploadError, uploadFailure, type UploadContext } from './upload.server.ts'
export { xlsxResponse } from './responses.server.ts'
export { AnalysisError } from './analysis-error.ts'
