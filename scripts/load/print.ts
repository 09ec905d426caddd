// Scenario 5 (issue #15): 20 teachers print the largest tests the limits accept (the test, its
// key, four versions with their keys) while 100 others read pages and the API and save tests.
// No 5xx, and the others' p99 under 500 ms: a print waits for a render process, nobody else does.
import { EXAM_LIMITS } from '#app/features/exams/schemas.ts'
import { largestExamBody } from '#tests/exams.ts'
import {
  check,
  examBody,
  is5xx,
  Recorder,
  registerTeachers,
  sleep,
  startServer,
  subscribeDirectly,
  type Check,
  type ScenarioResult,
  type Teacher,
} from './lib.ts'

const p99 = (list: number[]) => list.toSorted((a, b) => a - b)[Math.max(0, Math.ceil(list.length * 0.99) - 1)] ?? 0

export async function printLoad(options: { port: number; printers: number; others: number; seconds: number }): Promise<ScenarioResult> {
  const setup = new Recorder()
  const rec = new Recorder()
  const checks: Check[] = []
  const notes: string[] = []
  const server = await startServer({ name: 'print', port: options.port, env: { EXPORTS_PER_HOUR: '10000' } })
  try {
    const teachers = await registerTeachers(server, setup, 'print', options.printers + options.others)
    await subscribeDirectly(
      server.databaseUrl,
      teachers.map((t) => t.userId),
    )
    const printers = teachers.slice(0, options.printers)
    const others = teachers.slice(options.printers)
    const api = `${server.url}/api/v1`
    // Each printer's own test: its title differs, so no two share a render.
    const exams = new Map<Teacher, string>()
    for (const [n, t] of printers.entries()) {
      const res = await setup.request('setup: POST largest exam', `${api}/exams`, {
        json: { ...largestExamBody(EXAM_LIMITS, 30), title: `أكبر اختبار ${n + 1}` },
        headers: t.headers,
      })
      const id = (res.body as { data?: { id?: string } })?.data?.id
      if (!id) throw new Error(`the largest test was not saved: ${res.status}`)
      exams.set(t, id)
    }
    notes.push(
      `setup: ${teachers.length} teachers, ${printers.length} of them with the largest accepted test (${EXAM_LIMITS.totalCharacters.toLocaleString('en')} characters, ${EXAM_LIMITS.totalPairs} pairs, 100 questions)`,
    )

    const until = Date.now() + options.seconds * 1000
    rec.started = performance.now()
    const print = async (t: Teacher, n: number) => {
      await sleep((n * 2000) / printers.length)
      const id = exams.get(t)!
      // What a teacher does on the print page, one after the other; a print may wait its turn.
      for (const query of ['', '?answers=1', '?versions=4']) {
        if (Date.now() >= until) return
        await rec.request(`print: GET exams/:id/pdf${query}`, `${api}/exams/${id}/pdf${query}`, { headers: t.headers, timeoutMs: 600_000 })
      }
    }
    const work = async (t: Teacher, n: number) => {
      let i = 0
      await sleep((n * 2000) / others.length)
      while (Date.now() < until) {
        i++
        const roll = Math.random()
        if (roll < 0.2)
          await rec.request('others: GET /en (page)', `${server.url}/en`, { headers: { 'x-forwarded-for': t.ip, accept: 'text/html' } })
        else if (roll < 0.45) await rec.request('others: GET auth/profile', `${api}/auth/profile`, { headers: t.headers })
        else if (roll < 0.7) await rec.request('others: GET exams', `${api}/exams`, { headers: t.headers })
        else if (roll < 0.8) await rec.request('others: GET /healthz', `${server.url}/healthz`)
        else await rec.request('others: POST exams (save)', `${api}/exams`, { json: examBody(`print-load ${n}.${i}`), headers: t.headers })
        await sleep(100 + Math.random() * 400)
      }
    }
    await Promise.all([...printers.map((t, n) => print(t, n)), ...others.map((t, n) => work(t, n))])
    rec.finish()

    const othersMs = [...rec.ops].filter(([op]) => op.startsWith('others:')).flatMap(([, e]) => e.ms)
    const printStatuses = [...rec.ops].filter(([op]) => op.startsWith('print:')).flatMap(([, e]) => [...e.statuses])
    const prints = printStatuses.reduce((sum, [, n]) => sum + n, 0)
    const printsOk = printStatuses.reduce((sum, [status, n]) => sum + (status === '200' ? n : 0), 0)
    const fivexx = rec.count(is5xx)
    const neterr = rec.count((s) => !/^\d+$/.test(s))
    check(checks, 'no 5xx', fivexx === 0, `${fivexx} responses 5xx`)
    check(checks, 'no connection errors or timeouts', neterr === 0, `${neterr}`)
    check(
      checks,
      "the others' p99 under 500 ms",
      p99(othersMs) < 500,
      `p99 ${p99(othersMs).toFixed(0)} ms over ${othersMs.length} requests`,
    )
    check(checks, 'every print answered 200', prints > 0 && printsOk === prints, `${printsOk} of ${prints}`)
    check(checks, 'the server stayed up', server.exitCode() === null)
    return {
      name: `5. Printing under load: ${printers.length} teachers printing the largest tests, ${others.length} others working, ${options.seconds} s`,
      recorder: rec,
      checks,
      notes,
    }
  } finally {
    await server.stop()
  }
}
