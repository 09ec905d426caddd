import type { Db } from './db/client.server.ts'
import type { FileStoreChoice } from './env.server.ts'
import { createPostgresFileStore } from './files-postgres.server.ts'
import { createS3FileStore } from './files-s3.server.ts'
import { createLocalFileStore, type FileStore } from './files.server.ts'

/** The store of a choice (env.FILE_STORE, or one named to `files:migrate`); PostgreSQL's needs the database. */
export function openFileStore(choice: FileStoreChoice, db: Db | null): FileStore {
  if (choice.kind === 'local') return createLocalFileStore(choice.dir)
  if (choice.kind === 's3') return createS3FileStore(choice.location, choice.credentials)
  if (!db) throw new Error('the PostgreSQL file store needs DATABASE_URL')
  return createPostgresFileStore(db)
}
