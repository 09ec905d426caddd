// @pglite-only: the embedded mode's own test, on PGlite whatever DATABASE_URL says; CI's PostgreSQL pass skips it.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import { closeAnalysisWorkers } from '#app/features/analyses/index.server.ts'
import { apiTestApp } from '#tests/api-app.ts'
import { subscribedTeacher } from '#tests/exams.ts'
import { absenceWorkbook } from '#tests/support/absence-workbook.ts'
import { sampleExamBody } from '#tests/support/exam-body.ts'
import { root } from '#tests/support/server-process.ts'
import { openDatabase, type Database } from './db/client.server.ts'
import { seedPackages } from './db/seed.server.ts'
import { loadEnv } from './env.server.ts'
import { createLocalFileStore } from './files.server.ts'
import { createLogger } from './logger.server.ts'
import { createMailer } from './mail.server.ts'

// Issue 19, backups of the embedded mode: `npm run admin -- backup <file>` and `restore <file>`
// run as an operator runs them (the CLI in a process of its own, on DATA_DIR). A teacher, a test
// with an image and an analysis are made through the API, backed up, the data folder wiped and
// restored, and everything read back through the API; a damaged copy of the archive (one byte
// changed) and archives that are not Hallil's are refused and change nothing.

const work = mkdtempSync(path.join(tmpdir(), 'hallil-backup-test-'))
const dataDir = path.join(work, 'data')
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** The data folder opened as the server opens it, with the HTTP app over it. */
async function openData() {
  // No SESSION_SECRET: the quick start's, generated once in DATA_DIR/session-secret.
  const env = loadEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' })
  const database = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'db') })
  await database.migrate()
  await seedPackages({ db: database.db })
  const logger = createLogger('silent')
  const services = {
    env,
    database,
    logger,
    mailer: createMailer({ from: env.MAIL_FROM, outboxDir: env.MAIL_OUTBOX_DIR, logger }),
    files: createLocalFileStore(path.join(dataDir, 'files')),
  }
  return {
    services,
    app: apiTestApp(services),
    ctx: { ...services, db: database.db, requestId: 'backup-test', cspNonce: 'n', clientIp: '203.0.113.9', buildVersion: 'test' },
  }
}

function admin(...args: string[]) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/admin.ts', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, DATA_DIR: dataDir, SESSION_SECRET: '', DATABASE_URL: '', LOG_LEVEL: 'silent' },
    timeout: 120_000,
  })
  return { status: run.status, out: `${run.stdout}${run.stderr}` }
}

/** Every file under a folder with its hash: what "nothing changed" is checked against. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = path.join(d, name)
      if (statSync(full).isDirectory()) walk(full)
      else out[path.relative(dir, full)] = createHash('sha256').update(readFileSync(full)).digest('hex')
    }
  }
  walk(dir)
  return out
}

describe('backup and restore of the embedded mode', () => {
  const archive = path.join(work, 'hallil-backup.tar.gz')
  let saved: {
    token: string
    examId: string
    exam: unknown
    imageId: string
    image: string
    analysisId: string
    analysis: unknown
    secret: string
  }

  it('backs up a teacher, a test with an image and an analysis; refuses while the database is open elsewhere', async () => {
    const { app, ctx, services } = await openData()
    let database: Database | null = services.database
    try {
      const { token } = await subscribedTeacher(ctx)
      const headers = { authorization: `Bearer ${token}`, 'accept-language': 'en' }
      const form = new FormData()
      const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 30, b: 90 } } })
        .png()
        .toBuffer()
      form.set('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'q.png')
      const uploaded = await app.request('/api/v1/uploads/images', { method: 'POST', headers, body: form })
      expect(uploaded.status).toBe(201)
      const imageId = ((await uploaded.json()) as { data: { id: string } }).data.id
      const sample = sampleExamBody()
      const body = sampleExamBody({
        title: 'Backed-up test',
        questions: sample.questions.map((q, i) => (i === 0 ? { ...q, image: imageId } : q)),
      })
      const created = await app.request('/api/v1/exams', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      expect(created.status).toBe(201)
      const examId = ((await created.json()) as { data: { id: string } }).data.id
      const workbook = new FormData()
      workbook.set('file', new Blob([new Uint8Array(absenceWorkbook({ rows: 200 }).data)]), 'report.xlsx')
      const analysed = await app.request('/api/v1/analyses/absence', { method: 'POST', headers, body: workbook })
      expect(analysed.status).toBe(201)
      const analysisId = ((await analysed.json()) as { data: { id: string } }).data.id
      const read = async (p: string) => (await app.request(`/api/v1${p}`, { headers })).json()
      const image = createHash('sha256')
        .update(new Uint8Array(await (await app.request(`/api/v1/uploads/images/${imageId}`, { headers })).arrayBuffer()))
        .digest('hex')
      saved = {
        token,
        examId,
        exam: await read(`/exams/${examId}`),
        imageId,
        image,
        analysisId,
        analysis: await read(`/analyses/${analysisId}`),
        secret: readFileSync(path.join(dataDir, 'session-secret'), 'utf8'),
      }

      // This process has the database open: the CLI (another process) must not copy it.
      const refused = admin('backup', archive)
      expect(refused.status).toBe(1)
      expect(refused.out).toContain(`open in another process (pid ${process.pid})`)
      expect(existsSync(archive)).toBe(false)
      await services.database.close()
      database = null
    } finally {
      await database?.close()
      await closeAnalysisWorkers()
    }

    const done = admin('backup', archive)
    expect(done.out).toMatch(/Wrote .*hallil-backup\.tar\.gz \([\d.]+ MB\): \d+ database files, 1 stored files, \d+ migrations applied\./)
    expect(done.status).toBe(0)
    // A standard archive: tar lists it, the manifest first.
    const listing = spawnSync('tar', ['-tzf', archive], { encoding: 'utf8' })
    expect(listing.status).toBe(0)
    expect(listing.stdout.split('\n')[0]).toBe('hallil-backup.json')
    expect(listing.stdout).toContain(`files/exam-images/`)
    // A second backup never overwrites the first.
    expect(admin('backup', archive).out).toContain('already exists')
  }, 300_000)

  it('restores into a wiped data folder, and everything reads back', async () => {
    rmSync(dataDir, { recursive: true, force: true })
    const restored = admin('restore', archive)
    expect(restored.out).toContain('Restored the backup of')
    expect(restored.status).toBe(0)
    // The command's own configuration made a new local secret in the empty folder: kept aside.
    const [aside, ...rest] = readdirSync(dataDir).sort()
    expect(rest).toEqual(['db', 'files', 'session-secret'])
    expect(aside).toMatch(/^before-restore-/)
    expect(readdirSync(path.join(dataDir, aside!))).toEqual(['session-secret'])
    rmSync(path.join(dataDir, aside!), { recursive: true })
    expect(readFileSync(path.join(dataDir, 'session-secret'), 'utf8')).toBe(saved.secret)

    const { app, services } = await openData()
    try {
      // The teacher's API token still works: the sessions came back with the same secret.
      const headers = { authorization: `Bearer ${saved.token}`, 'accept-language': 'en' }
      const read = async (p: string) => {
        const res = await app.request(`/api/v1${p}`, { headers })
        expect(res.status).toBe(200)
        return res
      }
      expect(await (await read(`/exams/${saved.examId}`)).json()).toEqual(saved.exam)
      expect(await (await read(`/analyses/${saved.analysisId}`)).json()).toEqual(saved.analysis)
      const image = new Uint8Array(await (await read(`/uploads/images/${saved.imageId}`)).arrayBuffer())
      expect(createHash('sha256').update(image).digest('hex')).toBe(saved.image)
    } finally {
      await services.database.close()
    }
  }, 120_000)

  it('refuses a damaged archive (one byte changed) and archives that are not Hallil backups, and changes nothing', async () => {
    const before = snapshot(dataDir)
    const bytes = readFileSync(archive)
    // One byte in the middle of the compressed data, then one in the gzip header's time field
    // (which gzip itself does not check: the header CRC this archive carries does).
    for (const [name, at] of [
      ['middle', Math.floor(bytes.length / 2)],
      ['header', 5],
    ] as const) {
      const damaged = Buffer.from(bytes)
      damaged[at] = damaged[at]! ^ 0x01
      const file = path.join(work, `damaged-${name}.tar.gz`)
      writeFileSync(file, damaged)
      const run = admin('restore', file)
      expect({ name, status: run.status }).toEqual({ name, status: 1 })
      expect(run.out).toMatch(/Restore refused: .*damaged/)
    }
    // Cut short.
    const short = path.join(work, 'short.tar.gz')
    writeFileSync(short, bytes.subarray(0, bytes.length - 100))
    expect(admin('restore', short).out).toMatch(/Restore refused: .*damaged/)

    // A tar.gz of another program, and a file that is no archive at all.
    const other = path.join(work, 'other')
    mkdirSync(path.join(other, 'db'), { recursive: true })
    writeFileSync(path.join(other, 'db', 'PG_VERSION'), '17\n')
    const foreign = path.join(work, 'foreign.tar.gz')
    expect(spawnSync('tar', ['-czf', foreign, '-C', other, 'db']).status).toBe(0)
    const notHallil = admin('restore', foreign)
    expect(notHallil.status).toBe(1)
    expect(notHallil.out).toContain('is not a Hallil backup')
    const text = path.join(work, 'notes.txt')
    writeFileSync(text, 'not an archive\n')
    expect(admin('restore', text).out).toContain('is not a Hallil backup (not a gzip archive)')

    // Nothing was moved, replaced or left behind.
    expect(snapshot(dataDir)).toEqual(before)
    expect(readdirSync(dataDir).sort()).toEqual(['db', 'files', 'session-secret'])
  }, 180_000)

  it('keeps what was there when restoring over existing data', () => {
    cpSync(path.join(dataDir, 'files'), path.join(work, 'files-before'), { recursive: true })
    const run = admin('restore', archive)
    expect(run.status).toBe(0)
    const previous = /What was there before is in (\S+):/.exec(run.out)?.[1]
    expect(previous && readdirSync(previous).sort()).toEqual(['db', 'files', 'session-secret'])
    expect(snapshot(path.join(previous!, 'files'))).toEqual(snapshot(path.join(work, 'files-before')))
  }, 120_000)
})
