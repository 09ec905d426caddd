import { DomainError } from '#app/lib/errors.ts'
import type { RequestContext } from '#app/platform/context.server.ts'
import { hitRateLimit } from '#app/platform/rate-limit.server.ts'
import { WorkerPoolBusyError } from '#app/platform/xlsx/worker-pool.server.ts'
import { runInWorker } from './analysis-workers.server.ts'
import type { WorkerTaskName } from './worker-tasks.server.ts'
import { CSV_MAX_LINE_BYTES, type ReadWorkbookOptions } from '#app/platform/workbook-reading/grid.ts'
import { XlsxError, type ReadSheetOptions } from '#app/platform/xlsx/types.ts'
import { AnalysisError } from './analysis-error.ts'
import type { UploadFailure } from '#app/lib/upload-failure.ts'

export type UploadContext = Pick<RequestContext, 'db' | 'env' | 'logger'>

const MB = 1024 * 1024

/** The reader's limits from the configuration (docs/absence.md, "Files and limits"), for `readSheet` and `readWorkbook` alike. */
export function readLimits(env: UploadContext['env'], preferredSheets: readonly string[]): ReadSheetOptions & ReadWorkbookOptions {
  return {
    preferredSheets,
    maxUncompressedBytes: env.ANALYSIS_MAX_UNCOMPRESSED_MB * MB,
    // The header and the title block sit above the data rows: a little room for them.
    maxRows: env.ANALYSIS_MAX_ROWS + 40,
    maxSheets: env.ANALYSIS_MAX_SHEETS,
    timeBudgetMs: env.ANALYSIS_TIME_BUDGET_MS,
  }
}

/** Extensions a teacher may upload; the bytes still decide what the file is. */
const UPLOAD_EXTENSIONS = new Set(['xlsx', 'xls', 'csv'])

export type CheckUploadOptions = UploadContext & { userId: string; file: { name: string; size: number } | null }

/**
 * Checks an upload before any parsing: a file is there, its name (if it has an extension) says
 * .xlsx, .xls or .csv, its size is within the limit, and the teacher has not uploaded too often. Throws
 * AnalysisError / DomainError with the message the page and the API show.
 */
export async function checkUpload({ userId, file, ...ctx }: CheckUploadOptions) {
  if (!file || file.size === 0) throw new AnalysisError('analyses.errors.noFile')
  const extension = /\.([^./\\]+)$/.exec(file.name)?.[1]?.toLowerCase()
  if (extension && !UPLOAD_EXTENSIONS.has(extension)) throw new AnalysisError('analyses.errors.invalidFormat')
  if (file.size > ctx.env.ANALYSIS_MAX_UPLOAD_MB * MB)
    throw new AnalysisError('analyses.errors.tooLarge', { values: { mb: ctx.env.ANALYSIS_MAX_UPLOAD_MB } }, 413)
  const limit = await hitRateLimit({ db: ctx.db, key: `upload:${userId}`, limit: ctx.env.ANALYSIS_UPLOADS_PER_HOUR, windowSeconds: 3600 })
  if (!limit.allowed) throw new DomainError(429, 'analyses.errors.rateLimited', undefined, limit.retryAfterSeconds)
}

export type AnalyseInWorkerOptions<K extends WorkerTaskName> = UploadContext & {
  task: K
  bytes: Uint8Array
  /** What the task reads and how (its reader's limits, the kind's own settings). */
  taskOptions: Parameters<typeof runInWorker<K>>[2]
}

/**
 * Runs a feature's worker task (read the sheet and analyse it) off the event loop, turning the
 * reader's refusals into the teacher's messages.
 */
export async function analyseInWorker<K extends WorkerTaskName>({ task, bytes, taskOptions, ...ctx }: AnalyseInWorkerOptions<K>) {
  try {
    return await runInWorker(task, bytes, taskOptions)
  } catch (error) {
    throw uploadError(ctx, error)
  }
}

export function uploadError(ctx: UploadContext, error: unknown): Error {
  if (error instanceof AnalysisError) return error
  if (error instanceof Error && error.name === 'AnalysisError') {
    // Rebuilt from the worker thread: a plain Error carrying the AnalysisError's fields.
    const e = error as Error & { messageKey?: unknown; details?: unknown }
    const status = (error as { status?: unknown }).status === 413 ? 413 : 422
    if (typeof e.messageKey === 'string') return new AnalysisError(e.messageKey, (e.details ?? {}) as AnalysisError['details'], status)
  }
  if (error instanceof XlsxError) {
    switch (error.code) {
      case 'format':
      case 'encrypted':
        return new AnalysisError('analyses.errors.invalidFormat')
      case 'too_large':
        return new AnalysisError('analyses.errors.tooLargeUncompressed', { values: { mb: ctx.env.ANALYSIS_MAX_UNCOMPRESSED_MB } }, 413)
      case 'too_many_rows':
        return new AnalysisError('analyses.errors.tooManyRows', { values: { rows: ctx.env.ANALYSIS_MAX_ROWS } }, 413)
      case 'too_many_sheets':
        return new AnalysisError('analyses.errors.tooManySheets', { values: { sheets: ctx.env.ANALYSIS_MAX_SHEETS } }, 413)
      case 'line_too_long':
        return new AnalysisError('analyses.errors.lineTooLong', { values: { mb: CSV_MAX_LINE_BYTES / MB } })
      case 'mixed_encoding':
        return new AnalysisError('analyses.errors.mixedEncoding')
      case 'timeout':
        return new AnalysisError('analyses.errors.timeout')
    }
  }
  if (error instanceof WorkerPoolBusyError) return new DomainError(503, 'analyses.errors.busy')
  if (error instanceof DomainError) return error
  ctx.logger.error({ err: error instanceof Error ? error.name : 'unknown' }, 'analysis failed')
  return error instanceof Error ? error : new Error('analysis failed')
}

/** A refusal as data for the page (or the JSON answer); anything unexpected is rethrown. */
export function uploadFailure(error: unknown): UploadFailure {
  if (error instanceof AnalysisError)
    return {
      status: error.status,
      messageKey: error.messageKey,
      ...(error.details.values ? { values: { ...error.details.values } } : {}),
      ...(error.details.missingColumns ? { missingColumns: [...error.details.missingColumns] } : {}),
      ...(error.details.otherTool ? { otherTool: error.details.otherTool } : {}),
      ...(error.details.skipped
        ? {
            skipped: error.details.skipped.map((s) => ({
              row: s.row,
              reason: { key: s.reason.key, ...(s.reason.values ? { values: { ...s.reason.values } } : {}) },
            })),
          }
        : {}),
    }
  if (error instanceof DomainError)
    return {
      status: error.status,
      messageKey: error.messageKey,
      ...(error.retryAfterSeconds
        ? { retryAfterSeconds: error.retryAfterSeconds, values: { minutes: Math.ceil(error.retryAfterSeconds / 60) } }
        : {}),
    }
  throw error
}

/** The uploaded file of a multipart form, as bytes, or null. */
export async function uploadedFile(form: FormData): Promise<{ name: string; size: number; bytes: () => Promise<Uint8Array> } | null> {
  const file = form.get('file')
  if (!file || typeof file === 'string') return null
  return { name: file.name, size: file.size, bytes: async () => new Uint8Array(await file.arrayBuffer()) }
}

/**
 * The JSON answer a tool page's upload script reads: where the saved analysis is (201), or the
 * refusal with its message key, values and status (and Retry-After on a 429).
 */
export async function uploadAnswer(lang: string, upload: () => Promise<{ id: string }>): Promise<Response> {
  try {
    const { id } = await upload()
    return Response.json({ ok: true, location: `/${lang}/single-analysis?id=${id}` }, { status: 201 })
  } catch (error) {
    const failure = uploadFailure(error)
    const headers = failure.retryAfterSeconds ? { 'Retry-After': String(failure.retryAfterSeconds) } : undefined
    return Response.json({ ok: false, ...failure }, { status: failure.status, headers })
  }
}
