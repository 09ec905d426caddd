// Issue #15: what one upload costs the whole server process in memory. The built server runs
// on the embedded defaults (PGlite inside it, the workbook read in its worker thread), and each
// file of the bad-file corpus, then large valid workbooks, is uploaded through the API one after
// another. Before each upload the process's peak resident size is started afresh from its
// current size (/proc/<pid>/clear_refs), and after it the peak (VmHWM) is read: the figure for
// the whole process, database, worker threads and all. Shared by the test
// (server/http/api/upload-memory.under-load.test.ts) and `npm run bench`.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openDatabase } from '#app/platform/db/client.server.ts'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { loadEnv } from '#app/platform/env.server.ts'
import { createLogger } from '#app/platform/logger.server.ts'
import { createMailer } from '#app/platform/mail.server.ts'
import { createLocalFileStore } from '#app/platform/files.server.ts'
import { absenceWorkbook } from './support/absence-workbook.ts'
import { badWorkbooks } from './support/bad-workbooks.ts'
import { startServer } from './support/server-process.ts'
import { subscribedTeacher } from './exams.ts'

export interface UploadMemory {
  /** Resident size once the server had started and answered one small upload. */
  readonly startMb: number
  readonly uploads: ReadonlyArray<{
    name: string
    bytes: number
    status: number
    expected: number
    beforeMb: number
    peakMb: number
    ms: number
  }>
}

/** Starts the process's peak resident size afresh from its current size (Linux: clear_refs 5). */
function resetPeak(pid: number) {
  writeFileSync(`/proc/${pid}/clear_refs`, '5')
}

/** Peak and current resident size of a process, in MB (Linux). */
function memoryOf(pid: number): { peakMb: number; rssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN)
  return { peakMb: Math.round(kb('VmHWM') / 1024), rssMb: Math.round(kb('VmRSS') / 1024) }
}

/**
 * A data folder with a migrated PGlite database holding a subscribed teacher, and that
 * teacher's API token (sealed with `secret`, which the server is then given). The crash test
 * (app/platform/db/pglite-crash.under-load.test.ts) starts from one too.
 */
export async function preparedDataDir(secret: string): Promise<{ dataDir: string; token: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hallil-upload-memory-'))
  const env = loadEnv({ DATA_DIR: dataDir, SESSION_SECRET: secret, LOG_LEVEL: 'silent' })
  const database = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'db') })
  try {
    await database.migrate()
    await seedPackages({ db: database.db })
    const logger = createLogger('silent')
    const ctx = {
      env,
      db: database.db,
      logger,
      mailer: createMailer({ from: env.MAIL_FROM, outboxDir: env.MAIL_OUTBOX_DIR, logger }),
      files: createLocalFileStore(path.join(dataDir, 'files')),
      requestId: 'upload-memory',
      cspNonce: 'n',
      clientIp: '203.0.113.10',
      buildVersion: 'test',
    }
    const { token } = await subscribedTeacher(ctx)
    return { dataDir, token }
  } finally {
    await database.close()
  }
}

export async function measureUploadMemory(options: { largeRows?: readonly number[]; corpus?: boolean } = {}): Promise<UploadMemory> {
  // Built before the first request: building the large ones holds this process's event loop for
  // seconds, past the server's keep-alive, and the next request would go out on a closed socket.
  const files = [
    ...(options.corpus === false ? [] : badWorkbooks).map((item) => ({ name: item.name, data: item.file(), expected: item.status })),
    ...(options.largeRows ?? [100_000, 320_000]).map((rows) => ({
      name: `${rows.toLocaleString('en')} rows of daily records`,
      data: absenceWorkbook({ rows }).data,
      expected: 201,
    })),
  ]
  const secret = 'upload-memory-session-secret-0123456789abcdef'
  const { dataDir, token } = await preparedDataDir(secret)
  const server = await startServer({
    name: 'upload-memory',
    database: 'pglite',
    hostname: '127.0.0.1',
    dataDir,
    env: { SESSION_SECRET: secret, ANALYSIS_UPLOADS_PER_HOUR: '1000', DATABASE_URL: undefined },
  })
  try {
    const upload = async (data: Uint8Array) => {
      const form = new FormData()
      form.set('file', new Blob([new Uint8Array(data)]), 'report.xlsx')
      const res = await fetch(`${server.url}/api/v1/analyses/absence`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
        body: form,
      })
      await res.arrayBuffer()
      return res.status
    }
    // A running server has answered an upload before (its worker thread is started).
    const warm = await upload(absenceWorkbook({ rows: 200 }).data)
    if (warm !== 201) throw new Error(`a 200-row workbook was refused: ${warm}`)
    const startMb = memoryOf(server.pid).rssMb
    const uploads: Array<UploadMemory['uploads'][number]> = []
    for (const file of files) {
      resetPeak(server.pid)
      const beforeMb = memoryOf(server.pid).rssMb
      const t0 = performance.now()
      const status = await upload(file.data)
      uploads.push({
        name: file.name,
        bytes: file.data.length,
        status,
        expected: file.expected,
        beforeMb,
        peakMb: memoryOf(server.pid).peakMb,
        ms: performance.now() - t0,
      })
    }
    return { startMb, uploads }
  } finally {
    await server.stop()
  }
}

// `npx tsx tests/upload-memory.ts`: the figures alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = process.argv.slice(2).map(Number).filter(Boolean)
  const result = await measureUploadMemory(rows.length ? { largeRows: rows, corpus: false } : {})
  console.info(`started at ${result.startMb} MB`)
  for (const u of result.uploads)
    console.info(
      `${u.name}: ${(u.bytes / 1e6).toFixed(2)} MB, ${u.status} (expected ${u.expected}), ${u.beforeMb} MB before, peak ${u.peakMb} MB, ${Math.round(u.ms)} ms`,
    )
}
