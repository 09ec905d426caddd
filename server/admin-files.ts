// `npm run admin -- files:migrate --from <store> --to <store>` (server/admin.ts): copies every
// stored file from one store to another, each read back and compared by SHA-256.
import type { Database } from '#app/platform/db/client.server.ts'
import { EnvError, loadEnv } from '#app/platform/env.server.ts'
import { openFileStore } from '#app/platform/file-stores.server.ts'
import { fileStoreNamed, migrateFiles } from '#app/platform/files-migrate.server.ts'
import { guardFileStore, isFileStoreUnavailable } from '#app/platform/files.server.ts'
import { createLogger } from '#app/platform/logger.server.ts'
import { openDatabaseFor } from '#app/platform/services.server.ts'

export const filesUsage = `  files:migrate --from <store> --to <store>
                                             copy every stored file (pictures) to another store,
                                             each checked by SHA-256; run again, it copies only
                                             what is new. <store>: local (DATA_DIR/files),
                                             local:<folder>, postgres (DATABASE_URL), s3
                                             (FILE_STORE_URL) or s3://bucket?endpoint=…&region=…
`

/** Runs `files:migrate`; the exit code: 0 done, 1 a file did not read back the same, 2 bad arguments. */
export async function filesCommand(args: string[]): Promise<number> {
  const at = (flag: string) => {
    const i = args.indexOf(flag)
    return i >= 0 ? args[i + 1] : undefined
  }
  const fromName = at('--from')
  const toName = at('--to')
  if (!fromName || !toName) {
    console.error(`files:migrate needs --from and --to:\n${filesUsage}`)
    return 2
  }
  const env = loadEnv()
  let from, to
  try {
    from = fileStoreNamed(fromName, env)
    to = fileStoreNamed(toName, env)
  } catch (error) {
    if (error instanceof EnvError) throw error
    console.error(`files:migrate: ${(error as Error).message}`)
    return 2
  }
  if (JSON.stringify(from) === JSON.stringify(to)) {
    console.error('files:migrate: --from and --to are the same store')
    return 2
  }
  let database: Database | null = null
  if (from.kind === 'postgres' || to.kind === 'postgres') {
    database = await openDatabaseFor(env)
    await database.migrate()
  }
  // Guarded as the server's: a store that fails is logged without the bytes, and said in one line.
  const logger = createLogger(env.LOG_LEVEL)
  try {
    const result = await migrateFiles({
      from: guardFileStore(await openFileStore(from, database?.db ?? null), logger),
      to: guardFileStore(await openFileStore(to, database?.db ?? null), logger),
      onProgress: (r) => console.info(`… ${r.seen} files looked at`),
    }).catch((error: unknown) => {
      if (!isFileStoreUnavailable(error)) throw error
      return null
    })
    if (!result) {
      console.error('files:migrate: a store did not answer (see the log line above); nothing was removed, run it again when it answers')
      return 1
    }
    console.info(
      `Files in ${fromName}: ${result.seen}. Copied to ${toName} and verified: ${result.copied}. Already there (same SHA-256): ${result.alreadyThere}.` +
        (result.vanished ? ` Removed while copying: ${result.vanished}.` : '') +
        (result.mismatched.length
          ? `\nNot the same when read back (${result.mismatched.length}):\n${result.mismatched.map((k) => `  ${k}`).join('\n')}`
          : ''),
    )
    return result.mismatched.length ? 1 : 0
  } finally {
    await database?.close()
  }
}
