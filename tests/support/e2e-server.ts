// The end-to-end tests' server (playwright.config.ts starts it): the built server on a fresh
// data folder, `.tmp/e2e-data`, and with DATABASE_URL a fresh PostgreSQL database beside it;
// `e2e.json` there tells the tests which database to look into (tests/e2e/helpers.ts). Runs
// until Playwright ends it (SIGTERM), then stops the server and drops the database.
import { rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { root, startServer } from './server-process.ts'

const dataDir = path.join(root, '.tmp/e2e-data')
rmSync(dataDir, { recursive: true, force: true })
const server = await startServer({
  name: 'e2e',
  port: Number(process.env.E2E_PORT ?? 3100),
  database: process.env.DATABASE_URL ? 'postgres' : 'pglite',
  dataDir,
  stdio: 'inherit',
})
writeFileSync(path.join(dataDir, 'e2e.json'), JSON.stringify({ databaseUrl: server.databaseUrl }))

let isStopping = false
async function stop() {
  if (isStopping) return
  isStopping = true
  await server.stop()
  process.exit(0)
}
process.on('SIGTERM', () => void stop())
process.on('SIGINT', () => void stop())
server.child.on('exit', (code) => {
  if (!isStopping) process.exit(code ?? 1)
})
