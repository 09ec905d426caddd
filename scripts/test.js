// The README's test command: typecheck, lint, unit and integration tests, build, end-to-end
// tests. Runs on PGlite, or on PostgreSQL when DATABASE_URL is set.
import { spawnSync } from 'node:child_process'

const steps = [
  ['typecheck', 'npm', ['run', '-s', 'typecheck']],
  ['lint', 'npm', ['run', '-s', 'lint']],
  ['unit and integration tests', 'npx', ['vitest', 'run']],
  ['build', 'npm', ['run', '-s', 'build']],
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
console.log(`\nAll checks passed on ${database} in ${((Date.now() - started) / 1000).toFixed(0)} s`)
