import { describe, expect, it } from 'vitest'
import { freePort } from '#tests/support/server-process.ts'
import { manyProcesses } from './processes.ts'

// The processes load scenario (`npm run test:load -- processes`, issue 19) at CI's size: three
// built servers on one PostgreSQL database behind a round-robin proxy, eight teachers registering,
// signing in on one process and going on on the others, paying (webhook and return on different
// processes), saving tests, uploading images and workbooks, one process killed with SIGKILL and
// started again; then every check of the scenario must pass. Several processes on one database
// need PostgreSQL: the embedded PGlite belongs to one process (docs/decisions/019), so this
// runs in the PostgreSQL pass (DATABASE_URL) and is skipped on PGlite.

/** Four distinct free ports: the proxy's and the three processes'. */
async function fourPorts(): Promise<[number, number, number, number]> {
  const ports = new Set<number>()
  while (ports.size < 4) ports.add(await freePort(3400, 4000))
  return [...ports] as [number, number, number, number]
}

describe.skipIf(!process.env.DATABASE_URL)('three processes on one PostgreSQL database', () => {
  it('share sessions, rate limits, files and the books, and lose nothing acknowledged to a SIGKILL', { timeout: 240_000 }, async () => {
    const result = await manyProcesses({
      teachers: 6,
      latePayers: 2,
      seconds: 10,
      downSeconds: 1,
      ports: await fourPorts(),
      adminDatabaseUrl: process.env.DATABASE_URL,
    })
    const failed = result.checks.filter((c) => !c.ok).map((c) => `${c.name} — ${c.detail}`)
    expect(failed).toEqual([])
    // Every check of the scenario ran (none skipped by an early return).
    expect(result.checks.length).toBe(13)
  })
})
