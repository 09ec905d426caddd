import { observeWorkerTask, watchWorkerPool } from '#app/platform/metrics.server.ts'
import {
  createWorkerPool,
  type RunOptions,
  type TaskOptions,
  type TaskResult,
  type WorkerPool,
} from '#app/platform/xlsx/worker-pool.server.ts'
import type { WorkerTaskName, WorkerTasks } from './worker-tasks.server.ts'

// The process's pool of analysis workers, started on the first upload. Its entry is worker.ts
// beside this file, built as analysis-worker.js (the name is a variable so the bundler leaves
// the URL alone: the build finds the built file first).
const sourceEntry = 'worker.ts'
const entry = { source: new URL(sourceEntry, import.meta.url), built: 'analysis-worker.js' }

let shared: WorkerPool<WorkerTasks> | undefined
watchWorkerPool('analysis', () => shared?.stats)

/**
 * A worker that has read a file of a megabyte or more (some 30,000 rows) is replaced once it has
 * answered: what the file made its heap grow to is given back (a 10 MB file left some 100 MB
 * with the process), at the cost of starting a worker for the next such upload.
 */
const RECYCLE_AFTER_BYTES = 1024 * 1024

/** Runs an analyses' task (`readWorkbook`, or a tool's read-and-analyse) on an upload in a worker thread. Throws what the task throws. */
export function runInWorker<K extends WorkerTaskName>(
  task: K,
  data: Uint8Array,
  options: TaskOptions<WorkerTasks, K>,
  run?: RunOptions,
): Promise<TaskResult<WorkerTasks, K>> {
  shared ??= createWorkerPool<WorkerTasks>({
    entry,
    recycleAfterBytes: RECYCLE_AFTER_BYTES,
    onTaskDone: ({ task: name, outcome, ms }) => observeWorkerTask({ pool: 'analysis', task: name, outcome, seconds: ms / 1000 }),
  })
  return shared.run(task, data, options, run)
}

/** Ends the analysis workers (on shutdown, or after tests and benches). */
export async function closeAnalysisWorkers(): Promise<void> {
  const pool = shared
  shared = undefined
  await pool?.close()
}
