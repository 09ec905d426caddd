import { createHash, timingSafeEqual } from 'node:crypto'
import client from 'prom-client'

// The process's figures for Prometheus (`GET /metrics`, readable with METRICS_TOKEN): requests by
// route pattern and status with their latencies, the worker pools' queues and task times, the
// database pool, mail and payment-gateway failures, PDF render times, and Node's own (memory,
// CPU, event-loop delay). Labels are route patterns, names of pools, tasks and transports, and
// statuses: never a URL with its ids, an email or anything a teacher typed (the logs' rule).

/** Seconds: from a cached page (a few ms) to a large workbook's upload (tens of seconds). */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]
const TASK_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120]

export type PoolStats = { readonly workers: number; readonly busy: number; readonly queued: number }
export type DatabasePoolStats = { readonly total: number; readonly idle: number; readonly waiting: number }

function createMetrics() {
  const registry = new client.Registry()
  client.collectDefaultMetrics({ register: registry })
  const pools = new Map<string, () => PoolStats | undefined>()
  let databasePool: (() => DatabasePoolStats | undefined) | undefined

  const requests = new client.Counter({
    name: 'hallil_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  })
  const requestSeconds = new client.Histogram({
    name: 'hallil_http_request_duration_seconds',
    help: 'Time from a request reaching the server to its answer being ready, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  })
  const taskSeconds = new client.Histogram({
    name: 'hallil_worker_task_duration_seconds',
    help: 'Time a worker took over one task (reading and analysing an upload, rendering a PDF), by pool, task and outcome.',
    labelNames: ['pool', 'task', 'outcome'] as const,
    buckets: TASK_BUCKETS,
    registers: [registry],
  })
  const pdfSeconds = new client.Histogram({
    name: 'hallil_pdf_render_duration_seconds',
    help: 'Time one PDF or preview render took in its render process, by outcome.',
    labelNames: ['outcome'] as const,
    buckets: TASK_BUCKETS,
    registers: [registry],
  })
  const poolGauge = (name: string, help: string, pick: (stats: PoolStats) => number) =>
    new client.Gauge({
      name,
      help,
      labelNames: ['pool'] as const,
      registers: [registry],
      collect() {
        this.reset()
        for (const [pool, read] of pools) this.set({ pool }, pick(read() ?? { workers: 0, busy: 0, queued: 0 }))
      },
    })
  poolGauge('hallil_worker_pool_queue_length', 'Tasks waiting for a free worker, by pool.', (s) => s.queued)
  poolGauge('hallil_worker_pool_busy', 'Workers running a task, by pool.', (s) => s.busy)
  poolGauge('hallil_worker_pool_workers', 'Workers started (busy or idle), by pool.', (s) => s.workers)
  const databaseGauge = (name: string, help: string, pick: (stats: DatabasePoolStats) => number) =>
    new client.Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const stats = databasePool?.()
        if (stats) this.set(pick(stats))
      },
    })
  databaseGauge(
    'hallil_db_pool_connections_in_use',
    'PostgreSQL connections running a query (absent on the embedded database).',
    (s) => s.total - s.idle,
  )
  databaseGauge('hallil_db_pool_connections_idle', 'PostgreSQL connections open and idle.', (s) => s.idle)
  databaseGauge('hallil_db_pool_waiting', 'Queries waiting for a PostgreSQL connection.', (s) => s.waiting)
  const mail = new client.Counter({
    name: 'hallil_mail_messages_total',
    help: 'Mail messages handed to the transport, by transport and outcome (sent, failed).',
    labelNames: ['transport', 'outcome'] as const,
    registers: [registry],
  })
  const gateway = new client.Counter({
    name: 'hallil_payment_gateway_failures_total',
    help: 'Calls to the payment gateway that failed, by gateway, operation and kind (unavailable, rejected, not_found, invalid_webhook, error).',
    labelNames: ['gateway', 'operation', 'kind'] as const,
    registers: [registry],
  })

  return {
    registry,
    requests,
    requestSeconds,
    taskSeconds,
    pdfSeconds,
    mail,
    gateway,
    pools,
    setDatabasePool(read: (() => DatabasePoolStats | undefined) | undefined) {
      databasePool = read
    },
  }
}

type Metrics = ReturnType<typeof createMetrics>

// One set per process, kept across development's module reloads (a second registration of the
// same name would throw).
const holder = globalThis as unknown as { __hallilMetrics?: Metrics }
const metrics = (): Metrics => (holder.__hallilMetrics ??= createMetrics())

export function observeRequest(request: { method: string; route: string; status: number; seconds: number }) {
  const labels = { method: request.method, route: request.route, status: String(request.status) }
  const m = metrics()
  m.requests.inc(labels)
  m.requestSeconds.observe(labels, request.seconds)
}

export function observeWorkerTask(task: { pool: string; task: string; outcome: 'ok' | 'error'; seconds: number }) {
  metrics().taskSeconds.observe({ pool: task.pool, task: task.task, outcome: task.outcome }, task.seconds)
}

export function observePdfRender(render: { outcome: string; seconds: number }) {
  metrics().pdfSeconds.observe({ outcome: render.outcome }, render.seconds)
}

export function countMail(transport: string, outcome: 'sent' | 'failed') {
  metrics().mail.inc({ transport, outcome })
}

export function countGatewayFailure(failure: { gateway: string; operation: string; kind: string }) {
  metrics().gateway.inc(failure)
}

/** Reports a worker pool's figures at each scrape (`read` answers undefined before the pool starts). */
export function watchWorkerPool(pool: string, read: () => PoolStats | undefined) {
  metrics().pools.set(pool, read)
}

/** Reports the database's connection pool at each scrape (PostgreSQL; PGlite has none). */
export function watchDatabasePool(read: (() => DatabasePoolStats | undefined) | undefined) {
  metrics().setDatabasePool(read)
}

/** The text Prometheus reads. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  const { registry } = metrics()
  return { contentType: registry.contentType, body: await registry.metrics() }
}

/** Whether an Authorization header carries the metrics token, compared in constant time. */
export function hasMetricsToken(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? '')?.[1]
  if (!given) return false
  const digest = (text: string) => createHash('sha256').update(text).digest()
  return timingSafeEqual(digest(given), digest(token))
}
