import type { AnalysisKindRecord } from '#app/features/analyses/index.ts'
import { absenceLayouts, analyseAbsence, type AbsenceAnalysis, type AbsenceReport, type AbsenceTotalsRecords, type StudentFigures } from './analyse-absence.ts'

/**
 * The absence tool as an analysis kind: the layouts it reads and its analysis of a file's
 * grid. Pure (no pages, no renderers): the analyses' worker thread is bundled from it.
 */
export const absenceKind = {
  kind: 'absence',
  layouts: absenceLayouts,
  analyse: (grid, options: { schoolDays?: number }): AbsenceAnalysis => analyseAbsence(grid, options),
} as const satisfies AnalysisKindRecord<'absence', { schoolDays?: number }, AbsenceAnalysis>

/** A saved absence analysis: its report, and its students (daily records) or its rows as read (totals). */
export interface AbsenceStored {
  readonly kind: 'absence'
  readonly report: AbsenceReport
  readonly records: readonly StudentFigures[] | AbsenceTotalsRecords
}
