import type { Lang } from '#app/i18n/config.ts'
import { exportResponse } from '#app/features/analyses/index.server.ts'
import type { AbsenceAnalysis, AbsenceReport, StudentFigures } from './analyse-absence.ts'
import { absenceReportWorkbook, renderAbsenceReportPdf } from './exports.server.ts'

type Stored = { id: string; title: string; meta: Record<string, string>; report: unknown; records: unknown; createdAt: Date }

/** A stored analysis as the exports read it. */
export function storedAbsence(stored: Stored): AbsenceAnalysis {
  return { meta: stored.meta, report: stored.report as AbsenceReport, students: stored.records as StudentFigures[] }
}

/** The Excel or PDF file of a saved absence analysis, as a download. */
export async function absenceExport(stored: Stored, format: 'pdf' | 'xlsx', lang: Lang): Promise<Response> {
  const input = { lang, title: stored.title, createdAt: stored.createdAt, analysis: storedAbsence(stored) }
  const bytes = format === 'xlsx' ? absenceReportWorkbook(input) : await renderAbsenceReportPdf(input)
  return exportResponse(bytes, format, { kind: 'absence', title: stored.title, createdAt: stored.createdAt })
}
