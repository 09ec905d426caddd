import { analysisEntryData, exportResponse, type AnalysisEntry } from '#app/features/analyses/index.server.ts'
import type { Lang } from '#app/i18n/config.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import {
  recomputeGrades,
  type GradeRecord,
  type GradeRecords,
  type GradesAnalysis,
  type GradesEntriesRecords,
  type GradesMeta,
} from './analyse-grades.ts'
import type { GradeBand } from './bands.ts'
import { gradesReportWorkbook, type GradesExportOptions } from './report-xlsx.server.ts'
import { renderGradesReportPdf } from './report-pdf.server.ts'
import type { GradesStored } from './kind.ts'

type Stored = GradesStored & { id: string; title: string; meta: Record<string, string>; createdAt: Date }

/**
 * What a grades analysis stores: its records without the students in its row, and each
 * subject's students (file order) as entries, the subject's index their part, so a large file's
 * scores are written in batches and read only when other bands are asked for.
 */
export function gradesStorage(analysis: Pick<GradesAnalysis, 'records'>): {
  records: GradesEntriesRecords
  entries: Iterable<AnalysisEntry>
} {
  const { subjects, ...rest } = analysis.records
  function* entries(): Generator<AnalysisEntry> {
    for (const [part, subject] of subjects.entries()) for (const student of subject.students) yield { part, data: student }
  }
  return {
    records: {
      ...rest,
      entries: 'students',
      subjects: subjects.map(({ students, ...subject }) => ({ ...subject, students: students.length })),
    },
    entries: entries(),
  }
}

export type LoadGradeRecordsOptions = { db: Db; stored: Stored }

/** The records a report is recomputed from: from the entries, or (saved before entries) from the row. */
export async function loadGradeRecords({ db, stored }: LoadGradeRecordsOptions): Promise<GradeRecords> {
  const records = stored.records
  if (!('entries' in records)) return records
  const { entries: _entries, subjects, ...rest } = records
  const students = await Promise.all(subjects.map((_subject, part) => analysisEntryData({ db, analysisId: stored.id, part })))
  return { ...rest, subjects: subjects.map((subject, part) => ({ ...subject, students: students[part] as GradeRecord[] })) }
}

/**
 * A stored analysis as the exports read it: the title block back from its stored strings, and
 * the saved report, or the report of the saved records with other bands when given.
 */
export function storedGrades(
  stored: Stored,
  recomputed?: { bands: readonly GradeBand[]; records: GradeRecords },
): GradesExportOptions['analysis'] {
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
  const report = recomputed ? recomputeGrades(recomputed.records, recomputed.bands) : stored.report
  return { meta, report }
}

export type GradesDownloadOptions = {
  db: Db
  stored: Stored
  format: 'pdf' | 'xlsx'
  lang: Lang
  /** Other bands to recompute the report with; the saved report when absent. */
  bands?: readonly GradeBand[] | undefined
  preparedBy?: string | null | undefined
}

/**
 * The Excel or PDF file of a saved grades analysis, as a download; with `bands`, recomputed with
 * them first; the PDF signed off as prepared by `preparedBy`.
 */
export async function gradesExport({ db, stored, format, lang, bands, preparedBy }: GradesDownloadOptions): Promise<Response> {
  const recomputed = bands ? { bands, records: await loadGradeRecords({ db, stored }) } : undefined
  const input: GradesExportOptions = { lang, title: stored.title, createdAt: stored.createdAt, analysis: storedGrades(stored, recomputed) }
  const bytes = format === 'xlsx' ? gradesReportWorkbook(input) : await renderGradesReportPdf({ ...input, preparedBy })
  return exportResponse(bytes, format, { kind: 'grades', title: stored.title, createdAt: stored.createdAt })
}
