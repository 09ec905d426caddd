import type { Lang } from '#app/i18n/config.ts'
import { analysisEntryData, exportResponse, type AnalysisEntry } from '#app/features/analyses/index.server.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import {
  defaultWarningThresholds,
  recomputeTotals,
  type AbsenceAnalysis,
  type AbsenceEntriesRecords,
  type AbsenceTotalsRecords,
  type StudentFigures,
  type TotalsRow,
} from './analyse-absence.ts'
import { absenceReportWorkbook } from './report-xlsx.server.ts'
import { renderAbsenceReportPdf } from './report-pdf.server.ts'
import type { AbsenceStored } from './kind.ts'
import { nameKey } from './search-students.ts'
import { countTiers, type TierThresholds } from './tiers.ts'
import type { LadderStep } from '#app/features/follow-up/index.ts'
import { countSteps } from './steps.ts'

export type StoredAbsence = AbsenceStored & { id: string; title: string; meta: Record<string, string>; createdAt: Date }

/** The entries' lists of an absence analysis: its students (name order) and a totals file's rows (file order). */
export const STUDENTS = 0
export const TOTALS_ROWS = 1

/** What an absence analysis stores: the small part in its row, the students and rows as entries. */
export function absenceStorage(analysis: AbsenceAnalysis): { records: AbsenceEntriesRecords; entries: Iterable<AnalysisEntry> } {
  const totals = analysis.records ? (({ rows: _rows, ...rest }: AbsenceTotalsRecords) => rest)(analysis.records) : null
  function* entries(): Generator<AnalysisEntry> {
    for (const student of analysis.students)
      yield { part: STUDENTS, nameKey: nameKey(student.name), warningLevel: student.warningLevel, data: student }
    for (const row of analysis.records?.rows ?? []) yield { part: TOTALS_ROWS, data: row }
  }
  return { records: { entries: 'students-and-rows', totals }, entries: entries() }
}

/** Whether the analysis keeps its students as entries (every one saved since entries exist). */
export function hasEntries(records: AbsenceStored['records']): records is AbsenceEntriesRecords {
  return !Array.isArray(records) && 'entries' in records
}

/** The school days a saved analysis' report uses (a totals file's; a daily file's days with records). */
function storedDays(stored: StoredAbsence): number {
  return stored.report.recognised?.schoolDays ?? stored.report.summary.days
}

/**
 * Whether `schoolDays` asks for the report of other school days than the stored one: only a
 * totals file can be recomputed, and the stored days need no recomputing.
 */
export function asksOtherDays(stored: StoredAbsence, schoolDays: number | null | undefined): schoolDays is number {
  const totals = hasEntries(stored.records) ? stored.records.totals !== null : 'layout' in stored.records
  return totals && schoolDays !== null && schoolDays !== undefined && schoolDays !== storedDays(stored)
}

export type LoadAbsenceOptions = { db: Db; stored: StoredAbsence; schoolDays?: number | null | undefined }

/**
 * A stored analysis whole, as the exports read it (and the page, for other school days): the
 * report and every student. A totals analysis keeps its rows as read: another number of school
 * days (the teacher's correction on the page) recomputes its report and students from them.
 */
export async function loadAbsence({ db, stored, schoolDays }: LoadAbsenceOptions): Promise<AbsenceAnalysis> {
  const { records } = stored
  if (!hasEntries(records))
    return recordsAbsence(stored.meta, stored.report, records, asksOtherDays(stored, schoolDays) ? schoolDays : storedDays(stored))
  if (records.totals && asksOtherDays(stored, schoolDays)) {
    const rows = (await analysisEntryData({ db, analysisId: stored.id, part: TOTALS_ROWS })) as TotalsRow[]
    return recordsAbsence(stored.meta, stored.report, { ...records.totals, rows }, schoolDays)
  }
  const students = (await analysisEntryData({ db, analysisId: stored.id, part: STUDENTS })) as StudentFigures[]
  return { meta: stored.meta, report: stored.report, students }
}

/** An analysis from records kept whole in its row: the daily students as they are, totals recomputed for `days`. */
function recordsAbsence(
  meta: Record<string, string>,
  report: AbsenceAnalysis['report'],
  records: readonly StudentFigures[] | AbsenceTotalsRecords,
  days: number,
): AbsenceAnalysis {
  if (!('layout' in records)) return { meta, report, students: records }
  const recomputed = recomputeTotals(records, days, defaultWarningThresholds)
  return { meta, report: recomputed.report, students: recomputed.students }
}

/** The school days asked for in a page's or an export's address (`days`), when it is a valid number for a totals file. */
export function schoolDaysFromQuery(params: URLSearchParams, max: number): number | null {
  const value = params.get('days') ?? params.get('school_days')
  if (value === null || !/^\d{1,3}$/.test(value.trim())) return null
  const days = Number(value)
  return days >= 1 && days <= max ? days : null
}

export type AbsenceDownloadOptions = {
  db: Db
  stored: StoredAbsence
  format: 'pdf' | 'xlsx'
  lang: Lang
  /** For a totals file: the school days to recompute with; the stored ones when absent. */
  schoolDays?: number | null | undefined
  thresholds: TierThresholds
  /** The teacher's ladder of follow-up steps (docs/follow-up.md). */
  ladder: readonly LadderStep[]
  preparedBy?: string | null | undefined
}

/**
 * The Excel or PDF file of a saved absence analysis, as a download (for totals, with the school
 * days given), its tiers counted with the thresholds given (the teacher's, when she downloads
 * it); the PDF signed off as prepared by `preparedBy`.
 */
export async function absenceExport({
  db,
  stored,
  format,
  lang,
  schoolDays,
  thresholds,
  ladder,
  preparedBy,
}: AbsenceDownloadOptions): Promise<Response> {
  const analysis = await loadAbsence({ db, stored, schoolDays })
  const input = {
    lang,
    title: stored.title,
    createdAt: stored.createdAt,
    analysis,
    tiers: countTiers(analysis.students, analysis.report.byClassroom, thresholds),
    steps: countSteps(analysis.students, analysis.report.byClassroom, ladder),
  }
  const bytes = format === 'xlsx' ? absenceReportWorkbook(input) : await renderAbsenceReportPdf({ ...input, preparedBy })
  return exportResponse(bytes, format, { kind: 'absence', title: stored.title, createdAt: stored.createdAt })
}
