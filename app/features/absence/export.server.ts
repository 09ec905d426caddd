import type { Lang } from '#app/i18n/config.ts'
import { exportResponse } from '#app/features/analyses/index.server.ts'
import { defaultWarningThresholds, recomputeTotals, type AbsenceAnalysis } from './analyse-absence.ts'
import { absenceReportWorkbook, renderAbsenceReportPdf } from './exports.server.ts'
import type { AbsenceStored } from './kind.ts'

type Stored = AbsenceStored & { id: string; title: string; meta: Record<string, string>; createdAt: Date }

/**
 * A stored analysis as the page, the search and the exports read it. A totals analysis keeps
 * its rows as read: its students come from them, and another number of school days (the
 * teacher's correction on the page) recomputes its report.
 */
export function storedAbsence(stored: Stored, schoolDays?: number | null): AbsenceAnalysis {
  const { records } = stored
  if ('layout' in records) {
    const days = schoolDays ?? stored.report.recognised?.schoolDays ?? stored.report.summary.days
    const { report, students } = recomputeTotals(records, days, defaultWarningThresholds)
    return { meta: stored.meta, report, students }
  }
  return { meta: stored.meta, report: stored.report, students: records }
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
