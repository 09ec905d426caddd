import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { AppServices, RequestContext } from '#app/server/context.server.ts'
import { loadEnv } from '#app/server/env.server.ts'
import { createLogger } from '#app/server/logger.server.ts'
import type { TestDatabase } from './db.ts'

/** The services a test hands to the HTTP app: a test database, a quiet logger, default settings. */
export function testServices(database: TestDatabase, overrides: Record<string, string> = {}): AppServices {
  const env = loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'hallil-test-')), LOG_LEVEL: 'silent', ...overrides })
  return { env, database, logger: createLogger('silent') }
}

/** The load context a loader or action receives, for calling them directly. */
export function testContext(database: TestDatabase, overrides: Partial<RequestContext> = {}): RequestContext {
  const services = testServices(database)
  return {
    env: services.env,
    db: database.db,
    logger: services.logger,
    requestId: 'test-request',
    cspNonce: 'test-nonce',
    clientIp: '203.0.113.7',
    buildVersion: 'test',
    ...overrides,
  }
}
