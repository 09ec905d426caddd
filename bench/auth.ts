// Password hashing time and login throughput through the real HTTP app (in process, PGlite
// or PostgreSQL by DATABASE_URL). Figures, not assertions: see README "Benchmarks".
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { hashPassword, registerUser, activateAccount, issueCode } from '#app/features/accounts/index.server.ts'
import { openDatabaseFor } from '#app/platform/services.server.ts'
import { loadEnv } from '#app/platform/env.server.ts'
import { createLogger } from '#app/platform/logger.server.ts'
import { createMailer } from '#app/platform/mail.server.ts'
import { createLocalFileStore } from '#app/platform/files.server.ts'
import { createHttpApp } from '#server/http/http.ts'
import type { ServerBuild } from 'react-router'
import { median } from './measure.ts'

export async function benchAuth() {
  const hashes: number[] = []
  for (let i = 0; i < 15; i++) {
    const t0 = performance.now()
    await hashPassword(`Bench-Password-${i}`)
    hashes.push(performance.now() - t0)
  }

  const dataDir = mkdtempSync(path.join(tmpdir(), 'hallil-bench-'))
  const env = loadEnv({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', TRUST_PROXY: 'true' })
  const logger = createLogger('silent')
  const database = await openDatabaseFor(env)
  await database.migrate()
  const mailer = createMailer({ from: env.MAIL_FROM, outboxDir: path.join(dataDir, 'outbox'), logger })
  const files = createLocalFileStore(path.join(dataDir, 'files'))
  const ctx = { db: database.db, env, logger, mailer, files, clientIp: 'bench' }
  const accounts = 20
  const stamp = Date.now().toString(36)
  for (let i = 0; i < accounts; i++) {
    const email = `bench-${stamp}-${i}@example.sa`
    const user = await registerUser({
      ...ctx,
      clientIp: `10.9.${i}.1`,
      input: {
        username: `bench ${stamp} ${i}`,
        email,
        phone: '+966551234567',
        password: 'Bench-Strong-42',
        password_confirmation: 'Bench-Strong-42',
        terms: true,
        lang: 'en',
      },
    })
    // Activate without reading mail: a fresh code issued after moving the clock past the resend wait.
    const code = await issueCode({
      db: database.db,
      secret: env.SESSION_SECRET,
      userId: user.id,
      purpose: 'activation',
      targetEmail: email,
      now: new Date(Date.now() + 61_000),
    })
    await activateAccount({ ...ctx, clientIp: `10.8.${i}.1`, input: { email, code } })
  }
  const app = createHttpApp({
    services: { env, database, logger, mailer, files },
    mode: 'production',
    getBuild: () => ({ assets: { version: 'bench', url: '', entry: { module: '', imports: [] }, routes: {} } }) as unknown as ServerBuild,
  })
  const total = 200
  const concurrency = 8
  let next = 0
  let ok = 0
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++
        const res = await app.request('/api/v1/auth/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.7.${i % 250}.${Math.floor(i / 250)}` },
          body: JSON.stringify({ email: `bench-${stamp}-${i % accounts}@example.sa`, password: 'Bench-Strong-42' }),
        })
        if (res.status === 200) ok++
      }
    }),
  )
  const seconds = (performance.now() - t0) / 1000
  await database.close()
  return {
    hashMedianMs: median(hashes),
    logins: total,
    loginsOk: ok,
    loginsPerSecond: total / seconds,
    database: database.kind,
  }
}
