import { fork, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { availableParallelism, setPriority } from 'node:os'
import { fileURLToPath } from 'node:url'
import type { DocumentOutputs, PdfDiagnostic, RenderedDocument, RenderPdfOptions } from './pdf.server.ts'
import { observePdfRender, watchWorkerPool } from './metrics.server.ts'
import { PdfRenderError } from './pdf.server.ts'

// Renders that a teacher's input can make heavy (printed tests) run in child processes, never on
// the event loop: typst works inside one native call that a worker thread's terminate() cannot
// interrupt (measured: the thread keeps computing, and its memory is native, outside V8's
// resourceLimits), so a render past its time budget or memory cap could not be stopped in a
// thread. A process can be killed; it is then replaced on the next render. See
// docs/decisions/014-renders-in-child-processes.md.

export type PdfRenderRequest = {
  readonly id: number
  readonly source: string
  readonly inputs?: Record<string, string>
  readonly images?: Record<string, Uint8Array>
  readonly outputs: DocumentOutputs
  /**
   * Renders of one document (its page count, then its SVG or PDF) go to the process that laid it
   * out last, where typst still holds the layout: the export then skips the compile.
   */
  readonly affinity?: string
}

export type PdfRenderReply =
  | { readonly id: number; readonly ok: true; readonly result: RenderedDocument; readonly peakRssMb?: number; readonly cpuMs?: number }
  | { readonly id: number; readonly ok: false; readonly error: { name: string; message: string; diagnostics?: PdfDiagnostic[] } }

export type PdfLimitCode = 'timeout' | 'memory' | 'busy' | 'crashed'

/** A render stopped by its budget (`timeout`, `memory`), refused (`busy`) or lost (`crashed`). */
export class PdfRenderLimitError extends Error {
  constructor(
    readonly code: PdfLimitCode,
    message: string,
  ) {
    super(message)
    this.name = 'PdfRenderLimitError'
  }
}

export interface PdfPoolOptions {
  /** Render processes at most; cores − 1 (at least 1) by default. */
  readonly size?: number
  /** Renders waiting beyond the busy processes; more are refused (`busy`). */
  readonly maxQueue?: number
  /**
   * A render using more CPU time than this is killed (`timeout`). CPU time, not the clock: on a
   * busy machine the same render takes longer but costs the same. The clock stops it at four
   * times this, however starved it is.
   */
  readonly timeBudgetMs?: number
  /** A render process whose resident memory passes this is killed (`memory`). */
  readonly maxRssMb?: number
  /**
   * A process still holding more than this after a render is ended rather than kept for the
   * next: memory a render leaves behind is not given back, and the next render would start from
   * there and could pass maxRssMb for another test's sake. Half of maxRssMb by default.
   */
  readonly recycleRssMb?: number
  /** An idle process is ended after this long. */
  readonly idleTimeoutMs?: number
  /** The process's entry module (tests); pdf-process.js (built) or pdf-process.ts by default. */
  readonly entry?: URL
  /** Told of each render that reached a process: its outcome (`ok`, `error`, or the limit that stopped it) and time (metrics). */
  readonly onRenderDone?: (done: { outcome: 'ok' | 'error' | PdfLimitCode; ms: number }) => void
}

export interface PdfPool {
  render(request: Omit<PdfRenderRequest, 'id'>): Promise<RenderedDocument>
  close(): Promise<void>
  /**
   * `peakRssMb`: the most memory any of its processes has held; `cpuMs`: the CPU time its
   * renders have used, in all (as the processes reported them).
   */
  readonly stats: {
    readonly processes: number
    readonly busy: number
    readonly queued: number
    readonly pids: number[]
    readonly peakRssMb: number
    readonly cpuMs: number
  }
}

type Job = {
  readonly request: PdfRenderRequest
  readonly resolve: (result: RenderedDocument) => void
  readonly reject: (error: Error) => void
  /** When a process took it (performance.now()). */
  startedAt?: number
  /** Already stopped once for memory in a process that had rendered before, and queued again. */
  isRetry?: boolean
}

type Slot = {
  readonly child: ChildProcess
  isReady: boolean
  job: Job | null
  /** Renders it has finished: a process that has rendered before carries what they left behind. */
  rendered: number
  timer?: NodeJS.Timeout
  watch?: NodeJS.Timeout
  idle?: NodeJS.Timeout
  isEnding: boolean
  affinity?: string
}

const BUILT_ENTRY = 'pdf-process.js'
const SOURCE_ENTRY = 'pdf-process.ts'

function resolveEntry(custom?: URL): { path: string; execArgv: string[] } {
  const here = import.meta.url
  if (!custom && here.endsWith('.js')) {
    for (const relative of [BUILT_ENTRY, `../${BUILT_ENTRY}`, `../../${BUILT_ENTRY}`]) {
      const candidate = new URL(relative, here)
      if (existsSync(candidate)) return { path: fileURLToPath(candidate), execArgv: [] }
    }
  }
  const source = custom ?? new URL(SOURCE_ENTRY, here)
  const file = fileURLToPath(source)
  if (!existsSync(file)) throw new Error(`PDF render process entry not found: ${file}`)
  return { path: file, execArgv: file.endsWith('.ts') ? ['--import', 'tsx'] : [] }
}

/** Resident memory of a process in MB, from /proc (Linux); undefined elsewhere. */
function residentMb(pid: number | undefined): number | undefined {
  if (!pid) return undefined
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]
    return kb ? Number(kb) / 1024 : undefined
  } catch {
    return undefined
  }
}

/** CPU time (user and system) a process has used, in ms, from /proc (Linux; USER_HZ is 100). */
function cpuMs(pid: number | undefined): number | undefined {
  if (!pid) return undefined
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The fields after the command name, which may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return undefined
  }
}

let nextId = 1

export function createPdfPool(options: PdfPoolOptions = {}): PdfPool {
  const size = Math.max(1, options.size ?? availableParallelism() - 1)
  const maxQueue = options.maxQueue ?? 32
  const timeBudgetMs = options.timeBudgetMs ?? 30_000
  const maxRssMb = options.maxRssMb ?? 1024
  const recycleRssMb = options.recycleRssMb ?? maxRssMb / 2
  const idleTimeoutMs = options.idleTimeoutMs ?? 60_000
  const slots = new Set<Slot>()
  const queue: Job[] = []
  let isClosed = false
  let peakRssMb = 0
  let cpuTotalMs = 0

  const end = (slot: Slot) => {
    if (slot.isEnding) return
    slot.isEnding = true
    slots.delete(slot)
    clearTimeout(slot.timer)
    clearInterval(slot.watch)
    clearTimeout(slot.idle)
    slot.child.kill('SIGKILL')
  }

  const report = (job: Job, outcome: 'ok' | 'error' | PdfLimitCode) => {
    if (job.startedAt !== undefined) options.onRenderDone?.({ outcome, ms: performance.now() - job.startedAt })
  }

  const fail = (slot: Slot, error: Error) => {
    const job = slot.job
    slot.job = null
    if (job) report(job, error instanceof PdfRenderLimitError ? error.code : 'error')
    end(slot)
    // Memory left by earlier renders is not this document's: it gets one more try, first in line,
    // in a fresh process, and only a fresh process's stop says the document itself is too large.
    if (job && !job.isRetry && !isClosed && slot.rendered > 0 && error instanceof PdfRenderLimitError && error.code === 'memory') {
      queue.unshift({ ...job, startedAt: undefined, isRetry: true })
    } else job?.reject(error)
    pump()
  }

  const spawn = (): Slot => {
    const entry = resolveEntry(options.entry)
    const child = fork(entry.path, [], {
      execArgv: [...entry.execArgv, `--max-old-space-size=${maxRssMb}`],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    // Renders yield the CPU to the server's requests: on a machine with few cores a long print
    // slows itself, not everyone else's pages.
    try {
      if (child.pid) setPriority(child.pid, 10)
    } catch {
      // Not permitted here: the render runs at the server's priority.
    }
    const slot: Slot = { child, isReady: false, job: null, rendered: 0, isEnding: false }
    slots.add(slot)
    child.on('message', (message: PdfRenderReply | { ready: true }) => {
      if ('ready' in message) {
        slot.isReady = true
        return pump()
      }
      const job = slot.job
      if (!job || message.id !== job.request.id) return
      clearTimeout(slot.timer)
      clearInterval(slot.watch)
      slot.job = null
      slot.rendered++
      report(job, message.ok ? 'ok' : 'error')
      if (message.ok) {
        peakRssMb = Math.max(peakRssMb, message.peakRssMb ?? 0)
        cpuTotalMs += message.cpuMs ?? 0
        job.resolve(message.result)
      } else {
        const { error } = message
        job.reject(
          error.diagnostics ? new PdfRenderError(error.diagnostics) : Object.assign(new Error(error.message), { name: error.name }),
        )
      }
      if (isClosed) return end(slot)
      const resident = residentMb(child.pid)
      if (resident !== undefined && resident > recycleRssMb) {
        end(slot)
        return pump()
      }
      child.unref()
      slot.idle = setTimeout(() => end(slot), idleTimeoutMs).unref()
      pump()
    })
    child.on('error', (error) => fail(slot, new PdfRenderLimitError('crashed', `the render process failed: ${error.message}`)))
    child.on('exit', (code, signal) => {
      if (slot.isEnding && !slot.job) return
      fail(slot, new PdfRenderLimitError('crashed', `the render process exited (${signal ?? code})`))
    })
    return slot
  }

  const dispatch = (slot: Slot, job: Job) => {
    clearTimeout(slot.idle)
    slot.job = job
    job.startedAt = performance.now()
    slot.child.ref()
    slot.affinity = job.request.affinity
    const cpuAtStart = cpuMs(slot.child.pid)
    const wallLimitMs = cpuAtStart === undefined ? timeBudgetMs : timeBudgetMs * 4
    slot.timer = setTimeout(() => fail(slot, new PdfRenderLimitError('timeout', `the render ran past ${wallLimitMs} ms`)), wallLimitMs)
    slot.watch = setInterval(() => {
      const mb = residentMb(slot.child.pid)
      if (mb !== undefined && mb > maxRssMb) return fail(slot, new PdfRenderLimitError('memory', `the render passed ${maxRssMb} MB`))
      const cpu = cpuMs(slot.child.pid)
      if (cpu !== undefined && cpuAtStart !== undefined && cpu - cpuAtStart > timeBudgetMs)
        fail(slot, new PdfRenderLimitError('timeout', `the render used more than ${timeBudgetMs} ms of CPU`))
    }, 100)
    slot.child.send(job.request)
  }

  const pump = () => {
    if (isClosed) return
    while (queue.length > 0) {
      const idle = [...slots].filter((s) => s.isReady && !s.job && !s.isEnding)
      const next = queue[0]!
      const slot = idle.find((s) => next.request.affinity !== undefined && s.affinity === next.request.affinity) ?? idle[0]
      if (slot) {
        dispatch(slot, queue.shift()!)
        continue
      }
      // Processes still starting will take the next jobs.
      const starting = [...slots].filter((s) => !s.isReady && !s.isEnding).length
      if (starting >= queue.length || slots.size >= size) return
      spawn()
    }
  }

  return {
    render(request) {
      return new Promise((resolve, reject) => {
        if (isClosed) return reject(new Error('the PDF pool is closed'))
        if (queue.length >= maxQueue) return reject(new PdfRenderLimitError('busy', 'too many renders are waiting'))
        queue.push({ request: { ...request, id: nextId++ }, resolve, reject })
        pump()
      })
    },
    async close() {
      isClosed = true
      for (const job of queue.splice(0)) job.reject(new Error('the PDF pool is closed'))
      const exits = [...slots].map((slot) => {
        const job = slot.job
        slot.job = null
        job?.reject(new Error('the PDF pool is closed'))
        // An idle process is unref'd: without this the loop could end before its exit is seen.
        slot.child.ref()
        const exited =
          slot.child.exitCode !== null || slot.child.signalCode !== null
            ? Promise.resolve()
            : new Promise<void>((done) => slot.child.once('exit', () => done()))
        end(slot)
        return exited
      })
      await Promise.all(exits)
    },
    get stats() {
      return {
        processes: slots.size,
        busy: [...slots].filter((s) => s.job).length,
        queued: queue.length,
        pids: [...slots].flatMap((s) => (s.child.pid ? [s.child.pid] : [])),
        peakRssMb,
        cpuMs: cpuTotalMs,
      }
    },
  }
}

// ---- one render per distinct document ---------------------------------------------------

type CacheEntry = { readonly bytes: number; readonly outcome: { ok: true; value: RenderedDocument } | { ok: false; error: Error } }

export interface RenderCacheOptions {
  readonly maxEntries?: number
  readonly maxBytes?: number
}

/**
 * Finished renders by content hash, least recently used out first, bounded in entries and bytes;
 * renders under way are shared by everyone asking for the same document meanwhile. A render
 * stopped by its budget is remembered too, so asking again does not spend the budget again.
 */
export function createRenderCache(options: RenderCacheOptions = {}) {
  const maxEntries = options.maxEntries ?? 32
  const maxBytes = options.maxBytes ?? 128 * 1024 * 1024
  const entries = new Map<string, CacheEntry>()
  const pending = new Map<string, Promise<RenderedDocument>>()
  let bytes = 0

  const remember = (key: string, entry: CacheEntry) => {
    if (entry.bytes > maxBytes) return
    entries.set(key, entry)
    bytes += entry.bytes
    for (const [oldKey, old] of entries) {
      if (entries.size <= maxEntries && bytes <= maxBytes) break
      entries.delete(oldKey)
      bytes -= old.bytes
    }
  }

  return {
    async get(key: string, produce: () => Promise<RenderedDocument>): Promise<RenderedDocument> {
      const hit = entries.get(key)
      if (hit) {
        entries.delete(key)
        entries.set(key, hit)
        if (hit.outcome.ok) return hit.outcome.value
        throw hit.outcome.error
      }
      const running = pending.get(key)
      if (running) return running
      const promise = produce().then(
        (value) => {
          remember(key, { bytes: (value.pdf?.byteLength ?? 0) + (value.svg?.length ?? 0) * 2, outcome: { ok: true, value } })
          return value
        },
        (error: Error) => {
          if (error instanceof PdfRenderLimitError && (error.code === 'timeout' || error.code === 'memory'))
            remember(key, { bytes: 1024, outcome: { ok: false, error } })
          throw error
        },
      )
      pending.set(key, promise)
      try {
        return await promise
      } finally {
        pending.delete(key)
      }
    },
    get stats() {
      return { entries: entries.size, bytes, pending: pending.size }
    },
  }
}

/** What identifies a render: the source, its inputs, its images and the outputs asked for. */
export function renderKey(source: string, options: RenderPdfOptions, outputs: DocumentOutputs): string {
  const hash = createHash('sha256')
  const part = (text: string) => hash.update(`${text.length}:`).update(text)
  part(source)
  part(JSON.stringify(Object.entries(options.inputs ?? {}).sort(([a], [b]) => a.localeCompare(b))))
  for (const [name, data] of Object.entries(options.images ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    part(name)
    hash.update(`${data.byteLength}:`).update(data)
  }
  part(`${outputs.pdf ? 'pdf' : ''}+${outputs.svg ? 'svg' : ''}`)
  return hash.digest('hex')
}

let sharedPool: PdfPool | undefined
const sharedCache = createRenderCache()
watchWorkerPool('pdf', () => {
  const stats = sharedPool?.stats
  return stats && { workers: stats.processes, busy: stats.busy, queued: stats.queued }
})

/**
 * Renders a document in the shared pool of render processes, once per distinct document while
 * it stays in the cache. Throws PdfRenderError (a template bug) or PdfRenderLimitError.
 */
export function renderOffThread(source: string, options: RenderPdfOptions, outputs: DocumentOutputs): Promise<RenderedDocument> {
  return sharedCache.get(renderKey(source, options, outputs), () => {
    sharedPool ??= createPdfPool({ onRenderDone: ({ outcome, ms }) => observePdfRender({ outcome, seconds: ms / 1000 }) })
    return sharedPool.render({ source, inputs: options.inputs, images: options.images, outputs, affinity: renderKey(source, options, {}) })
  })
}

/** The shared pool's figures (benchmarks and tests). */
export function pdfPoolStats() {
  return sharedPool?.stats
}

/** Ends the shared pool's processes (on shutdown, or after tests). */
export async function closePdfPool() {
  const pool = sharedPool
  sharedPool = undefined
  await pool?.close()
}
