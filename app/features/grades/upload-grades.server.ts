import type { Lang } from '#app/i18n/config.ts'
import { analyseInWorker, checkUpload, readLimits, saveAnalysis, type UploadContext } from '#app/features/analyses/index.server.ts'
import { gradesSheetNames, type GradesAnalysis, type GradesMeta } from './analyse-grades.ts'
import { resolveBands, type GradeBand } from './bands.ts'
import { gradesStorage } from './export.server.ts'

export type GradesUpload = { name: string; size: number; bytes: () => Promise<Uint8Array> }

export type UploadGradesOptions = UploadContext & {
  input: { userId: string; file: GradesUpload | null; lang: Lang; bands?: readonly GradeBand[] }
}

/**
 * An uploaded grades workbook to a saved analysis: checks, read and analysed in a worker
 * thread, stored: the report, and the scored records it can be recomputed from with other bands,
 * each student an entry written in batches (never the file).
 */
export async function uploadGrades({ input, ...ctx }: UploadGradesOptions) {
  const bands = resolveBands(input.bands)
  await checkUpload({ ...ctx, userId: input.userId, file: input.file })
  const file = input.file as GradesUpload
  const analysis: GradesAnalysis = await analyseInWorker({
    ...ctx,
    task: 'grades',
    bytes: await file.bytes(),
    taskOptions: {
      read: readLimits(ctx.env, gradesSheetNames),
      bands,
    },
  })
  const first = analysis.report.subjects[0]
  const { records, entries } = gradesStorage(analysis)
  const saved = await saveAnalysis({
    db: ctx.db,
    input: {
      userId: input.userId,
      kind: 'grades',
      title: gradesTitle(analysis.meta, file.name),
      meta: metaRecord(analysis.meta),
      headline: {
        subjects: analysis.report.subjects.length,
        students: analysis.report.subjects.reduce((n, s) => n + s.summary.students, 0),
        // The first subject's average as a percent of its max: the list's one figure.
        average:
          first && first.summary.average !== null && first.max > 0 ? Math.round((10_000 * first.summary.average) / first.max) / 100 : null,
        passRate: first?.summary.passRate ?? null,
      },
      report: analysis.report,
      records,
    },
    entries,
  })
  return { id: saved.id, analysis }
}

/** School, subject and exam from the title block, else the file's name. */
export function gradesTitle(meta: GradesMeta, fileName: string): string {
  const parts = [meta.school, meta.subject, meta.exam].filter((p): p is string => Boolean(p && p.trim()))
  if (parts.length) return parts.join(' · ')
  return fileName.replace(/\.xlsx$/i, '').trim() || 'grades'
}

function metaRecord(meta: GradesMeta): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(meta))
    if ((typeof value === 'string' && value) || typeof value === 'number') out[key] = String(value)
  return out
}
