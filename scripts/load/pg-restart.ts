// Scenario 2: PostgreSQL stopped and started again in the middle of a loop of writes. Requests in
// the gap must fail cleanly (a 5xx with the JSON error body, or a refused connection, within the
// timeout); the process stays up; everything acknowledged before, during and after is kept.
import { execFileSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import {
  check,
  examBody,
  is5xx,
  pool,
  Recorder,
  registerTeachers,
  sleep,
  startServer,
  subscribeDirectly,
  type Check,
  type ScenarioResult,
} from './lib.ts'

function cluster() {
  const version = process.env.LOAD_PG_VERSION ?? readdirSync('/etc/postgresql').toSorted().at(-1)
  if (!version) throw new Error('no PostgreSQL cluster under /etc/postgresql')
  return version
}

/** pg_ctlcluster, as the machine starts its PostgreSQL (no systemd here). */
function pgCtl(action: 'stop' | 'start') {
  execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', cluster(), 'main', action, ...(action === 'stop' ? ['-m', 'fast'] : [])], {
    stdio: 'pipe',
    timeout: 60_000,
  })
}

export async function pgRestart(options: { port: number; writers: number; seconds: number; gapSeconds: number }): Promise<ScenarioResult> {
  const rec = new Recorder()
  const setup = new Recorder()
  const checks: Check[] = []
  const notes: string[] = []
  const server = await startServer({ name: 'pgrestart', port: options.port })
  let pgDown = false
  try {
    const teachers = await registerTeachers(server, setup, 'pgr', options.writers)
    await subscribeDirectly(
      server.databaseUrl,
      teachers.map((t) => t.userId),
    )
    const api = `${server.url}/api/v1`
    const acknowledged: Array<{ headers: Record<string, string>; id: string }> = []
    const gapBodies: { json: number; other: string[] } = { json: 0, other: [] }
    let phase: 'before' | 'gap' | 'after' = 'before'
    const until = Date.now() + options.seconds * 1000
    rec.started = performance.now()
    const writer = async (n: number) => {
      const t = teachers[n]!
      let i = 0
      while (Date.now() < until) {
        i++
        const p = phase
        const res = await rec.request(`POST exams (${p})`, `${api}/exams`, {
          json: examBody(`pg ${n}.${i}`),
          headers: t.headers,
          timeoutMs: 20_000,
        })
        const id = (res.body as { data?: { id?: string } })?.data?.id
        if (res.status === 201 && id) acknowledged.push({ headers: t.headers, id })
        else if (typeof res.status === 'number' && is5xx(String(res.status))) {
          const message = (res.body as { message?: unknown })?.message
          if (typeof message === 'string') gapBodies.json++
          else gapBodies.other.push(String(res.body).slice(0, 80))
        }
        if (n === 0 && i % 2 === 0) await rec.request(`GET /healthz (${phase})`, `${server.url}/healthz`, { timeoutMs: 20_000 })
        await sleep(50)
      }
    }
    const chaos = (async () => {
      await sleep((options.seconds * 1000) / 3)
      phase = 'gap'
      const stopAt = performance.now()
      pgDown = true
      pgCtl('stop')
      await sleep(options.gapSeconds * 1000)
      pgCtl('start')
      pgDown = false
      notes.push(`PostgreSQL stopped (fast) and started again: ${((performance.now() - stopAt) / 1000).toFixed(1)} s without a database`)
      // Requests already in flight finish in the gap's row; a second later everything is "after".
      await sleep(1000)
      phase = 'after'
    })()
    await Promise.all([...teachers.map((_, n) => writer(n)), chaos])
    rec.finish()

    // After: the process is up, /healthz answers 200, every acknowledged save is there.
    const health = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(5000) }).then(
      (r) => r.status,
      () => 0,
    )
    let missing = 0
    const verify = new Recorder()
    await pool(acknowledged, 16, async (w) => {
      const res = await verify.request('verify', `${api}/exams/${w.id}`, { headers: w.headers })
      if (res.status !== 200) missing++
    })
    const gap5xx = rec.count(is5xx, 'POST exams (gap)')
    const gapNet = rec.count((s) => !/^\d+$/.test(s), 'POST exams (gap)')
    const timeouts = rec.count((s) => s === 'timeout')
    const after2xx = rec.count((s) => s === '201', 'POST exams (after)')
    const afterFail = rec.count((s) => s !== '201', 'POST exams (after)')
    const before5xx = rec.count(is5xx, 'POST exams (before)')
    check(checks, 'no 5xx before the restart', before5xx === 0, `${before5xx}`)
    check(
      checks,
      'requests in the gap fail cleanly: 5xx with a JSON {message}, or a refused connection',
      gapBodies.other.length === 0,
      `5xx with JSON message ×${gapBodies.json}, without ×${gapBodies.other.length}${gapBodies.other[0] ? ` (${gapBodies.other[0]})` : ''}, connection errors ×${gapNet}`,
    )
    check(checks, 'nothing hangs past the 20 s timeout', timeouts === 0, `${timeouts} timeouts`)
    check(checks, 'the process stayed up', server.exitCode() === null)
    check(checks, '/healthz answers 200 after', health === 200, `status ${health}`)
    check(
      checks,
      'writes succeed after the restart (pool recovered by itself)',
      after2xx > 0 && afterFail === 0,
      `${after2xx} saved, ${afterFail} failed after`,
    )
    check(
      checks,
      'every acknowledged save (before, during, after) is present',
      missing === 0,
      `${acknowledged.length - missing}/${acknowledged.length} found`,
    )
    if (gap5xx + gapNet === 0) notes.push('no request failed in the gap (the writes in flight may all have landed before or after it)')
    return {
      name: `2. PostgreSQL restart: ${options.writers} writers × ${options.seconds} s, a ${options.gapSeconds} s outage a third of the way in`,
      recorder: rec,
      checks,
      notes,
    }
  } finally {
    if (pgDown) {
      try {
        pgCtl('start')
      } catch {
        // reported by the server stop below, if at all
      }
    }
    await server.stop()
  }
}
