// The README's test command: typecheck, lint, unit and integration tests, build, end-to-end
// tests. Runs on PGlite, or on PostgreSQL when DATABASE_URL is set.
//
// `npm test -- --database-only` is CI's second pass, on the other database after a full one:
// it runs only what can come out differently on another database: the test files that open one
// (every domain function and every API route is tested there against the database) and the
// end-to-end journeys tagged @database, which take a teacher through every write the product
// makes (account, codes, payment and its webhook, invoice, both analyses, a printed test,
// another teacher's ids). The other end-to-end tests check what the browser shows and does with
// what the server answers, the same whatever the database holds it (docs/decisions/015).
// Typecheck, lint, the build and the files that never open a database run once.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

const databaseOnly = process.argv.includes('--database-only')

/** A test file that opens a database, directly or through the tests' database helpers. */
const OPENS_A_DATABASE = /setupTestDatabase|createTestDatabase|openDatabase\(|DATABASE_URL|databaseUrl/

/** A test of the embedded mode itself, which forces PGlite: the PostgreSQL pass would only repeat it. */
const PGLITE_ONLY = /^\/\/ @pglite-only\b/m

/** vitest's own test files (its config's `include`, as `vitest list` reads it) that open a database. */
function databaseTestFiles() {
  const listed = spawnSync('npx', ['vitest', 'list', '--filesOnly'], { encoding: 'utf8', env: process.env })
  if (listed.status !== 0) throw new Error(`vitest list failed: ${listed.stderr}`)
  const files = listed.stdout
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /\.test\.tsx?$/.test(line))
  return files.filter((file) => {
    const text = readFileSync(file, 'utf8')
    return OPENS_A_DATABASE.test(text) && !PGLITE_ONLY.test(text)
  })
}

/**
 * Tests that measure what other teachers wait while one teacher's heavy work runs
 * (`*.under-load.test.ts`: probes' latencies, a render's CPU time) run after the others, one
 * file at a time, so that what they measure is the server under that work and not the test
 * files running beside them on the same cores.
 */
const UNDER_LOAD = '.under-load.test.'
const vitestAlone = ['vitest', 'run', '--maxWorkers=1', '--no-file-parallelism', UNDER_LOAD]

const openingADatabase = databaseOnly ? databaseTestFiles() : []

const steps = databaseOnly
  ? [
      [
        'unit and integration tests that open a database',
        'npx',
        ['vitest', 'run', ...openingADatabase.filter((file) => !file.includes(UNDER_LOAD))],
      ],
      [
        'tests under load that open a database, one at a time',
        'npx',
        [...vitestAlone.slice(0, -1), ...openingADatabase.filter((file) => file.includes(UNDER_LOAD))],
      ],
      ['end-to-end journeys tagged @database', 'npx', ['playwright', 'test', '--grep', '@database']],
    ]
  : [
      ['typecheck', 'npm', ['run', '-s', 'typecheck']],
      ['lint', 'npm', ['run', '-s', 'lint']],
      ['unit and integration tests', 'npx', ['vitest', 'run', '--exclude', `**/*${UNDER_LOAD}ts`]],
      ['build', 'npm', ['run', '-s', 'build']],
      // After the build: one of them measures the built server.
      ['tests under load, one at a time', 'npx', vitestAlone],
      ['end-to-end tests', 'npx', ['playwright', 'test']],
    ]

const database = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'
const started = Date.now()
for (const [name, command, args] of steps) {
  const t0 = Date.now()
  console.log(`\n▶ ${name} (${database})`)
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env })
  const seconds = ((Date.now() - t0) / 1000).toFixed(1)
  if (result.status !== 0) {
    console.error(`\n✖ ${name} failed after ${seconds} s`)
    process.exit(result.status ?? 1)
  }
  console.log(`✔ ${name} (${seconds} s)`)
}
console.log(`\nAll ${databaseOnly ? 'database ' : ''}checks passed on ${database} in ${((Date.now() - started) / 1000).toFixed(0)} s`)
