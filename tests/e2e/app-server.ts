import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import pg from 'pg'

export type AppServer = { url: string; dataDir: string; outbox: string; stop(): Promise<void> }

/**
 * A second built server for journeys that need other settings than the main e2e server (another
 * gateway), on its own fresh data folder and, with DATABASE_URL, its own fresh database.
 */
export async function startAppServer(options: { port: number; name: string; env: Record<string, string> }): Promise<AppServer> {
  // A folder of this start's own: a server left starting by a timed-out attempt keeps its folder.
  const dataDir = path.resolve(`.tmp/e2e-${options.name}-${options.port}-${Date.now().toString(36)}`)
  rmSync(dataDir, { recursive: true, force: true })
  mkdirSync(dataDir, { recursive: true })
  const url = `http://localhost:${options.port}`
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(options.port),
    APP_URL: url,
    LOG_LEVEL: 'warn',
    TRUST_PROXY: 'true',
    ...options.env,
  }
  let dropDatabase = async () => {}
  if (process.env.DATABASE_URL) {
    const name = `hallil_e2e_${options.name.replace(/\W/g, '_')}_${Date.now().toString(36)}`
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await admin.connect()
    await admin.query(`create database ${name}`)
    await admin.end()
    const dbUrl = new URL(process.env.DATABASE_URL)
    dbUrl.pathname = `/${name}`
    env.DATABASE_URL = dbUrl.toString()
    dropDatabase = async () => {
      const dropper = new pg.Client({ connectionString: process.env.DATABASE_URL })
      await dropper.connect()
      await dropper.query(`drop database if exists ${name} with (force)`)
      await dropper.end()
    }
  }
  // Another process on the port would answer the health check in this server's place.
  if (await fetch(`${url}/healthz`).then(() => true, () => false)) throw new Error(`port ${options.port} is already in use: the ${options.name} server cannot start`)
  const child: ChildProcess = spawn(process.execPath, ['server.js'], { env, stdio: ['ignore', 'ignore', 'inherit'] })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the ${options.name} server exited with ${child.exitCode}`)
    try {
      if ((await fetch(`${url}/healthz`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM')
      throw new Error(`the ${options.name} server did not become healthy`)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return {
    url,
    dataDir,
    outbox: path.join(dataDir, 'outbox'),
    async stop() {
      child.kill('SIGTERM')
      await exited
      await dropDatabase().catch(() => {})
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
