// Shared pieces of the load and fault scenarios (npm run test:load): a built server on a fresh
// data folder and a fresh PostgreSQL database, a request recorder, teachers made through the API.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { simpleParser } from 'mailparser'
import pg from 'pg'
import { sampleExamBody } from '../../tests/support/exam-body.ts'
import { startServer as startBuiltServer, type ServerProcess } from '../../tests/support/server-process.ts'

/** The cluster every scenario makes its own database in (trust auth on loopback). */
export const ADMIN_DATABASE_URL = process.env.LOAD_DATABASE_URL ?? 'postgresql://root@127.0.0.1:5432/test'
export const REQUEST_TIMEOUT_MS = 15_000

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

// ---------------------------------------------------------------- the server

export type LoadServer = ServerProcess & { databaseUrl: string }

/** The built server (node server.js) on loopback, its own data folder and PostgreSQL database. */
export async function startServer(options: { name: string; port: number; env?: Record<string, string> }): Promise<LoadServer> {
  const server = await startBuiltServer({
    name: `load-${options.name}`,
    port: options.port,
    hostname: '127.0.0.1',
    database: 'postgres',
    adminDatabaseUrl: ADMIN_DATABASE_URL,
    startTimeoutMs: 60_000,
    env: {
      NODE_ENV: 'production',
      PAYMENT_GATEWAY: 'sandbox',
      SELLER_VAT_NUMBER: '300000000000003',
      SESSION_SECRET: 'load-test-session-secret-0123456789abcdef',
      LOG_LEVEL: 'error',
      SMTP_URL: '',
      ...options.env,
    },
  })
  return server as LoadServer
}

// ---------------------------------------------------------------- the recorder

export type Outcome = { status: number | string; ms: number; body?: unknown; headers?: Headers }

/** Every request of a scenario: by operation, its durations and statuses. */
export class Recorder {
  readonly ops = new Map<string, { ms: number[]; statuses: Map<string, number> }>()
  started = performance.now()
  ended = 0

  record(op: string, status: number | string, ms: number) {
    let entry = this.ops.get(op)
    if (!entry) this.ops.set(op, (entry = { ms: [], statuses: new Map() }))
    entry.ms.push(ms)
    const key = String(status)
    entry.statuses.set(key, (entry.statuses.get(key) ?? 0) + 1)
  }

  count(predicate: (status: string) => boolean, op?: string) {
    let n = 0
    for (const [name, entry] of this.ops) {
      if (op && name !== op) continue
      for (const [status, c] of entry.statuses) if (predicate(status)) n += c
    }
    return n
  }

  finish() {
    this.ended = performance.now()
  }

  /** A JSON request (or multipart when `form` is given), timed, never throwing. */
  async request(
    op: string,
    url: string,
    init: {
      method?: string
      headers?: Record<string, string>
      json?: unknown
      form?: FormData
      /** A body already encoded (a web form), its content-type among `headers`. */
      body?: string
      redirect?: RequestRedirect
      timeoutMs?: number
    } = {},
  ): Promise<Outcome> {
    const headers: Record<string, string> = { accept: 'application/json', ...init.headers }
    let body: BodyInit | undefined
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(init.json)
    } else if (init.form) body = init.form
    else if (init.body !== undefined) body = init.body
    const start = performance.now()
    try {
      const response = await fetch(url, {
        method: init.method ?? (body ? 'POST' : 'GET'),
        headers,
        body,
        redirect: init.redirect ?? 'manual',
        signal: AbortSignal.timeout(init.timeoutMs ?? REQUEST_TIMEOUT_MS),
      })
      const text = await response.text()
      const ms = performance.now() - start
      let parsed: unknown = text
      if ((response.headers.get('content-type') ?? '').includes('json')) {
        try {
          parsed = JSON.parse(text)
        } catch {
          parsed = text
        }
      }
      // A load balancer's own answer (scripts/load/proxy.ts: the backend dropped the request) is
      // not the server's: it is counted under its own name.
      const proxyError = response.headers.get('x-proxy-error')
      const status = proxyError ? `proxy:${proxyError}` : response.status
      this.record(op, status, ms)
      return { status, ms, body: parsed, headers: response.headers }
    } catch (error) {
      const ms = performance.now() - start
      const name = (error as { name?: string }).name
      const code = name === 'TimeoutError' ? 'timeout' : ((error as { cause?: { code?: string } }).cause?.code ?? 'neterr')
      this.record(op, code, ms)
      return { status: code, ms }
    }
  }
}

// ---------------------------------------------------------------- checks and the table

export type Check = { name: string; ok: boolean; detail: string }

export type ScenarioResult = { name: string; recorder: Recorder; checks: Check[]; notes: string[] }

export function check(checks: Check[], name: string, ok: boolean, detail = '') {
  checks.push({ name, ok, detail })
}

function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return 0
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)
  return sorted[Math.max(0, index)] ?? 0
}

export function printResult(result: ScenarioResult) {
  const { recorder } = result
  const seconds = ((recorder.ended || performance.now()) - recorder.started) / 1000
  const rows = [['operation', 'requests', 'rate/s', 'p50 ms', 'p99 ms', 'statuses']]
  let total = 0
  for (const [op, entry] of recorder.ops) {
    const sorted = entry.ms.toSorted((a, b) => a - b)
    total += sorted.length
    const statuses = [...entry.statuses]
      .toSorted(([a], [b]) => a.localeCompare(b))
      .map(([s, n]) => `${s}×${n}`)
      .join(' ')
    rows.push([
      op,
      String(sorted.length),
      (sorted.length / seconds).toFixed(1),
      percentile(sorted, 50).toFixed(0),
      percentile(sorted, 99).toFixed(0),
      statuses,
    ])
  }
  rows.push(['(all)', String(total), (total / seconds).toFixed(1), '', '', `${seconds.toFixed(1)} s`])
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)))
  const line = (r: string[]) =>
    `  ${r.map((cell, i) => (i === 0 || i === r.length - 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')}`
  console.log(`\n== ${result.name}`)
  console.log(line(rows[0]!))
  console.log(`  ${widths.map((w) => '-'.repeat(w)).join('  ')}`)
  for (const row of rows.slice(1)) console.log(line(row))
  console.log('')
  for (const c of result.checks) console.log(`  ${c.ok ? 'PASS' : 'FAIL'}  ${c.name}${c.detail ? ` — ${c.detail}` : ''}`)
  for (const note of result.notes) console.log(`  note: ${note}`)
}

// ---------------------------------------------------------------- teachers

export type Teacher = { email: string; password: string; ip: string; token: string; userId: string; headers: Record<string, string> }

/** A school's own address for teacher n (10.x.y.z), sent as X-Forwarded-For. */
export const schoolIp = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255 || 1}`

export const PASSWORD = 'Qalam-Sabbora-2026!'

export function registrationBody(tag: string, n: number) {
  return {
    username: `load ${tag} ${n}`,
    email: `load.${tag}.${n}@school.sa`,
    phone: '+966551234567',
    password: PASSWORD,
    password_confirmation: PASSWORD,
    terms: true,
  }
}

/** The newest code in an outbox for every address (one pass over the .eml files). */
export async function outboxCodes(outbox: string): Promise<Map<string, string>> {
  const codes = new Map<string, { code: string; at: number }>()
  let files: string[] = []
  try {
    files = readdirSync(outbox).filter((f) => f.endsWith('.eml'))
  } catch {
    return new Map()
  }
  for (const file of files) {
    const mail = await simpleParser(readFileSync(path.join(outbox, file)))
    const to = (Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(',') : (mail.to?.text ?? '')).toLowerCase()
    const code = /\b(\d{6})\b/.exec(mail.text ?? '')?.[1]
    const at = mail.date?.getTime() ?? 0
    if (!code) continue
    const previous = codes.get(to)
    if (!previous || previous.at <= at) codes.set(to, { code, at })
  }
  return new Map([...codes].map(([to, v]) => [to, v.code]))
}

/** Runs `fn` over items with at most `limit` at a time. */
export async function pool<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = Array.from({ length: items.length }) as R[]
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      for (;;) {
        const i = next++
        if (i >= items.length) return
        results[i] = await fn(items[i] as T, i)
      }
    }),
  )
  return results
}

/**
 * Teachers registered and activated through the API (codes read from the outbox), each from
 * its own school address. Throws when any step fails: setup is not what is measured.
 */
export async function registerTeachers(server: LoadServer, rec: Recorder, tag: string, count: number, firstIp = 1): Promise<Teacher[]> {
  const api = `${server.url}/api/v1`
  const indexes = Array.from({ length: count }, (_, i) => i)
  await pool(indexes, 16, async (i) => {
    const body = registrationBody(tag, i)
    const res = await rec.request('setup: POST auth/register', `${api}/auth/register`, {
      json: body,
      headers: { 'accept-language': 'en', 'x-forwarded-for': schoolIp(firstIp + i) },
      timeoutMs: 60_000,
    })
    if (res.status !== 201) throw new Error(`register ${body.email}: ${res.status} ${JSON.stringify(res.body)}`)
  })
  const codes = await outboxCodes(server.outbox)
  return pool(indexes, 16, async (i) => {
    const { email } = registrationBody(tag, i)
    const code = codes.get(email)
    if (!code) throw new Error(`no activation code in the outbox for ${email}`)
    const ip = schoolIp(firstIp + i)
    const res = await rec.request('setup: POST auth/activate', `${api}/auth/activate`, {
      json: { email, code },
      headers: { 'accept-language': 'en', 'x-forwarded-for': ip },
      timeoutMs: 60_000,
    })
    const data = (res.body as { data?: { token?: string; user?: { id?: string } } })?.data
    if (res.status !== 200 || !data?.token || !data.user?.id)
      throw new Error(`activate ${email}: ${res.status} ${JSON.stringify(res.body)}`)
    return {
      email,
      password: PASSWORD,
      ip,
      token: data.token,
      userId: data.user.id,
      headers: { authorization: `Bearer ${data.token}`, 'accept-language': 'en', 'x-forwarded-for': ip },
    }
  })
}

/**
 * A current subscription for each teacher, written straight into the scenario's PostgreSQL
 * database (a paid sandbox payment and its subscription, as tests/subscriber.ts does): the
 * payment journeys are scenario 4's; here they would only slow the setup.
 */
export async function subscribeDirectly(databaseUrl: string, userIds: string[]) {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const pkg = (
      await client.query<{ id: number; price_halalas: number; months: number }>(
        'select id, price_halalas, months from packages where is_active order by id limit 1',
      )
    ).rows[0]
    if (!pkg) throw new Error('no package seeded')
    const vat = Math.round((pkg.price_halalas * 15) / 100)
    await client.query('begin')
    for (const userId of userIds) {
      const payment = await client.query<{ id: string }>(
        `insert into payments (user_id, package_id, gateway, method, price, vat_rate_bp, vat, total, status, settled_at)
         values ($1, $2, 'sandbox', 'mada', $3, 1500, $4, $5, 'paid', now()) returning id`,
        [userId, pkg.id, pkg.price_halalas, vat, pkg.price_halalas + vat],
      )
      await client.query(
        `insert into subscriptions (user_id, package_id, payment_id, starts_at, ends_at) values ($1, $2, $3, now() - interval '1 day', now() + interval '30 days')`,
        [userId, pkg.id, payment.rows[0]!.id],
      )
    }
    await client.query('commit')
  } finally {
    await client.end()
  }
}

/** An exam body (every question type), titled so each save can be told apart. */
/** A test to save, as the editor sends it (the tests' own sample, titled). */
export function examBody(title: string) {
  return sampleExamBody({ title })
}

export const is5xx = (status: string) => /^5\d\d$/.test(status)
export const is2xx = (status: string) => /^2\d\d$/.test(status)
