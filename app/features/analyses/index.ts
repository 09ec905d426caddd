// Shared pieces of the workbook analyses (absence, grades): reading the sample's table, text
// normalisation, dates (Gregorian and Hijri), school order of grades, exact rounding, refusals.
export { AnalysisError, isAnalysisError, type AnalysisErrorDetails, type MessageRef, type SkippedRow } from './analysis-error.ts'
export {
  dayOfGregorian,
  dayOfHijri,
  fromExcelSerial,
  gregorianYears,
  hijriOfDay,
  hijriYears,
  parseDateCell,
  parseDateText,
  schoolDateOfDay,
  type HijriDate,
  type SchoolDate,
} from './dates.ts'
export {
  idsInScientificNotation,
  lacksGradeOrClassroom,
  recogniseLayout,
  schoolNameOf,
  sheetsOf,
  withOtherTool,
  type AnalysisInput,
  type AnalysisKindRecord,
  type LayoutName,
  type LayoutSpec,
  type RecognisedLayout,
  type SheetTable,
} from './layouts.ts'
export {
  isGradeCode,
  isScientificId,
  readGradeCell,
  readStudentId,
  type GradeCell,
  type SheetDefaults,
  refuseMostlySkipped,
  refusalReasonLimit,
  requireTable,
  Roster,
  studentKeyOf,
  type Classroom,
  type PlacedStudent,
  type PlacementProblem,
  type StudentColumns,
} from './data-rows.ts'
export { cleanText, hasArabic, normalizeLabel, normalizeName, normalizeText } from './normalize.ts'
export { decimalPlaces, percent, roundFraction, roundHalfAway, roundRatio, roundSqrtFraction } from './rounding.ts'
export { classroomNumber, compareClassrooms, compareGrades, compareNames, gradeRank, nameSortKey } from './school-grades.ts'
export {
  cellText,
  defaultHeaderWithin,
  headerLabel,
  isBlankCell,
  locateTable,
  type ColumnSpec,
  type LocatedTable,
  type TableLookup,
  type TableNotFound,
  type TableSpec,
} from './table.ts'
