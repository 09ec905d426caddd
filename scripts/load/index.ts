// npm run test:load — load and fault scenarios against the built server on loopback (issue #8,
// item 4; `processes`, issue 19). Not part of CI (a small `processes` is: its .processes.test.ts):
// it takes about eight minutes, restarts the machine's PostgreSQL and needs the cluster on
// 127.0.0.1:5432 (LOAD_DATABASE_URL to point elsewhere).
//   npm run test:load                      all of them
//   npm run test:load -- mixed pg          some of them (mixed, pg, mail, gateway, print, processes)
//   npm run test:load -- --teachers 50 --seconds 20
import { execSync } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { gatewayFaults } from './gateway.ts'
import { printResult, type ScenarioResult } from './lib.ts'
import { mailDown } from './mail-down.ts'
import { mixedLoad } from './mixed.ts'
import { pgRestart } from './pg-restart.ts'
import { printLoad } from './print.ts'
import { manyProcesses } from './processes.ts'

const args = process.argv.slice(2)
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? Number(args[i + 1]) : fallback
}
const named = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'))
const wanted = (name: string) => named.length === 0 || named.includes(name)
const basePort = flag('port', 3600)

// Build when there is no build, or when `--build` asks for a fresh one.
const built = 'build/server/index.js'
if (args.includes('--build') || !existsSync(built)) {
  console.log('Building (npm run build)…')
  execSync('npm run build', { stdio: 'inherit' })
} else {
  console.log(`Using the existing build (${built}, ${statSync(built).mtime.toISOString()}); --build rebuilds.`)
}

const results: ScenarioResult[] = []
const scenarios: Array<[string, () => Promise<ScenarioResult>]> = [
  ['mixed', () => mixedLoad({ port: basePort, teachers: flag('teachers', 200), seconds: flag('seconds', 60) })],
  ['pg', () => pgRestart({ port: basePort + 1, writers: 20, seconds: 30, gapSeconds: 4 })],
  ['mail', () => mailDown({ port: basePort + 2, smtpPort: basePort + 25 })],
  ['gateway', () => gatewayFaults({ port: basePort + 3 })],
  [
    'print',
    () =>
      printLoad({ port: basePort + 4, printers: flag('printers', 20), others: flag('others', 100), seconds: flag('print-seconds', 90) }),
  ],
  [
    'processes',
    () =>
      manyProcesses({
        teachers: flag('teachers', 40),
        latePayers: flag('late-payers', 10),
        seconds: flag('seconds', 60),
        ports: [basePort + 10, basePort + 11, basePort + 12, basePort + 13],
        log: (line) => console.log(line),
      }),
  ],
]
let crashed = false
for (const [name, scenario] of scenarios) {
  if (!wanted(name)) continue
  console.log(`\nRunning ${name}…`)
  try {
    const result = await scenario()
    results.push(result)
    printResult(result)
  } catch (error) {
    crashed = true
    console.error(`\n== ${name}: the scenario itself failed:`, error)
  }
}

console.log('\n== Summary')
for (const r of results) {
  const failed = r.checks.filter((c) => !c.ok)
  console.log(
    `  ${failed.length === 0 ? 'PASS' : 'FAIL'}  ${r.name}${failed.length ? ` (${failed.length} of ${r.checks.length} checks failed)` : ''}`,
  )
}
const ok = !crashed && results.every((r) => r.checks.every((c) => c.ok))
process.exit(ok ? 0 : 1)
