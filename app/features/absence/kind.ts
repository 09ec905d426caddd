import type { AnalysisKindRecord } from '#app/features/analyses/index.ts'
import type { AbsenceEntriesRecords } from './absence-figures.ts'
import {
  absenceLayouts,
  analyseAbsence,
  type AbsenceAnalysis,
  type AbsenceReport,
  type AbsenceTotalsRecords,
  type StudentFigures,
} from './analyse-absence.ts'

/**
 * The absence tool as an analysis kind: the layouts it reads and its analysis of a file's
 * grid. Pure (no pages, no renderers): the analyses' worker thread is bundled from it.
 */
export const absenceKind = {
  kind: 'absence',
  layouts: absenceLayouts,
  analyse: (grid, options: { schoolDays?: number }): AbsenceAnalysis => analyseAbsence(grid, options),
} as const satisfies AnalysisKindRecord<'absence', { schoolDays?: number }, AbsenceAnalysis>

/**
 * A saved absence analysis: its report, and where its students and rows are: in entries of their
 * own, or (analyses saved before entries) in the row itself, the students (daily records) or
 * the rows as read (totals).
 */
export interface AbsenceStored {
  readonly kind: 'absence'
  readonly report: AbsenceReport
  readonly records: AbsenceEntriesRecords | readonly StudentFigures[] | AbsenceTotalsRecords
}
