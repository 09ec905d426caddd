import type { Db } from './db/client.server.ts'
import type { FileStoreChoice } from './env.server.ts'
import { createPostgresFileStore } from './files-postgres.server.ts'
import { createLocalFileStore, type FileStore } from './files.server.ts'

/**
 * The store of a choice (env.FILE_STORE, or one named to `files:migrate`); PostgreSQL's needs the
 * database. The S3 client is loaded only when object storage is chosen: the embedded and the
 * database-only servers never carry the AWS SDK.
 */
export async function openFileStore(choice: FileStoreChoice, db: Db | null): Promise<FileStore> {
  if (choice.kind === 'local') return createLocalFileStore(choice.dir)
  if (choice.kind === 's3') {
    const { createS3FileStore } = await import('./files-s3.server.ts')
    return createS3FileStore(choice.location, choice.credentials)
  }
  if (!db) throw new Error('the PostgreSQL file store needs DATABASE_URL')
  return createPostgresFileStore(db)
}
