import { exportResponse } from '#app/features/analyses/index.server.ts'
import type { Lang } from '#app/i18n/config.ts'
import { recomputeGrades, type GradesMeta } from './analyse-grades.ts'
import type { GradeBand } from './bands.ts'
import { gradesReportWorkbook, renderGradesReportPdf, type GradesExportOptions } from './exports.server.ts'
import type { GradesStored } from './kind.ts'

type Stored = GradesStored & { id: string; title: string; meta: Record<string, string>; createdAt: Date }

/**
 * A stored analysis as the exports read it: the title block back from its stored strings, and
 * the saved report, or the report of the saved records with other bands when given.
 */
export function storedGrades(stored: Stored, bands?: readonly GradeBand[]): GradesExportOptions['analysis'] {
  const { school, subject, exam, term, sheetName, maxScore } = stored.meta
  const max = maxScore === undefined ? Number.NaN : Number(maxScore)
  const meta: GradesMeta = {
    ...(school !== undefined && { school }),
    ...(subject !== undefined && { subject }),
    ...(exam !== undefined && { exam }),
    ...(term !== undefined && { term }),
    ...(sheetName !== undefined && { sheetName }),
    ...(Number.isFinite(max) && { maxScore: max }),
  }
  const report = bands ? recomputeGrades(stored.records, bands) : stored.report
  return { meta, report }
}

/** The Excel or PDF file of a saved grades analysis, as a download; with `bands`, recomputed with them first. */
export async function gradesExport(stored: Stored, format: 'pdf' | 'xlsx', lang: Lang, bands?: readonly GradeBand[]): Promise<Response> {
  const input: GradesExportOptions = { lang, title: stored.title, createdAt: stored.createdAt, analysis: storedGrades(stored, bands) }
  const bytes = format === 'xlsx' ? gradesReportWorkbook(input) : await renderGradesReportPdf(input)
  return exportResponse(bytes, format, { kind: 'grades', title: stored.title, createdAt: stored.createdAt })
}
