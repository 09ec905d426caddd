// Upload to stored report (docs/absence.md "Speed"): the whole path a teacher's upload takes —
// checks, read and analysis in the worker thread, one insert of report and records — on
// sample-layout workbooks, each size in its own process (PGlite, or PostgreSQL by
// DATABASE_URL), so its peak memory is its own. Compared with SheetJS merely reading the file.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { absenceWorkbook } from '#tests/support/absence-workbook.ts'
import { peakRssBytes, resetPeakRss, timeRunsAsync } from './measure.ts'

const SIZES = [1_000, 10_000, 100_000]
const RUNS: Record<number, number> = { 1_000: 9, 10_000: 5, 100_000: 4 }

export interface AbsenceBenchResult {
  readonly rows: number
  readonly fileBytes: number
  readonly sheetBytes: number
  readonly database: string
  readonly medianMs: number
  readonly firstMs: number
  /** Null on PGlite (see measure()). */
  readonly peakMb: number | null
  readonly storedBytes: number
}

const self = fileURLToPath(import.meta.url)
const root = path.dirname(path.dirname(self))

export async function benchAbsence(): Promise<AbsenceBenchResult[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'hallil-bench-absence-'))
  const results: AbsenceBenchResult[] = []
  try {
    for (const rows of SIZES) {
      const workbook = absenceWorkbook({ rows })
      const file = path.join(dir, `absence-${rows}.xlsx`)
      writeFileSync(file, workbook.data)
      const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', self, '--measure', file, String(RUNS[rows] ?? 3)], {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      })
      if (child.status !== 0) throw new Error(`absence bench failed: ${child.stderr}`)
      const measured = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Omit<AbsenceBenchResult, 'rows' | 'fileBytes' | 'sheetBytes'>
      results.push({ rows, fileBytes: workbook.data.length, sheetBytes: workbook.sheetBytes, ...measured })
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return results
}

/** In the child: upload the file `runs` times as one teacher and print the figures as JSON. */
async function measure(file: string, runs: number) {
  const { loadEnv } = await import('#app/platform/env.server.ts')
  const { createLogger } = await import('#app/platform/logger.server.ts')
  const { openDatabaseFor } = await import('#app/platform/services.server.ts')
  const { analyses, users } = await import('#app/platform/db/schema.ts')
  const { uploadAbsence } = await import('#app/features/absence/index.server.ts')
  const { closeAnalysisWorkers } = await import('#app/features/analyses/index.server.ts')
  const { sql } = await import('drizzle-orm')
  const env = loadEnv({
    ...process.env,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'hallil-bench-db-')),
    LOG_LEVEL: 'silent',
    ANALYSIS_UPLOADS_PER_HOUR: '10000',
  })
  const database = await openDatabaseFor(env)
  await database.migrate()
  const ctx = { db: database.db, env, logger: createLogger('silent') }
  const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
  const [user] = await database.db
    .insert(users)
    .values({
      username: `bench ${stamp}`,
      email: `bench-${stamp}@example.sa`,
      phone: '+966551234567',
      passwordHash: 'x',
      emailVerifiedAt: new Date(),
    })
    .returning()
  const bytes = readFileSync(file)
  const uploadOf = (data: Uint8Array) => () =>
    uploadAbsence({
      ...ctx,
      input: {
        userId: user!.id,
        lang: 'ar',
        file: { name: 'absence.xlsx', size: data.length, bytes: async () => new Uint8Array(data) },
      },
    })
  const upload = uploadOf(bytes)
  // Warm the worker thread and the database's write path with a small file, so the peak below
  // is what this file costs, not what starting them costs.
  await uploadOf(absenceWorkbook({ rows: 200 }).data)()

  const gc = (globalThis as { gc?: () => void }).gc
  gc?.()
  // The parse runs in a worker thread of this process: the process's peak resident memory
  // (reset here, after the warm-up) covers it — unless PGlite runs in this process too: its
  // WebAssembly memory (close to 1 GB resident here) grows and shrinks by more than a parse
  // costs, so on PGlite no figure is given (the xlsx rows measure the read alone).
  resetPeakRss()
  const before = process.memoryUsage.rss()
  let first: Awaited<ReturnType<typeof upload>> | undefined
  let peakMb = 0
  const { medianMs, firstMs } = await timeRunsAsync(async (run) => {
    const saved = await upload()
    if (run === 0) {
      first = saved
      peakMb = (peakRssBytes() - before) / (1 << 20)
    }
  }, runs)
  const [size] = await database.db
    .select({ bytes: sql<number>`pg_column_size(${analyses.report}) + pg_column_size(${analyses.records})` })
    .from(analyses)
    .where(sql`${analyses.id} = ${first?.id}`)
  await closeAnalysisWorkers()
  await database.close()
  console.log(
    JSON.stringify({
      database: database.kind,
      medianMs,
      firstMs,
      peakMb: database.kind === 'pglite' ? null : Math.max(0, peakMb),
      storedBytes: Number(size?.bytes ?? 0),
    }),
  )
}

if (process.argv[2] === '--measure' && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await measure(process.argv[3]!, Number(process.argv[4]))
}

/**
 * Issue #15's search row: a 100,000-row workbook uploaded over HTTP, then searched one at a time
 * and eight at once, /healthz probed all the while (tests/search-under-load.ts, which the test
 * server/http/api/analyses-search.under-load.test.ts runs too).
 */
export async function benchSearchUnderLoad() {
  const { loadEnv } = await import('#app/platform/env.server.ts')
  const { createLogger } = await import('#app/platform/logger.server.ts')
  const { createMailer } = await import('#app/platform/mail.server.ts')
  const { createLocalFileStore } = await import('#app/platform/files.server.ts')
  const { seedPackages } = await import('#app/platform/db/seed.server.ts')
  const { openDatabaseFor } = await import('#app/platform/services.server.ts')
  const { closeAnalysisWorkers } = await import('#app/features/analyses/index.server.ts')
  const { measureSearchUnderLoad } = await import('#tests/search-under-load.ts')
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hallil-bench-search-'))
  const env = loadEnv({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' })
  const logger = createLogger('silent')
  const database = await openDatabaseFor(env)
  await database.migrate()
  await seedPackages({ db: database.db })
  const mailer = createMailer({ from: env.MAIL_FROM, outboxDir: path.join(dataDir, 'outbox'), logger })
  try {
    const figures = await measureSearchUnderLoad({
      env,
      database,
      logger,
      mailer,
      files: createLocalFileStore(path.join(dataDir, 'files')),
    })
    return { ...figures, database: database.kind }
  } finally {
    await closeAnalysisWorkers()
    await database.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
