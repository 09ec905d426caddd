// Operator commands: `npm run admin -- <area> <command> [args]`. Runs against the configured
// database (the same environment as the server).
import { decideReview, listReviewsByStatus } from '#app/features/accounts/index.server.ts'
import { EnvError, loadEnv } from '#app/server/env.server.ts'
import { openDatabaseFor } from '#app/server/services.server.ts'

const usage = `Usage: npm run admin -- <command>

  reviews list [pending|approved|rejected]   list client reviews (default: pending)
  reviews approve <id>                       show a review on the site
  reviews reject <id>                        keep a review off the site
`

async function main(argv: string[]): Promise<number> {
  const [area, command, arg] = argv
  if (area !== 'reviews' || !command) {
    console.info(usage)
    return area ? 2 : 0
  }
  const env = loadEnv()
  const database = await openDatabaseFor(env)
  await database.migrate()
  try {
    if (command === 'list') {
      const status = (arg ?? 'pending') as 'pending' | 'approved' | 'rejected'
      if (!['pending', 'approved', 'rejected'].includes(status)) {
        console.error(`Unknown status: ${status}`)
        return 2
      }
      const rows = await listReviewsByStatus(database.db, status)
      if (rows.length === 0) console.info(`No ${status} reviews.`)
      for (const r of rows) console.info(`${r.id}  ${'★'.repeat(r.rating)}${'☆'.repeat(5 - r.rating)}  ${r.username}  ${r.createdAt.toISOString().slice(0, 10)}\n    ${r.comment}`)
      return 0
    }
    if ((command === 'approve' || command === 'reject') && arg) {
      const ok = await decideReview(database.db, arg, command === 'approve' ? 'approved' : 'rejected')
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
