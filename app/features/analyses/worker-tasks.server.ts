import { absenceKind } from '#app/features/absence/kind.ts'
import { gradesKind } from '#app/features/grades/kind.ts'
import type { ReadWorkbookOptions } from '#app/platform/workbook-reading/grid.ts'
import { readWorkbook } from '#app/platform/workbook-reading/read-workbook.server.ts'
import { AnalysisError } from './analysis-error.ts'
import { withOtherTool, type AnalysisKindRecord } from './layouts.ts'

/**
 * What the analyses' worker threads can be asked to do: a task name → a function of the
 * uploaded bytes and plain options, returning plain data. Options and results cross the thread
 * boundary by structured clone (no functions, no class instances); thrown errors come back as
 * real errors (`XlsxError` with its code, `DomainError` with its status and messageKey).
 *
 * Each analysis kind is a task: read every sheet of the file, then the tool's analysis, so only
 * the report and its records cross back. This file is where the worker bundle starts from
 * (`worker.ts`), so it takes each tool through its pure `kind.ts`, never its index.
 */
function analyseTask<K extends string, Options, Analysis>(record: AnalysisKindRecord<K, Options, Analysis>) {
  return (data: Uint8Array, options: { read: ReadWorkbookOptions } & Options): Analysis => {
    try {
      // The grid is handed over, not kept here: the analysis lets go of the cells it has read, and
      // a 320,000-row file's grid held for the whole analysis cost the server 100 MB more at its peak.
      return record.analyse(readWorkbook(data, options.read), options)
    } catch (error) {
      if (!(error instanceof AnalysisError) || !error.details.missingColumns) throw error
      // Columns missing: perhaps it is the other tool's file (only then is the file read again).
      throw withOtherTool(
        error,
        readWorkbook(data, options.read),
        kinds.filter((other) => other.kind !== record.kind),
      )
    }
  }
}

const kinds = [absenceKind, gradesKind]

export const workerTasks = {
  /** Any upload (.xlsx, .xls, .csv) to its sheets of cells, merged ranges included. */
  readWorkbook: (data: Uint8Array, options: ReadWorkbookOptions) => readWorkbook(data, options),
  [absenceKind.kind]: analyseTask(absenceKind),
  [gradesKind.kind]: analyseTask(gradesKind),
}

export type WorkerTasks = typeof workerTasks
export type WorkerTaskName = keyof WorkerTasks
