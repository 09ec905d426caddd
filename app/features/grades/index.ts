// The grades feature, safe for the browser: the analysis's types, the bands (presets,
// validation) and the recomputation of a saved analysis with other bands.
export {
  absentMarkers,
  analyseGrades,
  defaultMaxScore,
  gradesColumns,
  gradesSheetNames,
  gradesTitleLabels,
  maxMaxScore,
  noSubject,
  readScore,
  recomputeGrades,
  type AnalyseGradesOptions,
  type ClassroomScoreFigures,
  type GradeRecord,
  type GradeRecords,
  type GradesAnalysis,
  type GradesColumn,
  type GradesMeta,
  type GradesReport,
  type GradesTitleField,
  type SubjectRecords,
  type SubjectReport,
} from './analyse-grades.ts'
export {
  bandKeys,
  bandPresets,
  isBandKey,
  maxBandLabelLength,
  maxBands,
  minBands,
  parseBands,
  resolveBands,
  type BandKey,
  type BandPresetName,
  type GradeBand,
  type ParseBandsResult,
} from './bands.ts'
export { maxScoreDecimals, type BandFigures, type PercentGroup, type ScoreFigures, type StudentScore } from './grade-figures.ts'
export { bandsFromQuery, bandsQuery, type BandsChoice } from './bands-query.ts'
export { GradesReportView } from './report-view.tsx'
