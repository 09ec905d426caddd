// `npm run db:migrate`: applies the committed migrations and seeds an empty database, then exits.
// The server does the same at start-up; this is for deployments that migrate before rolling out.
import { seedPackages } from './seed.server.ts'
import { EnvError, loadEnv } from '../env.server.ts'
import { openDatabaseFor } from '../services.server.ts'

try {
  const env = loadEnv()
  const database = await openDatabaseFor(env)
  await database.migrate()
  const seeded = await seedPackages({ db: database.db })
  await database.close()
  console.info(`migrations applied on ${database.kind}${seeded ? `; ${seeded} default packages installed` : ''}`)
} catch (error) {
  console.error(error instanceof EnvError ? error.message : error)
  process.exit(1)
}
