import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { isMainThread, parentPort, Worker } from 'node:worker_threads'
import { DomainError } from '#app/lib/errors.ts'
import { XLSX_ERROR_CODES, XlsxError, type XlsxErrorCode } from './types.ts'

// Parsing and analysing an upload is pure CPU for up to a few seconds: it runs in worker
// threads so the event loop keeps serving other requests. A small pool (cores − 1) takes the
// jobs, a queue holds the rest; a worker that crashes, runs out of memory or passes the hard
// timeout is terminated and replaced. The upload's bytes are moved to the worker, not copied.

/** A task: bytes and plain options in, plain data out (the analyses' tasks: features/analyses/worker-tasks.server.ts). */
// oxlint-disable-next-line typescript/no-explicit-any -- each task narrows its own options
export type WorkerTask = (data: Uint8Array, options: any) => unknown
export type TaskMap = Record<string, WorkerTask>
export type TaskOptions<T extends TaskMap, K extends keyof T> = Parameters<T[K]>[1]
export type TaskResult<T extends TaskMap, K extends keyof T> = Awaited<ReturnType<T[K]>>

export interface WorkerPoolOptions {
  /** Worker threads at most; cores − 1 (at least 1) by default. */
  readonly size?: number
  /** Jobs waiting beyond the busy workers; more are refused with `WorkerPoolBusyError`. */
  readonly maxQueue?: number
  /**
   * A running job longer than this has its worker terminated (error code `timeout`). By default
   * twice the job's `timeBudgetMs` option plus 5 s, else one minute.
   */
  readonly hardTimeoutMs?: number
  /** An idle worker is ended after this long (0 keeps it). */
  readonly idleTimeoutMs?: number
  /** V8 old-space limit per worker; a worker past it is ended (error code `too_large`). */
  readonly maxHeapMb?: number
  /**
   * A worker that ran a job on at least this many bytes is ended once it has answered, and a new
   * one takes the next job: the memory a large file made its heap grow to goes back to the
   * system instead of staying with the process until the worker idles out. Off by default.
   */
  readonly recycleAfterBytes?: number
  /** The worker's entry module, built or from source (see resolveWorkerEntry). */
  readonly entry: WorkerEntrySpec
  /** Told of each task a worker finished, failed or was stopped in, with its time in the worker (metrics). */
  readonly onTaskDone?: (done: { task: string; outcome: 'ok' | 'error'; ms: number }) => void
}

/** Where a pool's workers start from: the source module, and the file the server build writes for it. */
export interface WorkerEntrySpec {
  /** The TypeScript entry (development, tests, CLIs), run through tsx. */
  readonly source: URL
  /** The built entry's file name, beside the server build (vite.config.ts writes it). */
  readonly built?: string
}

export interface RunOptions {
  readonly hardTimeoutMs?: number
  /** Aborting drops a queued job, or terminates the worker running it. */
  readonly signal?: AbortSignal
}

export interface WorkerPool<T extends TaskMap> {
  /**
   * Runs `task` on `data` in a worker. `data`'s buffer is transferred when it owns its whole
   * ArrayBuffer (the caller's view is then empty), copied otherwise.
   */
  run<K extends keyof T & string>(task: K, data: Uint8Array, options: TaskOptions<T, K>, run?: RunOptions): Promise<TaskResult<T, K>>
  /** Ends every worker; queued and running jobs are rejected. */
  close(): Promise<void>
  readonly stats: { readonly workers: number; readonly busy: number; readonly queued: number }
}

/** The queue is full: the caller should answer 503 and let the client retry. */
export class WorkerPoolBusyError extends Error {
  readonly code = 'busy'
  constructor() {
    super('busy: too many uploads are being processed')
    this.name = 'WorkerPoolBusyError'
  }
}

// ---- the worker side ----------------------------------------------------------------------

interface JobMessage {
  readonly id: number
  readonly task: string
  readonly data: Uint8Array
  readonly options: unknown
}

interface SerializedError {
  readonly name: string
  readonly message: string
  readonly stack?: string
  readonly props: Record<string, unknown>
}

type ReplyMessage =
  | { readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly id: number; readonly ok: false; readonly error: SerializedError }

/** Called by a worker entry: answers the pool's jobs with the given tasks. */
export function serveWorkerTasks(tasks: TaskMap) {
  if (isMainThread || !parentPort) throw new Error('serveWorkerTasks runs inside a worker thread')
  const port = parentPort
  port.on('message', async (job: JobMessage) => {
    let reply: ReplyMessage
    try {
      const task = Object.hasOwn(tasks, job.task) ? tasks[job.task] : undefined
      if (!task) throw new Error(`unknown worker task "${job.task}"`)
      reply = { id: job.id, ok: true, result: await task(job.data, job.options) }
    } catch (error) {
      reply = { id: job.id, ok: false, error: serializeError(error) }
    }
    try {
      port.postMessage(reply)
    } catch (error) {
      // A result that cannot be cloned (a function, a class instance) is a bug in the task.
      port.postMessage({ id: job.id, ok: false, error: serializeError(error) } satisfies ReplyMessage)
    }
  })
}

function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), props: {} }
  const props: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(error)) {
    try {
      props[key] = structuredClone(value)
    } catch {
      // Not cloneable (a function, a socket): left out.
    }
  }
  return { name: error.name, message: error.message, stack: error.stack, props }
}

const XLSX_CODES: readonly XlsxErrorCode[] = XLSX_ERROR_CODES

/** The worker's error as the same kind of error on this side, with its properties. */
function reviveError(serialized: SerializedError): Error {
  const { props } = serialized
  let error: Error
  if (serialized.name === 'XlsxError' && XLSX_CODES.includes(props.code as XlsxErrorCode)) {
    error = new XlsxError(props.code as XlsxErrorCode)
  } else if (serialized.name === 'DomainError' && typeof props.status === 'number' && typeof props.messageKey === 'string') {
    error = new DomainError(
      props.status as DomainError['status'],
      props.messageKey,
      props.fields as DomainError['fields'],
      props.retryAfterSeconds as number | undefined,
    )
  } else {
    error = new Error(serialized.message)
    error.name = serialized.name
    Object.assign(error, props)
  }
  error.message = serialized.message
  if (serialized.stack) error.stack = `${serialized.stack}\n    at (worker thread)`
  return error
}

// ---- the pool side ------------------------------------------------------------------------

export interface WorkerEntry {
  /** The module the worker runs. */
  readonly url: URL
  /** For a TypeScript source: the bootstrap (eval) code that registers tsx, then imports `url`. */
  readonly bootstrap?: string
}

/**
 * Where the worker starts from. In the Vite build this module sits in build/server/ (or one of
 * its chunk folders) beside the built entry; from source (Vite dev, vitest, tsx) the .ts entry
 * runs through tsx, registered inside the worker with the project's tsconfig (for `#app/...`
 * imports). Node 20 ignores `--import` in a worker's execArgv, hence the bootstrap rather than
 * `execArgv: ['--import', 'tsx']`.
 */
export function resolveWorkerEntry(entry: WorkerEntrySpec): WorkerEntry {
  const here = import.meta.url
  if (entry.built && here.endsWith('.js')) {
    for (const relative of [entry.built, `../${entry.built}`, `../../${entry.built}`]) {
      const candidate = new URL(relative, here)
      if (existsSync(candidate)) return { url: candidate }
    }
  }
  const source = entry.source
  if (!existsSync(source)) throw new Error(`worker entry ${source.pathname} not found`)
  if (!source.pathname.endsWith('.ts')) return { url: source }
  // tsx's ESM register API (the package maps `import` of tsx/esm/api to this .mjs file).
  const tsxApi = pathToFileURL(
    createRequire(here)
      .resolve('tsx/esm/api')
      .replace(/\.c?js$/, '.mjs'),
  ).href
  const tsconfig = process.env.TSX_TSCONFIG_PATH ?? findUp(path.dirname(fileURLToPath(source)), 'tsconfig.json') ?? false
  const bootstrap =
    `import(${JSON.stringify(tsxApi)}).then((tsx) => {` +
    ` tsx.register({ tsconfig: ${JSON.stringify(tsconfig)} });` +
    ` return import(${JSON.stringify(source.href)}) })`
  return { url: source, bootstrap }
}

function findUp(dir: string, name: string): string | undefined {
  for (let current = dir; ; current = path.dirname(current)) {
    const candidate = path.join(current, name)
    if (existsSync(candidate)) return candidate
    if (path.dirname(current) === current) return undefined
  }
}

interface Job {
  readonly id: number
  readonly task: string
  data: Uint8Array
  /** The input's size, kept once `data` has gone to the worker. */
  readonly bytes: number
  readonly options: unknown
  readonly hardTimeoutMs: number
  readonly signal?: AbortSignal
  readonly resolve: (value: unknown) => void
  readonly reject: (error: Error) => void
  onAbort?: () => void
  isSettled: boolean
  /** When a worker took it (performance.now()); unset while queued. */
  startedAt?: number
}

interface Slot {
  readonly worker: Worker
  job: Job | null
  timer?: NodeJS.Timeout
  idleTimer?: NodeJS.Timeout
  isEnding: boolean
}

let nextJobId = 1

export function createWorkerPool<T extends TaskMap>(options: WorkerPoolOptions): WorkerPool<T> {
  const size = Math.max(1, options.size ?? availableParallelism() - 1)
  const maxQueue = options.maxQueue ?? 100
  const idleTimeoutMs = options.idleTimeoutMs ?? 30_000
  const maxHeapMb = options.maxHeapMb ?? 1536
  let entry: WorkerEntry | undefined
  const slots = new Set<Slot>()
  const queue: Job[] = []
  let isClosed = false

  const settle = (job: Job, outcome: { ok: true; value: unknown } | { ok: false; error: Error }) => {
    if (job.isSettled) return
    job.isSettled = true
    if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort)
    if (job.startedAt !== undefined)
      options.onTaskDone?.({ task: job.task, outcome: outcome.ok ? 'ok' : 'error', ms: performance.now() - job.startedAt })
    if (outcome.ok) job.resolve(outcome.value)
    else job.reject(outcome.error)
  }

  const end = (slot: Slot) => {
    if (slot.isEnding) return
    slot.isEnding = true
    slots.delete(slot)
    clearTimeout(slot.timer)
    clearTimeout(slot.idleTimer)
    void slot.worker.terminate()
  }

  const spawn = (): Slot => {
    entry ??= resolveWorkerEntry(options.entry)
    const worker = new Worker(entry.bootstrap ?? entry.url, {
      eval: entry.bootstrap !== undefined,
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb },
      name: 'hallil-xlsx',
    })
    const slot: Slot = { worker, job: null, isEnding: false }
    slots.add(slot)
    worker.on('message', (reply: ReplyMessage) => {
      const job = slot.job
      if (!job || reply.id !== job.id) return
      clearTimeout(slot.timer)
      slot.job = null
      settle(job, reply.ok ? { ok: true, value: reply.result } : { ok: false, error: reviveError(reply.error) })
      if (isClosed) return end(slot)
      if (options.recycleAfterBytes !== undefined && job.bytes >= options.recycleAfterBytes) {
        end(slot)
        return pump()
      }
      worker.unref()
      if (idleTimeoutMs > 0) slot.idleTimer = setTimeout(() => end(slot), idleTimeoutMs).unref()
      pump()
    })
    worker.on('error', (error: Error & { code?: string }) => {
      const job = slot.job
      slot.job = null
      end(slot)
      if (job) {
        settle(job, {
          ok: false,
          error: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new XlsxError('too_large', 'the worker ran out of memory') : error,
        })
      }
      pump()
    })
    worker.on('exit', (code) => {
      const job = slot.job
      slot.job = null
      end(slot)
      if (job) settle(job, { ok: false, error: new Error(`the worker thread exited (code ${code}) during "${job.task}"`) })
      pump()
    })
    return slot
  }

  const dispatch = (slot: Slot, job: Job) => {
    clearTimeout(slot.idleTimer)
    slot.job = job
    job.startedAt = performance.now()
    slot.worker.ref()
    slot.timer = setTimeout(() => {
      slot.job = null
      end(slot)
      settle(job, { ok: false, error: new XlsxError('timeout', `"${job.task}" ran past the hard timeout of ${job.hardTimeoutMs} ms`) })
      pump()
    }, job.hardTimeoutMs)
    const message: JobMessage = { id: job.id, task: job.task, data: job.data, options: job.options }
    try {
      slot.worker.postMessage(message, [job.data.buffer as ArrayBuffer])
    } catch {
      // Not transferable (a pooled or shared buffer): send a copy.
      slot.worker.postMessage({ ...message, data: new Uint8Array(job.data) }, [])
    }
    // Nothing left for the caller to hold on to.
    job.data = new Uint8Array(0)
  }

  const pump = () => {
    if (isClosed) return
    while (queue.length > 0) {
      let slot = [...slots].find((s) => !s.job && !s.isEnding)
      if (!slot) {
        if (slots.size >= size) return
        slot = spawn()
      }
      dispatch(slot, queue.shift()!)
    }
  }

  const ownsWholeBuffer = (data: Uint8Array) =>
    data.buffer instanceof ArrayBuffer && data.byteOffset === 0 && data.byteLength === data.buffer.byteLength

  return {
    run(task, data, taskOptions, run = {}) {
      return new Promise((resolve, reject) => {
        if (isClosed) return reject(new Error('the worker pool is closed'))
        if (run.signal?.aborted) return reject(run.signal.reason as Error)
        if (queue.length >= maxQueue) return reject(new WorkerPoolBusyError())
        const budget = (taskOptions as { timeBudgetMs?: unknown } | undefined)?.timeBudgetMs
        const job: Job = {
          id: nextJobId++,
          task,
          data: ownsWholeBuffer(data) ? data : new Uint8Array(data),
          bytes: data.byteLength,
          options: taskOptions,
          hardTimeoutMs: run.hardTimeoutMs ?? options.hardTimeoutMs ?? (typeof budget === 'number' ? budget * 2 + 5000 : 60_000),
          signal: run.signal,
          resolve: resolve as (value: unknown) => void,
          reject,
          isSettled: false,
        }
        if (run.signal) {
          job.onAbort = () => {
            const queued = queue.indexOf(job)
            if (queued >= 0) queue.splice(queued, 1)
            const slot = [...slots].find((s) => s.job === job)
            if (slot) {
              slot.job = null
              end(slot)
            }
            settle(job, { ok: false, error: run.signal!.reason as Error })
            pump()
          }
          run.signal.addEventListener('abort', job.onAbort, { once: true })
        }
        queue.push(job)
        pump()
      })
    },
    async close() {
      isClosed = true
      for (const job of queue.splice(0)) settle(job, { ok: false, error: new Error('the worker pool is closed') })
      const ending = [...slots].map((slot) => {
        const job = slot.job
        slot.job = null
        if (job) settle(job, { ok: false, error: new Error('the worker pool is closed') })
        slot.isEnding = true
        clearTimeout(slot.timer)
        clearTimeout(slot.idleTimer)
        return slot.worker.terminate()
      })
      slots.clear()
      await Promise.all(ending)
    },
    get stats() {
      return { workers: slots.size, busy: [...slots].filter((s) => s.job).length, queued: queue.length }
    },
  }
}
