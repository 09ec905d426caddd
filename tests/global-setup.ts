// Migrates one template database before the test files start; each file then opens a copy of it
// instead of building a database and running every migration itself (PGlite's initdb alone took
// several seconds a file). PGlite: the migrated data folder, dumped to a tarball each file loads.
// PostgreSQL: a migrated database each file's database is created from (`create database …
// template …`), dropped when the run ends.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import type { TestProject } from 'vitest/node'
import { openDatabase } from '#app/platform/db/client.server.ts'
import { createDatabaseBeside } from './support/server-process.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite: a tarball of a migrated data folder. */
    pgliteTemplate: string | null
    /** PostgreSQL: the name of a migrated database to copy. */
    postgresTemplate: string | null
  }
}

export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL
  if (!url) {
    const database = await openDatabase({ kind: 'pglite' })
    await database.migrate()
    const client = (database.db as unknown as { $client: PGlite }).$client
    const dump = await client.dumpDataDir('none')
    await database.close()
    const dir = path.resolve('.tmp/vitest')
    mkdirSync(dir, { recursive: true })
    const file = path.join(dir, `pglite-template-${process.pid}.tar`)
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()))
    project.provide('pgliteTemplate', file)
    project.provide('postgresTemplate', null)
    return () => rmSync(file, { force: true })
  }

  const template = await createDatabaseBeside(url, 'hallil_template')
  const database = await openDatabase({ kind: 'postgres', url: template.url, poolMax: 1 })
  await database.migrate()
  // A template must have no open connection while it is copied.
  await database.close()
  project.provide('pgliteTemplate', null)
  project.provide('postgresTemplate', template.name)
  return () => template.drop()
}
