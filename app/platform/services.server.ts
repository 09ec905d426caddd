import path from 'node:path'
import type { AppServices } from './context.server.ts'
import { openDatabase, pgliteOwner } from './db/client.server.ts'
import { seedPackages } from './db/seed.server.ts'
import { EnvError, loadEnv, type Env } from './env.server.ts'
import { openFileStore } from './file-stores.server.ts'
import { guardFileStore } from './files.server.ts'
import { createLogger } from './logger.server.ts'
import { createMailer } from './mail.server.ts'
import { watchDatabasePool } from './metrics.server.ts'

/** Opens the database chosen by the environment: PostgreSQL when DATABASE_URL is set, else PGlite. */
export function openDatabaseFor(env: Env) {
  return env.DATABASE_URL
    ? openDatabase({ kind: 'postgres', url: env.DATABASE_URL, poolMax: env.DATABASE_POOL_MAX })
    : openDatabase({ kind: 'pglite', dataDir: path.join(env.DATA_DIR, 'db') })
}

/** Start-up: parse the environment, open and migrate the database, seed an empty one. */
export async function createServices(source: Record<string, string | undefined> = process.env): Promise<AppServices> {
  const env = loadEnv(source)
  const logger = createLogger(env.LOG_LEVEL)
  // Outside production a missing SESSION_SECRET is generated into this process's DATA_DIR: a
  // second process on the same database generates another, and refuses the first one's sessions,
  // API tokens and sandbox webhooks (README, "Deploying": every process needs the same secret).
  if (env.DATABASE_URL && !source.SESSION_SECRET?.trim())
    logger.warn(
      { sessionSecret: 'generated in DATA_DIR' },
      'SESSION_SECRET is not set: other processes on this database will not accept this one’s sessions; give every process the same SESSION_SECRET',
    )
  // The embedded database is PostgreSQL inside one process: a second server on the same folder
  // would open it beside the first and corrupt it. Several processes need DATABASE_URL.
  const embeddedOwner = env.DATABASE_URL ? null : pgliteOwner(path.join(env.DATA_DIR, 'db'))
  if (embeddedOwner !== null)
    throw new EnvError([
      `DATA_DIR: the embedded database in ${path.join(env.DATA_DIR, 'db')} is open in process ${embeddedOwner}: the embedded mode runs as one process. Stop that one first, or set DATABASE_URL to run several processes on PostgreSQL.`,
    ])
  const database = await openDatabaseFor(env)
  await database.migrate()
  watchDatabasePool(database.poolStats)
  const seeded = await seedPackages({ db: database.db })
  if (seeded > 0) logger.info({ seeded }, 'installed the default packages')
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, outboxDir: env.MAIL_OUTBOX_DIR, logger })
  // FILE_STORE_URL, else PostgreSQL with DATABASE_URL, else DATA_DIR/files (env.server.ts, fileStoreOf).
  const files = guardFileStore(await openFileStore(env.FILE_STORE, database.db), logger)
  logger.info({ database: database.kind, mail: mailer.kind, gateway: env.PAYMENT_GATEWAY, files: files.kind }, 'services ready')
  return { env, database, logger, mailer, files }
}
