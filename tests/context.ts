import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { AppServices, RequestContext } from '#app/platform/context.server.ts'
import { loadEnv } from '#app/platform/env.server.ts'
import { createLocalFileStore } from '#app/platform/files.server.ts'
import { createLogger } from '#app/platform/logger.server.ts'
import { createMailer } from '#app/platform/mail.server.ts'
import type { TestDatabase } from './db.ts'

/** The services a test hands to the HTTP app: a test database, a quiet logger, default settings. */
export function testServices(database: TestDatabase, overrides: Record<string, string> = {}): AppServices {
  const env = loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'hallil-test-')), LOG_LEVEL: 'silent', ...overrides })
  const logger = createLogger('silent')
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, outboxDir: env.MAIL_OUTBOX_DIR, logger })
  return { env, database, logger, mailer, files: createLocalFileStore(path.join(env.DATA_DIR, 'files')) }
}

/** The load context a loader or action receives, for calling them directly. */
export function testContext(database: TestDatabase, overrides: Partial<RequestContext> = {}): RequestContext {
  const services = testServices(database)
  return {
    env: services.env,
    db: database.db,
    logger: services.logger,
    mailer: services.mailer,
    files: services.files,
    requestId: 'test-request',
    cspNonce: 'test-nonce',
    clientIp: '203.0.113.7',
    buildVersion: 'test',
    ...overrides,
  }
}
