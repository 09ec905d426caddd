// Operator commands: `npm run admin -- <area> <command> [args]`. Runs against the configured
// database (the same environment as the server).
import { decideReview, listReviewsByStatus, removeSecondFactor } from '#app/features/accounts/index.server.ts'
import {
  addPackage,
  gatewayFor,
  listAllPackages,
  notifySubscriptionEndings,
  parsePrice,
  reconcilePayments,
  updatePackage,
} from '#app/features/billing/index.server.ts'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { BackupError, createBackup, restoreBackup } from '#app/platform/backup.server.ts'
import { createLogger } from '#app/platform/logger.server.ts'
import { EnvError, loadEnv } from '#app/platform/env.server.ts'
import { openDatabaseFor } from '#app/platform/services.server.ts'
import { filesCommand, filesUsage } from './admin-files.ts'
import { operatorRoleCommand } from './admin-users.ts'

const usage = `Usage: npm run admin -- <command>

  reviews list [pending|approved|rejected]   list client reviews (default: pending)
  reviews approve <id>                       show a review on the site
  reviews reject <id>                        keep a review off the site

  packages list                              every package, active or not
  packages add <slug> --ar <name> --en <name> --price <SAR 99.00|9900> --months <n>
               [--desc-ar <text>] [--desc-en <text>] [--best] [--order <n>]
  packages update <slug> [same options]      change a package
  packages deactivate <slug>                 hide a package from sale

  payments:reconcile                         settle payments left pending at the gateway
  users:two-factor-off <email>               turn off a teacher's two-step verification (lost phone
                                             and recovery codes: check who is asking first)
  users:grant-operator <email>               let an account open the operator area (/ar/admin); it
                                             must also turn on two-step verification (docs/operators.md)
  users:revoke-operator <email>              make an operator a teacher again
  subscriptions:notify                       send "ends in 7 days" / "has ended" notifications

  backup <file.tar.gz>                       the embedded database, the stored files and the
                                             session secret in one archive (stop the server first)
  restore <file.tar.gz>                      put a backup in place of DATA_DIR's database and files
                                             (stop the server first; what was there is kept aside)

${filesUsage}`

function options(args: string[]) {
  const out: Record<string, string | true> = {}
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? ''
    if (!arg.startsWith('--')) continue
    const next = args[i + 1]
    if (next === undefined || next.startsWith('--')) out[arg.slice(2)] = true
    else {
      out[arg.slice(2)] = next
      i++
    }
  }
  return out
}

function packageFields(o: Record<string, string | true>) {
  const text = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : undefined)
  const price = text('price')
  const priceHalalas = price === undefined ? undefined : parsePrice(price)
  if (priceHalalas === null) throw new Error(`Cannot read the price "${price}": write SAR 99.00 or 9900 (halalas)`)
  const months = text('months') === undefined ? undefined : Number(text('months'))
  if (months !== undefined && (!Number.isInteger(months) || months < 1 || months > 36))
    throw new Error('--months must be a whole number from 1 to 36')
  return {
    ...(text('ar') ? { nameAr: text('ar') } : {}),
    ...(text('en') ? { nameEn: text('en') } : {}),
    ...(text('desc-ar') ? { descriptionAr: text('desc-ar') } : {}),
    ...(text('desc-en') ? { descriptionEn: text('desc-en') } : {}),
    ...(priceHalalas !== undefined ? { priceHalalas } : {}),
    ...(months !== undefined ? { months } : {}),
    ...(o.best ? { isBestSeller: true } : {}),
    ...(text('order') ? { sortOrder: Number(text('order')) } : {}),
  }
}

/** `backup <file>` and `restore <file>`: the embedded mode only (PostgreSQL has pg_dump; see the README). */
async function backupOrRestore(command: 'backup' | 'restore', file: string): Promise<number> {
  const env = loadEnv()
  if (env.DATABASE_URL) {
    console.error(
      `${command} is for the embedded database; with DATABASE_URL use pg_dump and pg_restore, which hold the stored files too unless FILE_STORE_URL says otherwise (README, Backups and restores).`,
    )
    return 2
  }
  if (env.FILE_STORE.kind !== 'local') {
    console.error(
      `${command} holds the files of DATA_DIR/files; with FILE_STORE_URL they live in object storage: copy them with the bucket's tools (README, Backups and restores).`,
    )
    return 2
  }
  try {
    if (command === 'backup') {
      const { version } = JSON.parse(readFileSync(path.resolve('package.json'), 'utf8')) as { version: string }
      const { file: written, bytes, manifest } = await createBackup({ dataDir: env.DATA_DIR, file, appVersion: version })
      const files = manifest.entries.filter((e) => e.type === 'file')
      console.info(
        `Wrote ${written} (${(bytes / 1024 / 1024).toFixed(1)} MB): ${files.filter((e) => e.path.startsWith('db/')).length} database files, ${files.filter((e) => e.path.startsWith('files/')).length} stored files, ${manifest.migrations} migrations applied.`,
      )
      return 0
    }
    const { manifest, previous } = await restoreBackup({ dataDir: env.DATA_DIR, file })
    console.info(`Restored the backup of ${manifest.createdAt} (Hallil ${manifest.appVersion}) into ${env.DATA_DIR}.`)
    if (previous) console.info(`What was there before is in ${previous}: delete it once the restored data is checked.`)
    return 0
  } catch (error) {
    if (error instanceof BackupError) {
      console.error(`${command === 'backup' ? 'Backup' : 'Restore'} refused: ${error.message}`)
      return 1
    }
    throw error
  }
}

async function main(argv: string[]): Promise<number> {
  const [area, command, arg] = argv
  // Stored files (issue 19, shared storage): opens the stores it is told to, and the database only when one of them is PostgreSQL.
  if (area === 'files:migrate') return filesCommand(argv.slice(1))

  const withArgument = ['reviews', 'packages', 'users:two-factor-off', 'users:grant-operator', 'users:revoke-operator', 'backup', 'restore']
  const known = [...withArgument, 'payments:reconcile', 'subscriptions:notify']
  if (!area || !known.includes(area) || (withArgument.includes(area) && !command)) {
    console.info(usage)
    return area ? 2 : 0
  }
  // Before the database is opened: both need it closed, and a restore may find none.
  if (area === 'backup' || area === 'restore') return backupOrRestore(area, command ?? '')
  const env = loadEnv()
  const database = await openDatabaseFor(env)
  await database.migrate()
  try {
    if (area === 'payments:reconcile') {
      const logger = createLogger(env.LOG_LEVEL)
      const ctx = { db: database.db, env, logger }
      const result = await reconcilePayments({ ...ctx, gateway: gatewayFor(ctx), olderThanMs: 0 })
      console.info(`Checked ${result.checked} pending payments; settled ${result.settled}.`)
      return 0
    }
    if (area === 'users:two-factor-off') {
      // The email is the command's argument (the second word).
      const done = await removeSecondFactor({ db: database.db, logger: createLogger(env.LOG_LEVEL), input: { email: command ?? '' } })
      console.info(
        done
          ? 'Two-step verification is off for that account; the teacher was notified.'
          : 'No account with that email has two-step verification.',
      )
      return done ? 0 : 1
    }
    if (area === 'users:grant-operator' || area === 'users:revoke-operator')
      return await operatorRoleCommand({ db: database.db, command: area, email: command ?? '' })
    if (area === 'subscriptions:notify') {
      const result = await notifySubscriptionEndings({ db: database.db })
      console.info(`Sent ${result.ending} "ends in 7 days" and ${result.ended} "has ended" notifications.`)
      return 0
    }
    if (area === 'packages') {
      const o = options(argv.slice(2))
      if (command === 'list') {
        for (const p of await listAllPackages({ db: database.db }))
          console.info(
            `${p.slug.padEnd(12)} ${(p.priceHalalas / 100).toFixed(2).padStart(9)} SAR  ${String(p.months).padStart(2)} months  ${p.isActive ? 'active  ' : 'inactive'} ${p.isBestSeller ? '★ ' : '  '}${p.nameEn} / ${p.nameAr}`,
          )
        return 0
      }
      if (command === 'add' && arg) {
        const fields = packageFields(o)
        if (!fields.nameAr || !fields.nameEn || fields.priceHalalas === undefined || fields.months === undefined) {
          console.error('packages add needs --ar, --en, --price and --months')
          return 2
        }
        const row = await addPackage({
          db: database.db,
          fields: {
            slug: arg,
            nameAr: fields.nameAr,
            nameEn: fields.nameEn,
            priceHalalas: fields.priceHalalas,
            months: fields.months,
            ...fields,
          },
        })
        console.info(`Added package ${row?.slug}.`)
        return 0
      }
      if ((command === 'update' || command === 'deactivate') && arg) {
        const fields = command === 'deactivate' ? { isActive: false } : packageFields(o)
        const row = await updatePackage({ db: database.db, slug: arg, fields })
        console.info(row ? `Updated package ${arg}.` : `No package ${arg}.`)
        return row ? 0 : 1
      }
      console.info(usage)
      return 2
    }
    if (command === 'list') {
      const status = (arg ?? 'pending') as 'pending' | 'approved' | 'rejected'
      if (!['pending', 'approved', 'rejected'].includes(status)) {
        console.error(`Unknown status: ${status}`)
        return 2
      }
      const rows = await listReviewsByStatus({ db: database.db, status })
      if (rows.length === 0) console.info(`No ${status} reviews.`)
      for (const r of rows)
        console.info(
          `${r.id}  ${'★'.repeat(r.rating)}${'☆'.repeat(5 - r.rating)}  ${r.username}  ${r.createdAt.toISOString().slice(0, 10)}\n    ${r.comment}`,
        )
      return 0
    }
    if ((command === 'approve' || command === 'reject') && arg) {
      const ok = await decideReview({ db: database.db, id: arg, status: command === 'approve' ? 'approved' : 'rejected' })
      console.info(ok ? `Review ${arg} ${command === 'approve' ? 'approved' : 'rejected'}.` : `No pending review with id ${arg}.`)
      return ok ? 0 : 1
    }
    console.info(usage)
    return 2
  } finally {
    await database.close()
  }
}

try {
  process.exitCode = await main(process.argv.slice(2))
} catch (error) {
  console.error(error instanceof EnvError ? error.message : error)
  process.exitCode = 1
}
