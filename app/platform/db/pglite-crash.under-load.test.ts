// @pglite-only: the embedded mode's own test, on PGlite whatever DATABASE_URL says; CI's PostgreSQL pass skips it.
import { createHash } from 'node:crypto'
import { rmSync } from 'node:fs'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { absenceWorkbook } from '#tests/support/absence-workbook.ts'
import { sampleExamBody } from '#tests/support/exam-body.ts'
import { sleep, startServer, type ServerProcess } from '#tests/support/server-process.ts'
import { preparedDataDir } from '#tests/upload-memory.ts'

// Issue 19: the embedded database (PGlite, the quick start's) survives a crash. The built server
// runs on one data folder; a loop of writes (new tests, edits of them, question images, absence
// workbooks) records every write the server acknowledged (a 2xx whose body arrived), the server
// is killed with SIGKILL in the middle of it, started again on the same folder, and must open
// and give back every acknowledged write: ten times in a row. Runs after the build, alone
// (scripts/test.js).

const ROUNDS = 10
const SECRET = 'crash-safety-session-secret-0123456789abcdef'

type Acked = {
  exams: Map<string, number> // id → the last acknowledged version of its title
  images: Map<string, string | null> // id → sha256 of the bytes the server served (null: killed before they were read)
  analyses: Set<string>
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
const titleOf = (version: number, id: string) => `crash test ${id} v${version}`
const versionOf = (title: string) => Number(/ v(\d+)$/.exec(title)?.[1] ?? Number.NaN)

async function pngImage(seed: number) {
  return new Uint8Array(
    await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: seed % 256, g: (seed * 7) % 256, b: (seed * 13) % 256 } } })
      .png()
      .toBuffer(),
  )
}

/** Writes until the server is gone; every write whose whole answer arrived is recorded in `acked`. */
async function writeUntilKilled(server: ServerProcess, token: string, acked: Acked, round: number, killAfterMs: number) {
  const headers = { authorization: `Bearer ${token}`, 'accept-language': 'en' }
  const json = { ...headers, 'content-type': 'application/json' }
  let isDead = false
  let writes = 0
  let interrupted = 0
  const send = async (path: string, init: RequestInit) => {
    const res = await fetch(`${server.url}/api/v1${path}`, { ...init, signal: AbortSignal.timeout(30_000) })
    const body = (await res.json()) as { data?: { id?: string } }
    if (res.status >= 300) throw new Error(`${init.method} ${path}: ${res.status} ${JSON.stringify(body)}`)
    writes++
    return body.data ?? {}
  }
  /** Runs `step` again and again until the server is killed (a refused connection ends the lane). */
  const lane = async (step: (i: number) => Promise<void>) => {
    for (let i = 0; ; i++) {
      if (isDead) return
      try {
        await step(i)
      } catch (error) {
        if (isDead || server.exitCode() !== null || server.child.signalCode !== null) {
          interrupted++
          return
        }
        throw error
      }
    }
  }
  const examsOfRound: string[] = []
  const lanes = [
    // New tests, then edits of them: each acknowledged edit raises the version the test must show.
    lane(async (i) => {
      if (i % 3 === 0 || examsOfRound.length === 0) {
        const created = await send('/exams', {
          method: 'POST',
          headers: json,
          body: JSON.stringify(sampleExamBody({ title: titleOf(1, `r${round}`) })),
        })
        examsOfRound.push(created.id!)
        acked.exams.set(created.id!, 1)
        return
      }
      const id = examsOfRound[i % examsOfRound.length]!
      const version = (acked.exams.get(id) ?? 1) + 1
      await send(`/exams/${id}`, {
        method: 'PUT',
        headers: json,
        body: JSON.stringify(sampleExamBody({ title: titleOf(version, `r${round}`) })),
      })
      acked.exams.set(id, version)
    }),
    // Question images (the teacher may upload 120 an hour: a few a round).
    lane(async (i) => {
      if (i >= 6) {
        await sleep(50)
        return
      }
      const form = new FormData()
      form.set('file', new Blob([await pngImage(round * 100 + i)], { type: 'image/png' }), 'q.png')
      const stored = await send('/uploads/images', { method: 'POST', headers, body: form })
      // The server stores its own encoding of the image: the bytes it serves are the ones to keep.
      acked.images.set(stored.id!, null)
      const bytes = new Uint8Array(await (await fetch(`${server.url}/api/v1/uploads/images/${stored.id}`, { headers })).arrayBuffer())
      acked.images.set(stored.id!, sha256(bytes))
    }),
    // Absence workbooks: an analysis is written in batches, in one transaction.
    lane(async (i) => {
      const form = new FormData()
      form.set('file', new Blob([new Uint8Array(absenceWorkbook({ rows: 300, seed: round * 1000 + i }).data)]), 'report.xlsx')
      const analysis = await send('/analyses/absence', { method: 'POST', headers, body: form })
      acked.analyses.add(analysis.id!)
    }),
  ]
  const killer = (async () => {
    await sleep(killAfterMs)
    isDead = true
    const exited = new Promise((resolve) => server.child.once('exit', resolve))
    server.child.kill('SIGKILL')
    await exited
  })()
  await Promise.all([...lanes, killer])
  return { writes, interrupted }
}

/** Every acknowledged write is there, and every test and analysis the lists show can be read. */
async function checkEverything(server: ServerProcess, token: string, acked: Acked) {
  const headers = { authorization: `Bearer ${token}`, 'accept-language': 'en' }
  const get = (path: string) => fetch(`${server.url}/api/v1${path}`, { headers })
  const problems: string[] = []
  for (const [id, version] of acked.exams) {
    const res = await get(`/exams/${id}`)
    if (res.status !== 200) {
      problems.push(`test ${id}: ${res.status}`)
      continue
    }
    const title = ((await res.json()) as { data: { title: string } }).data.title
    // A write in flight when the server died may have committed without its answer arriving.
    if (!(versionOf(title) >= version)) problems.push(`test ${id}: "${title}", acknowledged v${version}`)
  }
  for (const [id, hash] of acked.images) {
    const res = await get(`/uploads/images/${id}`)
    const bytes = new Uint8Array(await res.arrayBuffer())
    if (res.status !== 200 || (hash !== null && sha256(bytes) !== hash)) problems.push(`image ${id}: ${res.status}, ${bytes.length} bytes`)
  }
  for (const id of acked.analyses) {
    const res = await get(`/analyses/${id}`)
    await res.arrayBuffer()
    if (res.status !== 200) problems.push(`analysis ${id}: ${res.status}`)
  }
  // Nothing half-written: whatever the lists show opens.
  const exams = (await (await get('/exams')).json()) as { data: Array<{ id: string }> }
  const analyses = (await (await get('/analyses')).json()) as { data: Array<{ id: string }> }
  for (const { id } of exams.data) if ((await get(`/exams/${id}`)).status !== 200) problems.push(`listed test ${id} does not open`)
  for (const { id } of analyses.data) {
    const res = await get(`/analyses/${id}`)
    await res.arrayBuffer()
    if (res.status !== 200) problems.push(`listed analysis ${id}: ${res.status}`)
  }
  return problems
}

describe('the embedded database after a crash', () => {
  it(`keeps every acknowledged write through ${ROUNDS} SIGKILLs in the middle of saves and uploads`, async () => {
    const prepareStart = performance.now()
    const { dataDir, token } = await preparedDataDir(SECRET)
    const prepareMs = performance.now() - prepareStart
    const acked: Acked = { exams: new Map(), images: new Map(), analyses: new Set() }
    const figures: string[] = []
    let server: ServerProcess | undefined
    try {
      for (let round = 1; round <= ROUNDS; round++) {
        const t0 = performance.now()
        server = await startServer({
          name: 'crash',
          database: 'pglite',
          dataDir,
          hostname: '127.0.0.1',
          env: { SESSION_SECRET: SECRET, ANALYSIS_UPLOADS_PER_HOUR: '10000', DATABASE_URL: undefined },
        })
        const startMs = performance.now() - t0
        // What the rounds before acknowledged survived their crash.
        expect(await checkEverything(server, token, acked)).toEqual([])
        const { writes, interrupted } = await writeUntilKilled(server, token, acked, round, 800 + Math.floor(Math.random() * 1700))
        figures.push(
          `round ${round}: started in ${Math.round(startMs)} ms, ${writes} writes acknowledged, ${interrupted} cut off by the SIGKILL`,
        )
        expect(writes).toBeGreaterThan(0)
      }
      // After the last crash.
      server = await startServer({
        name: 'crash',
        database: 'pglite',
        dataDir,
        hostname: '127.0.0.1',
        env: { SESSION_SECRET: SECRET, DATABASE_URL: undefined },
      })
      expect(await checkEverything(server, token, acked)).toEqual([])
      console.info(
        `crash safety: data folder prepared in ${Math.round(prepareMs)} ms; ${figures.join('; ')}; in all ${acked.exams.size} tests, ${acked.images.size} images, ${acked.analyses.size} analyses read back`,
      )
    } finally {
      // Not server.stop(): it would remove the data folder before the next round; removed here.
      if (server && server.exitCode() === null && server.child.signalCode === null) server.child.kill('SIGKILL')
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 360_000)
})
