import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import pg from 'pg'
import * as schema from './schema.ts'

export type Schema = typeof schema
/** The Drizzle instance every domain function receives; the same type on PGlite and PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>

export type Database = {
  db: Db
  kind: 'pglite' | 'postgres'
  /** Runs the committed SQL migrations (serialised across processes on PostgreSQL). */
  migrate(): Promise<void>
  /** Answers when the database answers; used by /healthz. */
  ping(): Promise<void>
  /** The connection pool's figures (PostgreSQL; PGlite is one connection in the process). */
  poolStats?(): { total: number; idle: number; waiting: number }
  close(): Promise<void>
}

export const migrationsFolder = path.resolve(process.cwd(), 'drizzle')

// An arbitrary constant: every Hallil process takes this advisory lock while migrating.
const MIGRATION_LOCK_ID = 727_110_001

export type OpenDatabaseOptions =
  | { kind: 'pglite'; dataDir?: string; /** A tarball of a data folder to start from (tests' template). */ loadDataDir?: Blob }
  | { kind: 'postgres'; url: string; poolMax?: number }

/**
 * PGlite's settings. Its Postgres lives inside this process, so its buffers are this process's
 * memory: the default 128 MB of shared buffers held a server at 280 MB resident doing nothing.
 * A school's database (thousands of students, not millions) works in 32 MB; reads past the
 * buffers come from the operating system's file cache. Measured in `npm run bench`.
 */
export const PGLITE_CONF = ['shared_buffers=32MB']

/**
 * Creates a new PGlite data folder in a process of its own. initdb runs in WebAssembly memory
 * that a process never gives back: created here, the server would keep about 500 MB it no longer
 * uses for as long as it runs (780 MB resident on a first start against 280 on the next).
 */
function createPgliteCluster(dataDir: string) {
  let pglite = '@electric-sql/pglite'
  try {
    // Where this module finds it, whatever the process's working folder.
    pglite = import.meta.resolve(pglite)
  } catch {
    // A runner without import.meta.resolve: found from the working folder.
  }
  const script = `const { PGlite } = await import(process.argv[1]); const db = new PGlite({ dataDir: process.argv[2] }); await db.waitReady; await db.close()`
  execFileSync(process.execPath, ['--input-type=module', '-e', script, pglite, dataDir], { stdio: ['ignore', 'ignore', 'inherit'] })
}

/**
 * `<dataDir>.lock` holds the id of the process that has an embedded database open: PGlite is
 * PostgreSQL inside that one process, so a second process on the same folder (a backup, a
 * restore) would read it half-written or corrupt it. Left behind by a crash, it names a process
 * that no longer runs and counts for nothing.
 */
export const pgliteLockFile = (dataDir: string) => `${path.resolve(dataDir)}.lock`

/** The id of another running process that has the embedded database in `dataDir` open, or null. */
export function pgliteOwner(dataDir: string): number | null {
  let pid: number
  try {
    pid = Number(readFileSync(pgliteLockFile(dataDir), 'utf8').trim())
  } catch {
    return null
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null
  try {
    process.kill(pid, 0)
    return pid
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : null
  }
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.kind === 'pglite') {
    if (options.dataDir) {
      mkdirSync(options.dataDir, { recursive: true })
      if (!existsSync(path.join(options.dataDir, 'PG_VERSION'))) createPgliteCluster(options.dataDir)
    }
    const client = new PGlite({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
      postgresqlconf: PGLITE_CONF,
    })
    await client.waitReady
    const { dataDir } = options
    // Another process's lock is left alone (that process would lose it when this one closes).
    const ownsLock = dataDir !== undefined && pgliteOwner(dataDir) === null
    if (ownsLock && dataDir) writeFileSync(pgliteLockFile(dataDir), `${process.pid}\n`)
    const db = drizzlePglite(client, { schema }) as unknown as Db
    return {
      db,
      kind: 'pglite',
      migrate: () => migratePglite(db as never, { migrationsFolder }),
      ping: async () => {
        await client.query('select 1')
      },
      close: async () => {
        await client.close()
        if (ownsLock && dataDir) rmSync(pgliteLockFile(dataDir), { force: true })
      },
    }
  }

  // A database that stops answering must not hold requests for ever: connections give up after
  // 10 s, statements after 30 s (the request then fails cleanly and the pool carries on).
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolMax ?? 10,
    connectionTimeoutMillis: 10_000,
    statement_timeout: 30_000,
    query_timeout: 35_000,
  })
  // A dropped connection must not crash the process; the next query reconnects.
  pool.on('error', () => {})
  const db = drizzlePg(pool, { schema }) as unknown as Db
  return {
    db,
    kind: 'postgres',
    migrate: async () => {
      const conn = await pool.connect()
      try {
        await conn.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID])
        await migratePg(drizzlePg(conn, { schema }), { migrationsFolder })
      } finally {
        await conn.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {})
        conn.release()
      }
    },
    ping: async () => {
      await db.execute(sql`select 1`)
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  }
}
