import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, inject } from 'vitest'
import { openDatabase, type Database } from '#app/platform/db/client.server.ts'
import { createDatabaseBeside } from './support/server-process.ts'

export type TestDatabase = Database & {
  cleanup: () => Promise<void>
  /** PostgreSQL: this database's URL, for a second pool on it (a second app process); PGlite: none. */
  url?: string
}

/**
 * A fresh, migrated database for one test file: an in-memory PGlite by default, or, when
 * DATABASE_URL is set, a new PostgreSQL database created beside it and dropped afterwards. Both
 * start as a copy of the run's template (tests/global-setup.ts); the migrations still run, and
 * find nothing left to do unless the template is missing.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL
  if (!url) {
    const template = inject('pgliteTemplate')
    const database = await openDatabase({ kind: 'pglite', ...(template ? { loadDataDir: new Blob([readFileSync(template)]) } : {}) })
    await database.migrate()
    return { ...database, cleanup: () => database.close() }
  }
  const created = await createDatabaseBeside(url, 'hallil_test', inject('postgresTemplate') ?? undefined)
  const database = await openDatabase({ kind: 'postgres', url: created.url, poolMax: 5 })
  await database.migrate()
  return {
    ...database,
    url: created.url,
    cleanup: async () => {
      await database.close()
      await created.drop()
    },
  }
}

/**
 * A fresh database for the calling test file, opened before its tests and removed after them:
 * `const db = setupTestDatabase()` then `db().db` inside a test.
 */
export function setupTestDatabase(setup?: (database: TestDatabase) => Promise<void>): () => TestDatabase {
  let database: TestDatabase | undefined
  beforeAll(async () => {
    database = await createTestDatabase()
    await setup?.(database)
  })
  afterAll(async () => {
    await database?.cleanup()
  })
  return () => {
    if (!database) throw new Error('the test database is not open yet')
    return database
  }
}
