import type { AnalysisKindRecord } from '#app/features/analyses/index.ts'
import {
  analyseGrades,
  gradesLayouts,
  type AnalyseGradesOptions,
  type GradeRecords,
  type GradesAnalysis,
  type GradesEntriesRecords,
  type GradesReport,
} from './analyse-grades.ts'

type Options = { bands?: AnalyseGradesOptions['bands'] }

/**
 * The grades tool as an analysis kind: the layouts it reads and its analysis of a file's grid.
 * Pure (no pages, no renderers): the analyses' worker thread is bundled from it.
 */
export const gradesKind = {
  kind: 'grades',
  layouts: gradesLayouts,
  analyse: (grid, options: Options): GradesAnalysis => analyseGrades(grid, options.bands === undefined ? {} : { bands: options.bands }),
} as const satisfies AnalysisKindRecord<'grades', Options, GradesAnalysis>

/** A saved grades analysis: its report, and the records it is recomputed from with other bands. */
export interface GradesStored {
  readonly kind: 'grades'
  readonly report: GradesReport
  /** The students as entries of their own (export.server.ts), or (saved before entries) in the row. */
  readonly records: GradesEntriesRecords | GradeRecords
}
