// What the benchmarks share: the median, a measurement run in its own process (so its peak
// memory is its own), and timing a job warm after a first, cold run.
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const median = (xs: number[]) => xs.toSorted((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)))

/** Runs `script --measure ...args` under tsx with `--expose-gc` and reads the JSON it prints last. */
export function measureInChild<T>(script: string, args: readonly string[], label: string): T {
  const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', script, '--measure', ...args], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  })
  if (child.status !== 0) throw new Error(`${label} bench failed: ${child.stderr}`)
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as T
}

/**
 * The process's peak resident memory since the last `resetPeakRss()`, from Linux's VmHWM.
 * Not `process.resourceUsage().maxRSS`: that one is kept across exec, so a child started by a
 * large parent reports the parent's size as its own peak.
 */
export function peakRssBytes(): number {
  const hwm = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))
  return hwm ? Number(hwm[1]) * 1024 : process.resourceUsage().maxRSS * 1024
}

/** Starts a new peak at the current resident memory (Linux ≥ 4.0: `5` to /proc/self/clear_refs). */
export function resetPeakRss(): void {
  try {
    writeFileSync('/proc/self/clear_refs', '5')
  } catch {
    // Without it the peak is the process's whole life: still an upper bound.
  }
}

export interface Timing {
  /** Median of the runs after the first (warm). */
  readonly medianMs: number
  readonly firstMs: number
  /** Peak resident memory above what the process held before the first run. */
  readonly peakMb: number
}

/**
 * Runs `job` `runs` times in this process: the first cold, the rest warm. A job may return a
 * figure of its own (a part of its time); the one of the median run comes back as `partMs`.
 */
export function timeRuns(job: () => number | void, runs: number): Timing & { partMs?: number } {
  ;(globalThis as { gc?: () => void }).gc?.()
  resetPeakRss()
  const before = process.memoryUsage().rss
  let t0 = performance.now()
  const firstPart = job()
  const firstMs = performance.now() - t0
  const peakMb = Math.max(0, (peakRssBytes() - before) / (1 << 20))
  const times: { total: number; part: number | void }[] = []
  for (let i = 1; i < runs; i++) {
    t0 = performance.now()
    const part = job()
    times.push({ total: performance.now() - t0, part })
  }
  const middle = times.toSorted((a, b) => a.total - b.total)[Math.floor(times.length / 2)]
  const partMs = middle ? middle.part : firstPart
  return { medianMs: middle ? middle.total : firstMs, firstMs, peakMb, ...(typeof partMs === 'number' ? { partMs } : {}) }
}

/**
 * `timeRuns` for jobs that wait (a database, an HTTP server, the render processes): `runs`
 * runs one after another, the first cold; the median of the others. A job that has setup to
 * leave out of its time times the part that counts itself and returns it.
 */
export async function timeRunsAsync(
  job: (run: number) => Promise<number | void>,
  runs: number,
): Promise<{ medianMs: number; firstMs: number; times: number[] }> {
  const all: number[] = []
  for (let run = 0; run < runs; run++) {
    const t0 = performance.now()
    const part = await job(run)
    all.push(typeof part === 'number' ? part : performance.now() - t0)
  }
  const [firstMs = 0, ...warm] = all
  return { medianMs: warm.length ? median(warm) : firstMs, firstMs, times: warm }
}
