import type { AnalysisKindRecord } from '#app/features/analyses/index.ts'
import { absenceLayouts, analyseAbsence, type AbsenceAnalysis } from './analyse-absence.ts'

/**
 * The absence tool as an analysis kind: the layouts it reads and its analysis of a file's
 * grid. Pure (no pages, no renderers): the analyses' worker thread is bundled from it.
 */
export const absenceKind = {
  kind: 'absence',
  layouts: absenceLayouts,
  analyse: (grid, options: { schoolDays?: number }): AbsenceAnalysis => analyseAbsence(grid, options),
} as const satisfies AnalysisKindRecord<'absence', { schoolDays?: number }, AbsenceAnalysis>
