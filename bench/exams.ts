// The printed test (issue #7): a 30-question test of every type, its answer key, and two
// versions with their keys, rendered with a warm compiler; a different test each time so
// typst's cache cannot answer from the last one.
import { setImmediate as turn } from 'node:timers/promises'
import { renderExamPdf, type ExamRecord } from '#app/features/exams/index.server.ts'
import { examSchema } from '#app/features/exams/schemas.ts'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { closePdfPool } from '#app/platform/pdf-pool.server.ts'
import { loadEnv } from '#app/platform/env.server.ts'
import { createLocalFileStore } from '#app/platform/files.server.ts'
import { createLogger } from '#app/platform/logger.server.ts'
import { createMailer } from '#app/platform/mail.server.ts'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { openDatabaseFor } from '#app/platform/services.server.ts'
import { examRecordOf, sampleExam } from '#tests/exams.ts'
import { measurePrintUnderLoad } from '#tests/print-under-load.ts'
import { timeRunsAsync } from './measure.ts'

function thirtyQuestions(title: string): ExamRecord {
  const base = sampleExam()
  const questions = Array.from({ length: 30 }, (_, i) => {
    const q = base.questions[i % base.questions.length]!
    return q.type === 'essay' ? { ...q, text: `${q.text} (${i + 1})`, lines: 8 } : { ...q, text: `${q.text} (${i + 1})` }
  })
  return examRecordOf(examSchema.parse({ ...base, title, questions }))
}

export async function benchExams() {
  const images = new Map()
  const time = async (kind: { answers: boolean; versions: number | null }) => {
    let pages = 0
    // The first run (a warm-up) is left out of the median.
    const { medianMs } = await timeRunsAsync(async (i) => {
      const exam = thirtyQuestions(`اختبار ${i}`)
      const t0 = performance.now()
      const pdf = renderExamPdf(exam, { lang: 'ar', images, ...kind, seed: `bench-${i}` })
      const ms = performance.now() - t0
      pages = (
        Buffer.from(pdf)
          .toString('latin1')
          .match(/\/Type\s*\/Page[^s]/g) ?? []
      ).length
      await turn()
      return ms
    }, 10)
    return { medianMs, pages }
  }
  return {
    test: await time({ answers: false, versions: null }),
    key: await time({ answers: true, versions: null }),
    versions: await time({ answers: false, versions: 2 }),
  }
}

/**
 * Issue #15: the largest test the limits accept, four versions with their keys, through the HTTP
 * server (PGlite or DATABASE_URL), with /healthz and another teacher's profile probed meanwhile.
 */
export async function benchPrintUnderLoad() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hallil-bench-'))
  const env = loadEnv({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' })
  const logger = createLogger('silent')
  const database = await openDatabaseFor(env)
  await database.migrate()
  await seedPackages({ db: database.db })
  const mailer = createMailer({ from: env.MAIL_FROM, outboxDir: path.join(dataDir, 'outbox'), logger })
  try {
    const figures = await measurePrintUnderLoad({ env, database, logger, mailer, files: createLocalFileStore(path.join(dataDir, 'files')) })
    return { ...figures, database: env.DATABASE_URL ? 'postgres' : 'pglite' }
  } finally {
    await closePdfPool()
    await database.close()
  }
}
