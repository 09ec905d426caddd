export {
  absenceTrends,
  compareAbsence,
  compareChoices,
  type AbsenceComparison,
  type AbsenceTrends,
  type AbsenceTrendsOptions,
  type CompareOptions,
  type TrendSchool,
} from './trends.server.ts'
export { absenceComparisonJson, absenceComparisonWire, absenceTrendsJson, absenceTrendsWire } from './wire.server.ts'
