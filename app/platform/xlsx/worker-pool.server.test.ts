import { readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { DomainError } from '#app/lib/errors.ts'
import { readSheet, readWorkbook } from '#app/platform/workbook-reading/read-workbook.server.ts'
import { buildWorkbook, sheetJsWorkbook } from '#tests/support/workbooks.ts'
import type { TestTasks } from '#tests/support/xlsx-test-worker.ts'
import { XlsxError, type ReadSheetOptions } from './types.ts'
import { createWorkerPool, resolveWorkerEntry, WorkerPoolBusyError, type WorkerPool } from './worker-pool.server.ts'

const options: ReadSheetOptions = { maxUncompressedBytes: 200 << 20, maxRows: 500_000, timeBudgetMs: 10_000, preferredSheets: ['الغياب'] }
const fixture = new URL('../../features/absence/fixtures/small-ar.xlsx', import.meta.url).pathname
const testEntry = { source: new URL('../../../tests/support/xlsx-test-worker.ts', import.meta.url) }
const pools: Array<WorkerPool<TestTasks>> = []
const testPool = (opts: Partial<Parameters<typeof createWorkerPool>[0]> = {}) => {
  const pool = createWorkerPool<TestTasks>({ entry: testEntry, ...opts })
  pools.push(pool)
  return pool
}
// The readers' tasks on a pool of its own, as the analyses run theirs.
let readers: WorkerPool<TestTasks> | undefined
const parseInWorker: WorkerPool<TestTasks>['run'] = (task, data, taskOptions, run) =>
  (readers ??= testPool()).run(task, data, taskOptions, run)

afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()))
})

describe('a worker pool', () => {
  it('starts the worker from the source through tsx when no build sits beside the module', () => {
    const entry = resolveWorkerEntry({ source: new URL('../../features/analyses/worker.ts', import.meta.url), built: 'analysis-worker.js' })
    expect(entry.url.pathname).toMatch(/app\/features\/analyses\/worker\.ts$/)
    expect(entry.bootstrap).toMatch(/tsx.*register.*worker\.ts/)
  })

  it('reads a workbook in a worker thread, moving the bytes there', async () => {
    const bytes = readFileSync(fixture)
    const expected = readSheet(bytes, options)
    const owned = new Uint8Array(bytes)
    const result = await parseInWorker('read', owned, options)
    expect(result).toEqual(expected)
    expect(owned.byteLength).toBe(0)
    // A view into a larger buffer is copied; the caller keeps its bytes.
    const big = new Uint8Array(bytes.length + 10)
    big.set(bytes, 5)
    const view = big.subarray(5, 5 + bytes.length)
    await expect(parseInWorker('read', view, options)).resolves.toEqual(expected)
    expect(view.byteLength).toBe(bytes.length)
  })

  it('brings reader errors back as XlsxError with their code', async () => {
    const error = await parseInWorker('read', Buffer.from('name,grade\n'), options).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(XlsxError)
    expect(error).toMatchObject({ name: 'XlsxError', code: 'format' })
    const rows = '<row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c r="A2"><v>2</v></c></row>'
    await expect(
      parseInWorker('read', buildWorkbook({ sheets: [{ name: 'S', xml: rows }] }), { ...options, maxRows: 1 }),
    ).rejects.toMatchObject({ code: 'too_many_rows' })
  })

  it('reads any container with readWorkbook, and brings its new error codes back', async () => {
    const workbookOptions = { maxUncompressedBytes: 200 << 20, maxRows: 500_040, maxSheets: 2, timeBudgetMs: 10_000 }
    const sheets = [
      {
        name: 'الغياب',
        rows: [
          ['اسم الطالب', 'الحالة'],
          ['محمد', 'غائب'],
        ],
      },
    ]
    const xls = sheetJsWorkbook(sheets, 'biff8')
    const expected = readWorkbook(xls, workbookOptions)
    expect(expected.container).toBe('xls')
    // The bytes move to the worker thread: read here first.
    await expect(parseInWorker('readWorkbook', xls, workbookOptions)).resolves.toEqual(expected)
    await expect(parseInWorker('readWorkbook', Buffer.from('اسم الطالب;الحالة\nمحمد;غائب\n'), workbookOptions)).resolves.toMatchObject({
      container: 'csv',
      sheets: [{ name: null, rows: [{ row: 1 }, { row: 2 }] }],
    })
    const three = sheetJsWorkbook(
      [0, 1, 2].map((i) => ({ ...sheets[0]!, name: `S${i}` })),
      'xlsx',
    )
    await expect(parseInWorker('readWorkbook', three, workbookOptions)).rejects.toSatisfy(
      (e: unknown) => e instanceof XlsxError && e.code === 'too_many_sheets',
    )
    await expect(parseInWorker('readWorkbook', Buffer.from(`a,${'x'.repeat(2 << 20)}`), workbookOptions)).rejects.toMatchObject({
      name: 'XlsxError',
      code: 'line_too_long',
    })
  })

  it('keeps the event loop free while a large sheet is read', async () => {
    let rows = ''
    for (let r = 1; r <= 60_000; r++)
      rows += `<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>طالب ${r}</t></is></c><c r="B${r}" s="1"><v>45893</v></c></row>`
    const data = buildWorkbook({ sheets: [{ name: 'S', xml: rows }] })
    await parseInWorker('read', new Uint8Array(data), options) // warm: the worker is started
    let ticks = 0
    const timer = setInterval(() => ticks++, 5)
    const result = await parseInWorker('read', data, options)
    clearInterval(timer)
    expect(result.rows).toHaveLength(60_000)
    expect(ticks).toBeGreaterThan(2)
  })
})

describe('createWorkerPool', () => {
  it('brings a DomainError back with its status, messageKey and fields', async () => {
    const pool = testPool({ size: 1 })
    const error = await pool.run('domainError', new Uint8Array(1), undefined).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DomainError)
    expect(error).toMatchObject({
      status: 422,
      messageKey: 'absence.errors.tooManySkipped',
      fields: { file: ['absence.errors.tooManySkipped'] },
    })
  })

  it('runs at most `size` jobs at once and queues the rest', async () => {
    const pool = testPool({ size: 2 })
    const jobs = Array.from({ length: 6 }, () => pool.run('sleep', new Uint8Array(1), { ms: 150 }))
    expect(pool.stats).toMatchObject({ workers: 2, busy: 2, queued: 4 })
    const threads = await Promise.all(jobs)
    expect(new Set(threads).size).toBe(2)
    expect(pool.stats).toMatchObject({ busy: 0, queued: 0 })
  })

  it('refuses jobs beyond the queue limit', async () => {
    const pool = testPool({ size: 1, maxQueue: 1 })
    const running = pool.run('sleep', new Uint8Array(1), { ms: 50 })
    const queued = pool.run('sleep', new Uint8Array(1), { ms: 50 })
    await expect(pool.run('sleep', new Uint8Array(1), { ms: 50 })).rejects.toBeInstanceOf(WorkerPoolBusyError)
    await Promise.all([running, queued])
  })

  it('replaces a worker that crashes or exits, and the next job runs', async () => {
    const pool = testPool({ size: 1 })
    const first = await pool.run('describe', new Uint8Array([7]), undefined)
    await expect(pool.run('uncaught', new Uint8Array(1), undefined)).rejects.toThrow('boom outside the task')
    await expect(pool.run('exit', new Uint8Array(1), undefined)).rejects.toThrow(/exited \(code 3\)/)
    const after = await pool.run('describe', new Uint8Array([9, 9]), undefined)
    expect(after).toMatchObject({ byteLength: 2, first: 9 })
    expect(after.threadId).not.toBe(first.threadId)
  })

  it('replaces a worker once it has answered a job on a large input (recycleAfterBytes), and keeps it after small ones', async () => {
    const pool = testPool({ size: 1, recycleAfterBytes: 1000 })
    const small = await pool.run('describe', new Uint8Array(999), undefined)
    expect((await pool.run('describe', new Uint8Array(10), undefined)).threadId).toBe(small.threadId)
    const large = await pool.run('describe', new Uint8Array(1000), undefined)
    expect(large.threadId).toBe(small.threadId)
    // The large job's worker answered and was ended; a failed large job too.
    const next = await pool.run('describe', new Uint8Array(1), undefined)
    expect(next.threadId).not.toBe(large.threadId)
    await expect(pool.run('domainError', new Uint8Array(5000), undefined)).rejects.toBeInstanceOf(DomainError)
    expect((await pool.run('describe', new Uint8Array(1), undefined)).threadId).not.toBe(next.threadId)
  })

  it('terminates a job past the hard timeout with code timeout, and replaces the worker', async () => {
    const pool = testPool({ size: 1 })
    await pool.run('describe', new Uint8Array(1), undefined)
    await expect(pool.run('spin', new Uint8Array(1), undefined, { hardTimeoutMs: 200 })).rejects.toMatchObject({ code: 'timeout' })
    await expect(pool.run('describe', new Uint8Array([1]), undefined)).resolves.toMatchObject({ first: 1 })
  })

  it('ends a worker that runs out of memory with code too_large', async () => {
    const pool = testPool({ size: 1, maxHeapMb: 64 })
    await expect(pool.run('hog', new Uint8Array(1), undefined)).rejects.toMatchObject({ code: 'too_large' })
    await expect(pool.run('describe', new Uint8Array([2]), undefined)).resolves.toMatchObject({ first: 2 })
  })

  it('drops a queued job and stops a running one when their signal aborts', async () => {
    const pool = testPool({ size: 1 })
    const running = new AbortController()
    const queued = new AbortController()
    const first = pool.run('spin', new Uint8Array(1), undefined, { signal: running.signal })
    const second = pool.run('sleep', new Uint8Array(1), { ms: 10 }, { signal: queued.signal })
    queued.abort(new Error('client gone'))
    await expect(second).rejects.toThrow('client gone')
    running.abort(new Error('client gone too'))
    await expect(first).rejects.toThrow('client gone too')
    await expect(pool.run('describe', new Uint8Array([3]), undefined)).resolves.toMatchObject({ first: 3 })
  })

  it('reports an uncloneable result and an unknown task as errors', async () => {
    const pool = testPool({ size: 1 })
    await expect(pool.run('uncloneable', new Uint8Array(1), undefined)).rejects.toThrow(/could not be cloned/)
    await expect(pool.run('nope' as 'describe', new Uint8Array(1), undefined)).rejects.toThrow('unknown worker task "nope"')
  })

  it('rejects queued and running jobs on close', async () => {
    const pool = testPool({ size: 1 })
    const outcome = (promise: Promise<unknown>) =>
      promise.then(
        () => 'resolved',
        (error: Error) => error.message,
      )
    const running = outcome(pool.run('sleep', new Uint8Array(1), { ms: 5000 }))
    const queued = outcome(pool.run('sleep', new Uint8Array(1), { ms: 10 }))
    await pool.close()
    expect(await Promise.all([running, queued])).toEqual(['the worker pool is closed', 'the worker pool is closed'])
    await expect(pool.run('describe', new Uint8Array(1), undefined)).rejects.toThrow('closed')
  })
})

describe('the bad-file corpus through the worker', () => {
  it('gives the same codes as in process', async () => {
    const cases: Array<[Uint8Array, string]> = [
      [Buffer.from('%PDF-1.7'), 'format'],
      [buildWorkbook({ sheets: [] }), 'format'],
    ]
    for (const [data, code] of cases) {
      await expect(parseInWorker('read', data, options)).rejects.toSatisfy((e: unknown) => e instanceof XlsxError && e.code === code)
    }
  })
})
