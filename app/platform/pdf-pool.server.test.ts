import { afterEach, describe, expect, it } from 'vitest'
import { createPdfPool, createRenderCache, PdfRenderLimitError, renderKey, type PdfPool } from './pdf-pool.server.ts'
import { PdfRenderError } from './pdf.server.ts'

// typst's work is one native call: only a process can be stopped in the middle of it.
const heavy = '#for i in range(400000) [word #i ]'

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

let pools: PdfPool[] = []
const pool = (options: Parameters<typeof createPdfPool>[0]) => {
  const created = createPdfPool(options)
  pools.push(created)
  return created
}

afterEach(async () => {
  await Promise.all(pools.map((p) => p.close()))
  pools = []
})

describe('the PDF render processes', () => {
  it('render the PDF, the SVG and the page count in one compile, off the event loop', async () => {
    const renders = pool({ size: 1 })
    let ticks = 0
    const ticker = setInterval(() => ticks++, 10)
    const result = await renders.render({
      source: '#set page(height: 5cm)\nHello #sys.inputs.name\n#pagebreak()\nTwo',
      inputs: { name: 'world' },
      outputs: { pdf: true, svg: true },
    })
    clearInterval(ticker)
    expect(
      Buffer.from(result.pdf ?? [])
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-')
    expect(result.svg?.startsWith('<svg')).toBe(true)
    expect(result.pages).toBe(2)
    // Starting the process and rendering took many ticks: the loop was free throughout.
    expect(ticks).toBeGreaterThan(5)
    await expect(renders.render({ source: '#let x = ', outputs: { pdf: true } })).rejects.toBeInstanceOf(PdfRenderError)
  })

  it('kill a render past its time budget, and the next render gets a new process', async () => {
    const renders = pool({ size: 1, timeBudgetMs: 1500 })
    await renders.render({ source: 'warm', outputs: { pdf: true } })
    const [pid] = renders.stats.pids
    expect(pid).toBeDefined()
    const t0 = performance.now()
    const error = await renders.render({ source: heavy, outputs: { pdf: true } }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PdfRenderLimitError)
    expect((error as PdfRenderLimitError).code).toBe('timeout')
    // A CPU budget of 1.5 s, and four times that on the clock at most, however busy the machine.
    expect(performance.now() - t0).toBeLessThan(6000 + 2000)
    // Gone once its parent has reaped it, which a busy machine may take a moment to do.
    await expect.poll(() => alive(pid!), { timeout: 5000 }).toBe(false)
    expect((await renders.render({ source: 'after', outputs: { pdf: true } })).pages).toBe(1)
    expect(renders.stats.pids).not.toContain(pid)
  })

  it('kill a render whose process passes the memory cap', async () => {
    // The compiler and fonts alone take more than 60 MB: the first render passes the cap.
    const renders = pool({ size: 1, maxRssMb: 60, timeBudgetMs: 20_000 })
    const error = await renders.render({ source: heavy, outputs: { pdf: true } }).catch((e: unknown) => e)
    expect((error as PdfRenderLimitError).code).toBe('memory')
  })

  // What a render leaves behind is not given back: a process that kept it would start the next
  // render there, and another teacher's test would pass the cap for it.
  const memoryFake = new URL('../../tests/fakes/pdf-process-memory.ts', import.meta.url)

  it('end a process still holding more than recycleRssMb after a render; the next render gets a fresh one', async () => {
    const renders = pool({ size: 1, entry: memoryFake, maxRssMb: 1000, recycleRssMb: 200 })
    await renders.render({ source: 'keep:10', outputs: { pdf: true } })
    const [small] = renders.stats.pids
    await renders.render({ source: 'keep:10', outputs: { pdf: true } })
    expect(renders.stats.pids).toEqual([small])
    await renders.render({ source: 'keep:250', outputs: { pdf: true } })
    await expect.poll(() => alive(small!), { timeout: 5000 }).toBe(false)
    await renders.render({ source: 'keep:10', outputs: { pdf: true } })
    expect(renders.stats.pids).toHaveLength(1)
    expect(renders.stats.pids).not.toContain(small)
  })

  it('try a render stopped for memory in a used process once more in a fresh one; a fresh stop is final', async () => {
    // Recycling off: the first render leaves 150 MB behind, and the second's 120 MB peak passes the
    // 300 MB cap only on top of it (a fresh process is about 50 MB).
    const renders = pool({ size: 1, entry: memoryFake, maxRssMb: 300, recycleRssMb: 10_000 })
    await renders.render({ source: 'keep:150', outputs: { pdf: true } })
    const [used] = renders.stats.pids
    expect((await renders.render({ source: 'spike:120', outputs: { pdf: true } })).pages).toBe(1)
    expect(renders.stats.pids).not.toContain(used)
    const error = await renders.render({ source: 'spike:400', outputs: { pdf: true } }).catch((e: unknown) => e)
    expect((error as PdfRenderLimitError).code).toBe('memory')
  })

  it('refuse renders past the queue (busy) rather than queue without end', async () => {
    const renders = pool({ size: 1, maxQueue: 1, timeBudgetMs: 1500 })
    const first = renders.render({ source: heavy, outputs: { pdf: true } }).catch((e: unknown) => e)
    const second = renders.render({ source: heavy, outputs: { pdf: true } }).catch((e: unknown) => e)
    const third = await renders.render({ source: 'x', outputs: { pdf: true } }).catch((e: unknown) => e)
    expect((third as PdfRenderLimitError).code).toBe('busy')
    await Promise.all([first, second])
  })

  it('leave no process behind once closed', async () => {
    const renders = pool({ size: 1 })
    await renders.render({ source: 'x', outputs: { pdf: true } })
    const [pid] = renders.stats.pids
    expect(alive(pid!)).toBe(true)
    await renders.close()
    expect(renders.stats.processes).toBe(0)
    expect(alive(pid!)).toBe(false)
  })
})

describe('the render cache', () => {
  const doc = (pages: number, bytes = 10) => ({ pdf: new Uint8Array(bytes), svg: '', pages })

  it('renders a document once for everyone asking meanwhile and after', async () => {
    const cache = createRenderCache()
    let renders = 0
    const produce = async () => {
      renders++
      await new Promise((r) => setTimeout(r, 20))
      return doc(3)
    }
    const answers = await Promise.all([cache.get('a', produce), cache.get('a', produce), cache.get('a', produce)])
    expect(answers.map((a) => a.pages)).toEqual([3, 3, 3])
    expect((await cache.get('a', produce)).pages).toBe(3)
    expect(renders).toBe(1)
  })

  it('is bounded in entries and in bytes, least recently used out first', async () => {
    const cache = createRenderCache({ maxEntries: 2, maxBytes: 100 })
    await cache.get('a', async () => doc(1))
    await cache.get('b', async () => doc(2))
    await cache.get('a', async () => doc(-1))
    await cache.get('c', async () => doc(3))
    expect(cache.stats.entries).toBe(2)
    // b was the least recently used.
    expect((await cache.get('b', async () => doc(20))).pages).toBe(20)
    await cache.get('big', async () => doc(4, 95))
    expect(cache.stats.bytes).toBeLessThanOrEqual(100)
    await cache.get('huge', async () => doc(5, 1000))
    expect(cache.stats.bytes).toBeLessThanOrEqual(100)
  })

  it('remembers a render stopped by its budget, not one that merely failed', async () => {
    const cache = createRenderCache()
    let tries = 0
    const timeout = async () => {
      tries++
      throw new PdfRenderLimitError('timeout', 'slow')
    }
    await expect(cache.get('slow', timeout)).rejects.toThrow('slow')
    await expect(cache.get('slow', timeout)).rejects.toThrow('slow')
    expect(tries).toBe(1)
    const busy = async () => {
      tries++
      throw new PdfRenderLimitError('busy', 'busy')
    }
    await expect(cache.get('busy', busy)).rejects.toThrow('busy')
    await expect(cache.get('busy', busy)).rejects.toThrow('busy')
    expect(tries).toBe(3)
  })

  it('keys a document by its source, inputs, images and outputs', () => {
    const key = (images: Record<string, Uint8Array>, inputs = { a: '1' }, svg = false) =>
      renderKey('src', { inputs, images }, { pdf: true, svg })
    expect(key({ 'x.png': new Uint8Array([1]) })).toBe(key({ 'x.png': new Uint8Array([1]) }))
    expect(key({ 'x.png': new Uint8Array([1]) })).not.toBe(key({ 'x.png': new Uint8Array([2]) }))
    expect(key({})).not.toBe(key({}, { a: '2' }))
    expect(key({})).not.toBe(key({}, { a: '1' }, true))
  })
})
