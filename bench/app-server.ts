// The built server (`node server.js`) started for the HTTP benchmarks (ssr, bundle, lighthouse):
// a fresh temporary DATA_DIR, PORT ≥ 3400 (3100–3250 belong to test servers), LOG_LEVEL=warn,
// and on PostgreSQL a fresh database created beside DATABASE_URL and dropped on stop, the way
// scripts/e2e-server.js does it. Builds first when build/server/index.js is missing.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'

export const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)))

export interface AppServer {
  readonly url: string
  readonly port: number
  readonly dataDir: string
  readonly database: 'pglite' | 'postgres'
  stop(): Promise<void>
}

/**
 * A port that is free now, from a random place in 3400–3999 (3100–3250 belong to the test
 * servers, and other benchmarks may run beside this one).
 */
export async function freePort(): Promise<number> {
  const start = 3400 + Math.floor(Math.random() * 550)
  for (let port = start; port < 4000; port++) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer()
      probe.once('error', () => resolve(false))
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
    })
    if (free) return port
  }
  throw new Error('no free port in 3400–3999')
}

/** Runs `npm run build` when there is no built server yet. */
export function ensureBuilt() {
  if (existsSync(path.join(root, 'build/server/index.js'))) return
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8', maxBuffer: 16 << 20 })
  if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stderr || build.stdout}`)
}

/** Resolves once GET `url` answers 200, or throws after `timeoutMs`. */
export async function waitFor(url: string, timeoutMs = 60_000, child?: ChildProcess) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode} before ${url} answered`)
    try {
      const res = await fetch(url)
      if (res.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 150))
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`)
}

/** Stops a child process with SIGTERM (SIGKILL after 10 s) and waits for it to exit. */
export async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
  await exited
  clearTimeout(timer)
}

export async function startAppServer({ database }: { database: 'pglite' | 'postgres' }): Promise<AppServer> {
  ensureBuilt()
  const port = await freePort()
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hallil-bench-http-'))
  const url = `http://127.0.0.1:${port}`
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: url,
    LOG_LEVEL: 'warn',
    TRUST_PROXY: 'true',
    DATABASE_URL: undefined,
  }
  let dropDatabase = async () => {}
  if (database === 'postgres') {
    const adminUrl = process.env.DATABASE_URL
    if (!adminUrl) throw new Error('PostgreSQL needs DATABASE_URL')
    const name = `hallil_bench_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
    const admin = new pg.Client({ connectionString: adminUrl })
    await admin.connect()
    await admin.query(`create database ${name}`)
    await admin.end()
    const dbUrl = new URL(adminUrl)
    dbUrl.pathname = `/${name}`
    env.DATABASE_URL = dbUrl.toString()
    dropDatabase = async () => {
      const dropper = new pg.Client({ connectionString: adminUrl })
      await dropper.connect()
      await dropper.query(`drop database if exists ${name} with (force)`)
      await dropper.end()
    }
  }
  const child = spawn(process.execPath, ['server.js'], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000)
  })
  const stop = async () => {
    await stopChild(child)
    await dropDatabase().catch(() => {})
    rmSync(dataDir, { recursive: true, force: true })
  }
  try {
    await waitFor(`${url}/healthz`, 90_000, child)
  } catch (error) {
    await stop()
    throw new Error(`${(error as Error).message}\n${stderr}`, { cause: error })
  }
  return { url, port, dataDir, database, stop }
}
