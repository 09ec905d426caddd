import type { ServerBuild } from 'react-router'
import { describe, expect, it } from 'vitest'
import { closeAnalysisWorkers } from '#app/features/analyses/index.server.ts'
import { gatewayFor } from '#app/features/billing/index.server.ts'
import { createMailer } from '#app/platform/mail.server.ts'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { apiTestApp } from '#tests/api-app.ts'
import { testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { apiHeaders, subscribedTeacher } from '#tests/subscriber.ts'
import { absenceWorkbook } from '#tests/support/absence-workbook.ts'
import { pageRoutePattern } from './http.ts'

// GET /metrics (issue 19): Prometheus's text, for the operator's bearer token only, with routes
// counted by their pattern (never a path with its ids) and the worker pools' figures.

const TOKEN = 'metrics-token-0123456789abcdef'

let app: ReturnType<typeof apiTestApp>
let withoutToken: ReturnType<typeof apiTestApp>
let services: ReturnType<typeof testServices>
const testDb = setupTestDatabase(async (database) => {
  await seedPackages({ db: database.db })
  services = testServices(database, { METRICS_TOKEN: TOKEN })
  app = apiTestApp(services)
  withoutToken = apiTestApp(testServices(database))
})

const scrape = async () => {
  const res = await app.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toContain('text/plain')
  return res.text()
}

/** The value of one sample line, or undefined when the series is absent. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe('/metrics', () => {
  it('answers 404 when no METRICS_TOKEN is set, and 401 without the token or with another', async () => {
    expect((await withoutToken.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404)
    const bare = await app.request('/metrics')
    expect(bare.status).toBe(401)
    expect(bare.headers.get('www-authenticate')).toMatch(/^Bearer/)
    expect((await app.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}x` } })).status).toBe(401)
    expect((await app.request('/metrics', { headers: { authorization: `Basic ${btoa(`x:${TOKEN}`)}` } })).status).toBe(401)
    expect((await app.request(`/metrics?token=${TOKEN}`)).status).toBe(401)
  })

  it('counts requests by route pattern and status, with latency histograms; ids and emails never appear', async () => {
    const user = await subscribedTeacher(testDb().db)
    const headers = await apiHeaders(testDb().db, services.env.SESSION_SECRET, user.id)
    const missing = '0f0e0d0c-0000-4000-8000-00000000abcd'
    const before = await scrape()
    const series = 'hallil_http_requests_total{method="GET",route="/api/v1/exams/:id",status="404"}'
    const count = sample(before, series) ?? 0
    for (let i = 0; i < 3; i++) expect((await app.request(`/api/v1/exams/${missing}`, { headers })).status).toBe(404)
    expect((await app.request('/api/v1/exams', { headers })).status).toBe(200)
    expect((await app.request('/healthz')).status).toBe(200)
    expect((await app.request('/api/v1/no-such-thing/123', { headers })).status).toBe(404)

    const text = await scrape()
    expect(sample(text, series)).toBe(count + 3)
    expect(sample(text, 'hallil_http_requests_total{method="GET",route="/api/v1/exams",status="200"}')).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'hallil_http_requests_total{method="GET",route="/healthz",status="200"}')).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'hallil_http_requests_total{method="GET",route="unmatched",status="404"}')).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'hallil_http_request_duration_seconds_count{method="GET",route="/api/v1/exams/:id",status="404"}')).toBe(count + 3)
    expect(text).toMatch(
      /hallil_http_request_duration_seconds_bucket\{le="0\.1",method="GET",route="\/api\/v1\/exams\/:id",status="404"\} \d+/,
    )
    // No id, no email, no raw path.
    expect(text).not.toContain(missing)
    expect(text).not.toContain(user.email)
    expect(text).not.toContain('no-such-thing')
    // Node's own figures come too.
    expect(text).toContain('process_resident_memory_bytes')
    expect(text).toContain('nodejs_eventloop_lag_seconds')
  })

  it('reports the analysis workers: queue length, busy workers and the time of each task', async () => {
    const user = await subscribedTeacher(testDb().db)
    const headers = await apiHeaders(testDb().db, services.env.SESSION_SECRET, user.id)
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(absenceWorkbook({ rows: 200 }).data)]), 'report.xlsx')
    try {
      const res = await app.request('/api/v1/analyses/absence', { method: 'POST', headers, body: form })
      expect(res.status).toBe(201)
      const text = await scrape()
      expect(text).toMatch(/^hallil_worker_task_duration_seconds_count\{pool="analysis",task="[\w-]+",outcome="ok"\} [1-9]\d*$/m)
      expect(sample(text, 'hallil_worker_pool_queue_length{pool="analysis"}')).toBe(0)
      expect(sample(text, 'hallil_worker_pool_busy{pool="analysis"}')).toBe(0)
      expect(sample(text, 'hallil_http_requests_total{method="POST",route="/api/v1/analyses/absence",status="201"}')).toBe(1)
      // The PDF pool is reported before its first render (no processes yet).
      expect(sample(text, 'hallil_worker_pool_workers{pool="pdf"}')).toBe(0)
    } finally {
      await closeAnalysisWorkers()
    }
  }, 60_000)
})

describe('mail and payment-gateway failures', () => {
  it('counts mail sent and failed by transport, and the gateway’s failed calls by operation and kind', async () => {
    const before = await scrape()
    const sent = 'hallil_mail_messages_total{transport="outbox",outcome="sent"}'
    const failed = 'hallil_mail_messages_total{transport="smtp",outcome="failed"}'
    const forged = 'hallil_payment_gateway_failures_total{gateway="sandbox",operation="verifyWebhook",kind="invalid_webhook"}'
    await services.mailer.send({ to: 'teacher@school.sa', subject: 's', text: 't', html: '<p>t</p>', lang: 'en' })
    // An SMTP server that is not there (a closed port on loopback).
    const down = createMailer({
      smtpUrl: 'smtp://127.0.0.1:9/?tls=off',
      from: services.env.MAIL_FROM,
      outboxDir: services.env.MAIL_OUTBOX_DIR,
      logger: services.logger,
    })
    await expect(down.send({ to: 'teacher@school.sa', subject: 's', text: 't', html: '<p>t</p>', lang: 'en' })).rejects.toThrow(
      /ECONNREFUSED/,
    )
    const gateway = gatewayFor({ db: testDb().db, env: services.env, logger: services.logger })
    expect(() => gateway.verifyWebhook('not json', new Headers())).toThrow('webhook is not JSON')
    const text = await scrape()
    expect(sample(text, sent)).toBe((sample(before, sent) ?? 0) + 1)
    expect(sample(text, failed)).toBe((sample(before, failed) ?? 0) + 1)
    expect(sample(text, forged)).toBe((sample(before, forged) ?? 0) + 1)
    expect(text).not.toContain('teacher@school.sa')
  })
})

describe('a page is counted under its React Router pattern', () => {
  const build = {
    routes: {
      root: { id: 'root', path: '' },
      'routes/lang': { id: 'routes/lang', parentId: 'root', path: ':lang' },
      'routes/layouts/default': { id: 'routes/layouts/default', parentId: 'routes/lang' },
      'routes/home': { id: 'routes/home', parentId: 'routes/layouts/default', index: true },
      'routes/invoice': { id: 'routes/invoice', parentId: 'routes/layouts/default', path: 'invoices/:invoiceId' },
      'routes/exams-print': { id: 'routes/exams-print', parentId: 'routes/layouts/default', path: 'exams/:examId/print' },
    },
  } as unknown as ServerBuild

  it('names the pattern, with `.data` for a page’s data, and nothing for a path no page has', () => {
    expect(pageRoutePattern(build, '/ar/invoices/5c1b7d1e-1111-4222-8333-444455556666')).toBe('/:lang/invoices/:invoiceId')
    expect(pageRoutePattern(build, '/en/exams/abc/print.data')).toBe('/:lang/exams/:examId/print.data')
    expect(pageRoutePattern(build, '/ar')).toBe('/:lang')
    expect(pageRoutePattern(build, '/ar/no/such/page')).toBeUndefined()
  })
})
