import { analyseAbsence } from '#app/features/absence/analyse-absence.ts'
import { analyseGrades, type AnalyseGradesOptions } from '#app/features/grades/analyse-grades.ts'
import { readSheet, readWorkbook } from '#app/server/workbook-reading/read-workbook.server.ts'
import type { ReadWorkbookOptions, WorkbookGrid } from '#app/server/workbook-reading/grid.ts'
import type { ReadSheetOptions, ReadSheetResult } from './types.ts'

/**
 * What a worker thread can be asked to do: a task name → a function of the uploaded bytes and
 * plain options, returning plain data. Options and results cross the thread boundary by
 * structured clone (no functions, no class instances); thrown errors come back as real errors
 * (`XlsxError` with its code, `DomainError` with its status and messageKey).
 *
 * Add a feature's job here (e.g. `absence`: read the sheet and analyse it, so only the small
 * report crosses back), importing the feature's pure analysis module directly (not its index,
 * which carries pages and renderers): this file is where the worker bundle starts from, so
 * everything a task imports is bundled with it. scripts/check-imports.js allows it.
 */
export const workerTasks = {
  read: (data: Uint8Array, options: ReadSheetOptions): ReadSheetResult => readSheet(data, options),
  /** Any upload (.xlsx, .xls, .csv) to its sheets of cells, merged ranges included. */
  readWorkbook: (data: Uint8Array, options: ReadWorkbookOptions): WorkbookGrid => readWorkbook(data, options),
  /** An absence file (every sheet) to its analysis: only the report and the students cross back. */
  absence: (data: Uint8Array, options: { read: ReadWorkbookOptions; schoolDays?: number }) =>
    analyseAbsence(readWorkbook(data, options.read), options.schoolDays === undefined ? {} : { schoolDays: options.schoolDays }),
  /** A grades file (every sheet) to its analysis (meta, report and the records to recompute it with other bands). */
  grades: (data: Uint8Array, options: { read: ReadWorkbookOptions; bands?: AnalyseGradesOptions['bands'] }) =>
    analyseGrades(readWorkbook(data, options.read), { bands: options.bands }),
}

export type WorkerTasks = typeof workerTasks
export type WorkerTaskName = keyof WorkerTasks
