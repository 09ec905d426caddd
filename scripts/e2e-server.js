// Starts the built server for the end-to-end tests on a fresh data folder and, when
// DATABASE_URL is set, on a fresh PostgreSQL database beside it (dropped when the tests end).
import { spawn } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import pg from 'pg'

const dataDir = path.resolve('.tmp/e2e-data')
rmSync(dataDir, { recursive: true, force: true })
mkdirSync(dataDir, { recursive: true })

const env = { ...process.env, DATA_DIR: dataDir, PORT: process.env.E2E_PORT ?? '3100', LOG_LEVEL: 'warn', TRUST_PROXY: 'true' }
env.APP_URL = `http://localhost:${env.PORT}`
let dropDatabase = async () => {}

if (process.env.DATABASE_URL) {
  const name = `hallil_e2e_${Date.now().toString(36)}`
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(process.env.DATABASE_URL)
  url.pathname = `/${name}`
  env.DATABASE_URL = url.toString()
  dropDatabase = async () => {
    const dropper = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await dropper.connect()
    await dropper.query(`drop database if exists ${name} with (force)`)
    await dropper.end()
  }
}
writeFileSync(path.join(dataDir, 'e2e.json'), JSON.stringify({ databaseUrl: env.DATABASE_URL ?? null }))

const child = spawn(process.execPath, ['server.js'], { env, stdio: 'inherit' })
let stopping = false
async function stop(signal) {
  if (stopping) return
  stopping = true
  child.kill(signal)
  await new Promise((resolve) => child.once('exit', resolve))
  await dropDatabase().catch(() => {})
  process.exit(0)
}
process.on('SIGTERM', () => stop('SIGTERM'))
process.on('SIGINT', () => stop('SIGINT'))
child.on('exit', (code) => {
  if (!stopping) process.exit(code ?? 1)
})
