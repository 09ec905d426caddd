// The one way the tests, the bench and the load scenarios start Hallil's built server
// (`node server.js`) in a process of its own: a data folder (fresh, or prepared by the caller),
// on PGlite or on a fresh PostgreSQL database made beside an admin URL and dropped on stop,
// a port (given, or a free one), /healthz polled until it answers, and a stop that ends the
// process (SIGTERM, SIGKILL after 10 s) and cleans up after it.
//
// The vitest databases (tests/db.ts, tests/global-setup.ts) make their PostgreSQL databases with
// `createDatabaseBeside` below too.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

// ---------------------------------------------------------------- databases

/** Runs one statement on the admin database (create, drop). */
export async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    await admin.query(text)
  } finally {
    await admin.end()
  }
}

export interface DatabaseBeside {
  readonly name: string
  /** The admin URL with this database's name. */
  readonly url: string
  /** Drops it, closing whatever is still connected. */
  drop(): Promise<void>
}

/**
 * A new PostgreSQL database in the cluster of `adminUrl`, named `<prefix>_<time>_<random>`;
 * copied from `template` when given.
 */
export async function createDatabaseBeside(adminUrl: string, prefix: string, template?: string): Promise<DatabaseBeside> {
  const name = `${prefix.replace(/\W/g, '_')}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`
  await adminQuery(adminUrl, template ? `create database ${name} template ${template}` : `create database ${name}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return { name, url: url.toString(), drop: () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`) }
}

// ---------------------------------------------------------------- ports and processes

/** A port that is free now, from a random place in [from, to). */
export async function freePort(from = 3400, to = 4000): Promise<number> {
  const start = from + Math.floor(Math.random() * (to - from - 50))
  for (let port = start; port < to; port++) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer()
      probe.once('error', () => resolve(false))
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
    })
    if (free) return port
  }
  throw new Error(`no free port in ${from}–${to - 1}`)
}

/** Runs `npm run build` when there is no built server yet. */
export function ensureBuilt() {
  if (existsSync(path.join(root, 'build/server/index.js'))) return
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8', maxBuffer: 16 << 20 })
  if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stderr || build.stdout}`)
}

/** Resolves once GET `url` answers 200, or throws after `timeoutMs` (or when `child` exits first). */
export async function waitFor(url: string, timeoutMs = 60_000, child?: ChildProcess) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode} before ${url} answered`)
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) })
      if (res.ok) return
    } catch {
      // not listening yet
    }
    await sleep(150)
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`)
}

/** Stops a child process with SIGTERM (SIGKILL after `graceMs`) and waits for it to exit. */
export async function stopChild(child: ChildProcess, graceMs = 10_000) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
  await exited
  clearTimeout(timer)
}

/**
 * A copy of what the server runs from (server.js, package.json, build/, drizzle/) in a temporary
 * folder, the rest of the checkout linked: another `npm run build` may replace build/ while a
 * long benchmark runs, and the server would then name assets no longer on disk.
 */
function snapshotOfBuild(): string {
  const snapshot = mkdtempSync(path.join(tmpdir(), 'hallil-build-'))
  const copied = new Set(['server.js', 'package.json', 'build', 'drizzle'])
  for (const entry of readdirSync(root)) {
    if (copied.has(entry)) cpSync(path.join(root, entry), path.join(snapshot, entry), { recursive: true })
    else if (!entry.startsWith('.')) symlinkSync(path.join(root, entry), path.join(snapshot, entry))
  }
  return snapshot
}

// ---------------------------------------------------------------- the server

export interface StartServerOptions {
  /** Names the data folder and the database. */
  readonly name: string
  /** A free port in 3400–3999 when not given (3100–3399 belong to the end-to-end servers). */
  readonly port?: number
  /** `localhost` by default (the address in APP_URL; the server listens on 127.0.0.1). */
  readonly hostname?: string
  /**
   * `pglite` (the embedded default, in the data folder), `postgres`: a fresh database beside
   * `adminDatabaseUrl` (by default DATABASE_URL), dropped on stop, or `{ url }`: a database the
   * caller made and shares between processes, left in place on stop.
   */
  readonly database: 'pglite' | 'postgres' | { readonly url: string }
  readonly adminDatabaseUrl?: string
  /** A data folder prepared by the caller (a database with teachers in it); a fresh one otherwise. Removed on stop. */
  readonly dataDir?: string
  /** Settings on top of the harness's (these win). */
  readonly env?: Record<string, string | undefined>
  /** Run from a copy of the build (long benchmarks beside other builds). */
  readonly snapshot?: boolean
  readonly nodeArgs?: readonly string[]
  /** Where the server's output goes: kept (the last 4 KB of stderr, shown if it fails to start) by default. */
  readonly stdio?: 'inherit' | 'keep'
  readonly startTimeoutMs?: number
}

export interface ServerProcess {
  readonly url: string
  readonly port: number
  readonly pid: number
  readonly dataDir: string
  readonly outbox: string
  /** The PostgreSQL database's URL; null on PGlite. */
  readonly databaseUrl: string | null
  /** The environment it runs with (for another process on the same data, e.g. the admin CLI). */
  readonly env: Record<string, string | undefined>
  readonly child: ChildProcess
  /** The snapshot's build/client when run from a snapshot, else the checkout's. */
  readonly clientDir: string
  /** Non-null once the process has exited. */
  exitCode(): number | null
  stop(): Promise<void>
}

export async function startServer(options: StartServerOptions): Promise<ServerProcess> {
  ensureBuilt()
  const port = options.port ?? (await freePort())
  const url = `http://${options.hostname ?? 'localhost'}:${port}`
  // Another process on the port would answer the health check in this server's place.
  if (
    await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) }).then(
      () => true,
      () => false,
    )
  )
    throw new Error(`port ${port} is already in use: the ${options.name} server cannot start`)
  // A folder of this start's own: a server left starting by a timed-out attempt keeps its folder.
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), `hallil-${options.name.replace(/\W/g, '-')}-`))
  mkdirSync(dataDir, { recursive: true })
  let database: DatabaseBeside | null = null
  if (options.database === 'postgres') {
    const adminUrl = options.adminDatabaseUrl ?? process.env.DATABASE_URL
    if (!adminUrl) throw new Error(`the ${options.name} server on PostgreSQL needs DATABASE_URL`)
    database = await createDatabaseBeside(adminUrl, `hallil_${options.name}`)
  }
  const snapshot = options.snapshot ? snapshotOfBuild() : null
  const env: Record<string, string | undefined> = {
    // As `npm start` runs it (README, "Memory"): glibc's allocator in a few arenas, not one per thread.
    MALLOC_ARENA_MAX: '2',
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: url,
    LOG_LEVEL: 'warn',
    TRUST_PROXY: 'true',
    DATABASE_URL: database?.url ?? (typeof options.database === 'object' ? options.database.url : undefined),
    ...options.env,
  }
  const keep = options.stdio !== 'inherit'
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), 'server.js'], {
    cwd: snapshot ?? root,
    env,
    stdio: ['ignore', keep ? 'ignore' : 'inherit', keep ? 'pipe' : 'inherit'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000)
  })
  const cleanUp = async () => {
    await database?.drop().catch(() => {})
    rmSync(dataDir, { recursive: true, force: true })
    if (snapshot) rmSync(snapshot, { recursive: true, force: true })
  }
  const stop = async () => {
    await stopChild(child)
    await cleanUp()
  }
  try {
    await waitFor(`${url}/healthz`, options.startTimeoutMs ?? 90_000, child)
  } catch (error) {
    await stop()
    throw new Error(`the ${options.name} server did not start: ${(error as Error).message}\n${stderr}`, { cause: error })
  }
  return {
    url,
    port,
    pid: child.pid!,
    dataDir,
    outbox: path.join(dataDir, 'outbox'),
    databaseUrl: env.DATABASE_URL ?? null,
    env,
    child,
    clientDir: path.join(snapshot ?? root, 'build/client'),
    exitCode: () => child.exitCode,
    stop,
  }
}
