import type { Lang } from '#app/i18n/config.ts'
import { exportResponse } from '#app/features/analyses/index.server.ts'
import { defaultWarningThresholds, recomputeTotals, type AbsenceAnalysis, type AbsenceReport, type AbsenceTotalsRecords, type StudentFigures } from './analyse-absence.ts'
import { absenceReportWorkbook, renderAbsenceReportPdf } from './exports.server.ts'

type Stored = { id: string; title: string; meta: Record<string, string>; report: unknown; records: unknown; createdAt: Date }

function isTotals(records: unknown): records is AbsenceTotalsRecords {
  return typeof records === 'object' && records !== null && !Array.isArray(records) && (records as { layout?: unknown }).layout === 'absence-totals'
}

/**
 * A stored analysis as the page, the search and the exports read it. A totals analysis keeps
 * its rows as read: its students come from them, and another number of school days (the
 * teacher's correction on the page) recomputes its report.
 */
export function storedAbsence(stored: Stored, schoolDays?: number | null): AbsenceAnalysis {
  if (isTotals(stored.records)) {
    const days = schoolDays ?? (stored.report as AbsenceReport).recognised?.schoolDays ?? (stored.report as AbsenceReport).summary.days
    const { report, students } = recomputeTotals(stored.records, days, defaultWarningThresholds)
    return { meta: stored.meta, report, students }
  }
  return { meta: stored.meta, report: stored.report as AbsenceReport, students: stored.records as StudentFigures[] }
}

/** The school days asked for in a page's or an export's address (`days`), when it is a valid number for a totals file. */
export function schoolDaysFromQuery(params: URLSearchParams, max: number): number | null {
  const value = params.get('days') ?? params.get('school_days')
  if (value === null || !/^\d{1,3}$/.test(value.trim())) return null
  const days = Number(value)
  return days >= 1 && days <= max ? days : null
}

/** The Excel or PDF file of a saved absence analysis, as a download (for totals, with the school days given). */
export async function absenceExport(stored: Stored, format: 'pdf' | 'xlsx', lang: Lang, schoolDays?: number | null): Promise<Response> {
  const input = { lang, title: stored.title, createdAt: stored.createdAt, analysis: storedAbsence(stored, schoolDays) }
  const bytes = format === 'xlsx' ? absenceReportWorkbook(input) : await renderAbsenceReportPdf(input)
  return exportResponse(bytes, format, { kind: 'absence', title: stored.title, createdAt: stored.createdAt })
}
