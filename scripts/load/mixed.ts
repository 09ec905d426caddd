// Scenario 1: 200 teachers for 60 s doing mixed reads, test saves and workbook uploads, then
// every acknowledged write is looked up through the API.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import {
  check,
  examBody,
  is2xx,
  is5xx,
  pool,
  Recorder,
  registerTeachers,
  sleep,
  startServer,
  subscribeDirectly,
  type Check,
  type ScenarioResult,
  type Teacher,
} from './lib.ts'

export async function mixedLoad(options: { port: number; teachers: number; seconds: number }): Promise<ScenarioResult> {
  const setup = new Recorder()
  const rec = new Recorder()
  const checks: Check[] = []
  const notes: string[] = []
  const server = await startServer({ name: 'mixed', port: options.port, env: { ANALYSIS_UPLOADS_PER_HOUR: '10000' } })
  try {
    const setupStart = performance.now()
    const teachers = await registerTeachers(server, setup, 'mixed', options.teachers)
    await subscribeDirectly(
      server.databaseUrl,
      teachers.map((t) => t.userId),
    )
    notes.push(
      `setup: ${teachers.length} teachers registered and activated through the API (codes from the outbox) in ${((performance.now() - setupStart) / 1000).toFixed(1)} s; subscriptions inserted straight into PostgreSQL (a paid sandbox payment + subscription row each)`,
    )
    const api = `${server.url}/api/v1`
    const workbook = readFileSync(path.resolve('app/features/absence/fixtures/small-ar.xlsx'))
    const acknowledged = new Map<string, { exams: Set<string>; analyses: Set<string> }>()
    for (const t of teachers) acknowledged.set(t.userId, { exams: new Set(), analyses: new Set() })

    const until = Date.now() + options.seconds * 1000
    rec.started = performance.now()
    const loop = async (t: Teacher, n: number) => {
      let i = 0
      // Teachers start spread over the first two seconds, not all in the same millisecond.
      await sleep((n * 2000) / teachers.length)
      while (Date.now() < until) {
        i++
        const roll = Math.random()
        if (roll < 0.1)
          await rec.request('GET /en (page)', `${server.url}/en`, { headers: { 'x-forwarded-for': t.ip, accept: 'text/html' } })
        else if (roll < 0.2)
          await rec.request('GET /en/packages (page)', `${server.url}/en/packages`, {
            headers: { 'x-forwarded-for': t.ip, accept: 'text/html' },
          })
        else if (roll < 0.3) await rec.request('GET packages', `${api}/packages`, { headers: t.headers })
        else if (roll < 0.4) await rec.request('GET auth/profile', `${api}/auth/profile`, { headers: t.headers })
        else if (roll < 0.5) await rec.request('GET analyses', `${api}/analyses`, { headers: t.headers })
        else if (roll < 0.6) await rec.request('GET exams', `${api}/exams`, { headers: t.headers })
        else if (roll < 0.92) {
          const res = await rec.request('POST exams (save)', `${api}/exams`, { json: examBody(`load ${n}.${i}`), headers: t.headers })
          const id = (res.body as { data?: { id?: string } })?.data?.id
          if (typeof res.status === 'number' && res.status >= 200 && res.status < 300 && id) acknowledged.get(t.userId)!.exams.add(id)
        } else {
          const form = new FormData()
          form.set(
            'file',
            new Blob([workbook], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }),
            'small-ar.xlsx',
          )
          const res = await rec.request('POST analyses/absence (upload)', `${api}/analyses/absence`, {
            form,
            headers: t.headers,
            timeoutMs: 60_000,
          })
          const id = (res.body as { data?: { id?: string } })?.data?.id
          if (typeof res.status === 'number' && res.status >= 200 && res.status < 300 && id) acknowledged.get(t.userId)!.analyses.add(id)
        }
        await sleep(100 + Math.random() * 400)
      }
    }
    await Promise.all(teachers.map((t, n) => loop(t, n)))
    rec.finish()

    // Every acknowledged write, read back through the API.
    const verify = new Recorder()
    let missingExams = 0
    let missingAnalyses = 0
    let examsAcked = 0
    let analysesAcked = 0
    await pool(teachers, 16, async (t) => {
      const acked = acknowledged.get(t.userId)!
      examsAcked += acked.exams.size
      analysesAcked += acked.analyses.size
      const exams = await verify.request('verify: GET exams', `${api}/exams`, { headers: t.headers, timeoutMs: 60_000 })
      const examIds = new Set(((exams.body as { data?: Array<{ id: string }> })?.data ?? []).map((e) => e.id))
      for (const id of acked.exams) if (!examIds.has(id)) missingExams++
      const analyses = await verify.request('verify: GET analyses', `${api}/analyses`, { headers: t.headers, timeoutMs: 60_000 })
      const analysisIds = new Set(((analyses.body as { data?: Array<{ id: string }> })?.data ?? []).map((a) => a.id))
      for (const id of acked.analyses) if (!analysisIds.has(id)) missingAnalyses++
    })
    const verifyFailed = verify.count((s) => s !== '200')
    check(checks, 'verification reads all answered 200', verifyFailed === 0, `${verifyFailed} of ${verify.count(() => true)} failed`)
    const fivexx = rec.count(is5xx)
    const neterr = rec.count((s) => !/^\d+$/.test(s))
    const limited = rec.count((s) => s === '429')
    const unexpected = rec.count((s) => /^\d+$/.test(s) && !is2xx(s) && s !== '429' && !is5xx(s))
    check(checks, 'no 5xx', fivexx === 0, `${fivexx} responses 5xx`)
    check(checks, 'no connection errors or timeouts', neterr === 0, `${neterr}`)
    check(checks, 'no other 4xx than 429', unexpected === 0, `${unexpected} other non-2xx; 429 (rate limits) ×${limited}`)
    check(checks, 'every acknowledged exam save present afterwards', missingExams === 0, `${examsAcked - missingExams}/${examsAcked} found`)
    check(
      checks,
      'every acknowledged upload present afterwards',
      missingAnalyses === 0,
      `${analysesAcked - missingAnalyses}/${analysesAcked} found`,
    )
    check(checks, 'the server stayed up', server.exitCode() === null)
    notes.push(
      `setup requests (not in the table): ${[...setup.ops].map(([op, e]) => `${op} ×${e.ms.length} p50 ${e.ms.toSorted((a, b) => a - b)[Math.floor(e.ms.length / 2)]?.toFixed(0)} ms`).join('; ')}`,
    )
    return {
      name: `1. Mixed load: ${teachers.length} teachers × ${options.seconds} s (PostgreSQL, TRUST_PROXY=true, one X-Forwarded-For per teacher)`,
      recorder: rec,
      checks,
      notes,
    }
  } finally {
    await server.stop()
  }
}
