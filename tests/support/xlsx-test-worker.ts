// A worker entry for the pool's tests: the readers as tasks plus ones that fail in every way a
// task can (a domain error, an uncaught exception, an exit, an endless loop, too much memory).
import { setTimeout as sleep } from 'node:timers/promises'
import { threadId } from 'node:worker_threads'
import { DomainError } from '#app/lib/errors.ts'
import { readSheet, readWorkbook } from '#app/platform/workbook-reading/read-workbook.server.ts'
import type { ReadWorkbookOptions } from '#app/platform/workbook-reading/grid.ts'
import type { ReadSheetOptions } from '#app/platform/xlsx/types.ts'
import { serveWorkerTasks } from '#app/platform/xlsx/worker-pool.server.ts'

export const testTasks = {
  read: (data: Uint8Array, options: ReadSheetOptions) => readSheet(data, options),
  readWorkbook: (data: Uint8Array, options: ReadWorkbookOptions) => readWorkbook(data, options),
  describe: (data: Uint8Array) => ({ byteLength: data.byteLength, first: data[0] ?? null, threadId }),
  sleep: async (_data: Uint8Array, options: { ms: number }) => {
    await sleep(options.ms)
    return threadId
  },
  domainError: (): never => {
    throw new DomainError(422, 'absence.errors.tooManySkipped', { file: ['absence.errors.tooManySkipped'] })
  },
  uncaught: () => {
    setImmediate(() => {
      throw new Error('boom outside the task')
    })
    return new Promise<never>(() => {})
  },
  exit: (): never => process.exit(3),
  spin: (): never => {
    for (;;) {
      // A task stuck in a loop: only terminating the thread ends it.
    }
  },
  hog: () => {
    const hoard: number[][] = []
    for (;;) hoard.push(Array.from({ length: 1 << 20 }, (_v, i) => i))
  },
  uncloneable: () => ({ run: () => 1 }),
}

export type TestTasks = typeof testTasks

serveWorkerTasks(testTasks)
