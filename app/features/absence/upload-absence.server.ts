import type { Lang } from '#app/i18n/config.ts'
import {
  AnalysisError,
  analyseInWorker,
  checkUpload,
  readLimits,
  saveAnalysis,
  type UploadContext,
} from '#app/features/analyses/index.server.ts'
import { maxSchoolDays, type AbsenceAnalysis, type AbsenceMeta } from './analyse-absence.ts'
import { absenceStorage } from './export.server.ts'

/** The sheet docs/absence.md reads: `الغياب` or `Absence`, else the first. */
export const absenceSheetNames = ['الغياب', 'Absence'] as const

export type AbsenceUpload = { name: string; size: number; bytes: () => Promise<Uint8Array> }

export type UploadAbsenceOptions = UploadContext & {
  input: { userId: string; file: AbsenceUpload | null; lang: Lang; schoolDays?: number | undefined }
}

/**
 * An uploaded absence workbook to a saved analysis: checks, then read and analysed in a worker
 * thread, then stored: the report in the analysis' row, each student (and a totals file's rows
 * as read) as an entry of its own, written in batches (never the file).
 */
export async function uploadAbsence({ input, ...ctx }: UploadAbsenceOptions) {
  await checkUpload({ ...ctx, userId: input.userId, file: input.file })
  const file = input.file as AbsenceUpload
  const analysis: AbsenceAnalysis = await analyseInWorker({
    ...ctx,
    task: 'absence',
    bytes: await file.bytes(),
    taskOptions: {
      read: readLimits(ctx.env, absenceSheetNames),
      ...(input.schoolDays !== undefined && { schoolDays: input.schoolDays }),
    },
  })
  const { records, entries } = absenceStorage(analysis)
  const saved = await saveAnalysis({
    db: ctx.db,
    input: {
      userId: input.userId,
      kind: 'absence',
      title: absenceTitle(analysis.meta, file.name),
      meta: metaRecord(analysis.meta),
      headline: {
        attendanceRate: analysis.report.summary.attendanceRate,
        records: analysis.report.summary.records,
        students: analysis.report.summary.students,
        from: analysis.report.byDate?.[0]?.date ?? analysis.report.recognised?.period?.fromDate ?? null,
        to: analysis.report.byDate?.at(-1)?.date ?? analysis.report.recognised?.period?.toDate ?? null,
      },
      report: analysis.report,
      records,
    },
    entries,
  })
  return { id: saved.id, analysis }
}

/**
 * The school and term from the title block, else the file's name. The period is shown beside
 * the title (and in the list) rather than in it, where dates would reorder in Arabic text.
 */
export function absenceTitle(meta: AbsenceMeta, fileName: string): string {
  const parts = [meta.school, meta.term].filter((p): p is string => Boolean(p && p.trim()))
  if (parts.length) return parts.join(' · ')
  return fileName.replace(/\.(xlsx|xls|csv)$/i, '').trim() || 'absence'
}

/**
 * The `school_days` field of an upload (form or API): empty is "take them from the file's
 * period"; anything but a whole number from 1 to 366 is refused (422) before the file is read.
 */
export function schoolDaysField(value: FormDataEntryValue | null): number | undefined {
  if (value === null || (typeof value === 'string' && value.trim() === '')) return undefined
  const text = typeof value === 'string' ? value.trim() : ''
  const days = /^\d{1,3}$/.test(text) ? Number(text) : Number.NaN
  if (!Number.isInteger(days) || days < 1 || days > maxSchoolDays)
    throw new AnalysisError('absence.errors.schoolDaysInvalid', { values: { max: maxSchoolDays } })
  return days
}

function metaRecord(meta: AbsenceMeta): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(meta)) if (typeof value === 'string' && value) out[key] = value
  return out
}
