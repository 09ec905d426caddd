// The built server (`node server.js`) started for the HTTP benchmarks (ssr, bundle, lighthouse):
// a fresh temporary DATA_DIR, PORT ≥ 3400 (3100–3250 belong to test servers), LOG_LEVEL=warn,
// and on PostgreSQL a fresh database created beside DATABASE_URL and dropped on stop, the way
// scripts/e2e-server.js does it. Builds first when build/server/index.js is missing.
//
// The checkout is shared: another `npm run build` may replace build/ while a benchmark runs, and
// the server would then name assets that are no longer on disk. So the server runs from a
// snapshot: server.js, package.json, build/ and drizzle/ copied to a temporary folder and the
// rest of the checkout linked (node_modules; app/, whose data files such as the common-password
// list the built server reads from its cwd at run time, like build/client and drizzle/).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

export interface AppServer {
  readonly url: string
  readonly port: number
  readonly dataDir: string
  /** The snapshot's build/client, whose files this server serves. */
  readonly clientDir: string
  readonly database: 'pglite' | 'postgres'
  /** The server process's id (to read its memory). */
  readonly pid: number
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

/** `nodeArgs`: extra node flags for the server, e.g. ['--cpu-prof'] when looking into a figure. */
/**
 * `dataDir`: a data folder prepared beforehand (a database with teachers in it), used instead of
 * a new one and removed on stop all the same; `env`: settings of the caller's.
 */
export async function startAppServer({
  database,
  nodeArgs = [],
  dataDir = mkdtempSync(path.join(tmpdir(), 'hallil-bench-http-')),
  env: extraEnv = {},
}: {
  database: 'pglite' | 'postgres'
  nodeArgs?: string[]
  dataDir?: string
  env?: Record<string, string>
}): Promise<AppServer> {
  ensureBuilt()
  const port = await freePort()
  const snapshot = mkdtempSync(path.join(tmpdir(), 'hallil-bench-build-'))
  const copied = new Set(['server.js', 'package.json', 'build', 'drizzle'])
  for (const entry of readdirSync(root)) {
    if (copied.has(entry)) cpSync(path.join(root, entry), path.join(snapshot, entry), { recursive: true })
    else if (!entry.startsWith('.')) symlinkSync(path.join(root, entry), path.join(snapshot, entry))
  }
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
    ...extraEnv,
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
  const child = spawn(process.execPath, [...nodeArgs, 'server.js'], { cwd: snapshot, env, stdio: ['ignore', process.env.BENCH_SERVER_LOG ? 'inherit' : 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000)
  })
  const stop = async () => {
    await stopChild(child)
    await dropDatabase().catch(() => {})
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(snapshot, { recursive: true, force: true })
  }
  try {
    await waitFor(`${url}/healthz`, 90_000, child)
  } catch (error) {
    await stop()
    throw new Error(`${(error as Error).message}\n${stderr}`, { cause: error })
  }
  return { url, port, dataDir, clientDir: path.join(snapshot, 'build/client'), database, pid: child.pid!, stop }
}
