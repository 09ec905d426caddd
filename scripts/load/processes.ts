// Scenario 6: many processes, proven (issue 19). Three built servers (`node server.js`) on ONE
// fresh PostgreSQL database, files in it (the database store: DATABASE_URL and no
// FILE_STORE_URL, docs/decisions/017), behind a round-robin proxy on loopback (proxy.ts) that
// every request and the sandbox gateway's webhooks go through (APP_URL is the proxy's).
// Teachers register on one process and activate on another, log in on one and continue on the
// others, pay through the sandbox (the webhook answered by one process, the payer's return by
// another), save tests, upload question images (read back at once through another process) and
// absence workbooks. A third of the way in, one process is killed with SIGKILL and started
// again. Then every acknowledged write is read back through a process other than the one that
// acknowledged it, and the books are checked in the database.
//
// `npm run test:load -- processes` runs it at full size; scripts/load/processes.processes.test.ts
// runs it small in the test suite's PostgreSQL pass. One module, two sizes.
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import sharp from 'sharp'
import { createDatabaseBeside, root, startServer, type ServerProcess } from '../../tests/support/server-process.ts'
import {
  ADMIN_DATABASE_URL,
  check,
  examBody,
  is5xx,
  outboxCodes,
  PASSWORD,
  pool,
  Recorder,
  registrationBody,
  schoolIp,
  sleep,
  type Check,
  type Outcome,
  type ScenarioResult,
} from './lib.ts'
import { startRoundRobinProxy, type ProxiedRequest } from './proxy.ts'

/** The per-account login limit (app/features/accounts/sign-in.server.ts): 10 tries, the 11th refused. */
const FIRST_REFUSED_LOGIN = 11
const PROCESSES = 3
/** The process killed and started again. */
const VICTIM = 1

export type ManyProcessesOptions = {
  /** Teachers who register, pay before the work starts and then work. */
  readonly teachers: number
  /** Teachers who pay during the work, spread across the kill, and do nothing else. */
  readonly latePayers: number
  /** How long the work lasts (longer if the killed process is not back 3 s before the end). */
  readonly seconds: number
  /** The proxy's port, then the three processes'. */
  readonly ports: readonly [number, number, number, number]
  /** The cluster the run's database is made in; dropped afterwards. */
  readonly adminDatabaseUrl?: string
  /** How long the killed process stays down before it is started again. */
  readonly downSeconds?: number
  /** Progress lines (the load command prints them; the test keeps quiet). */
  readonly log?: (line: string) => void
}

type Sent = Outcome & { by: number }

type Teacher = {
  n: number
  email: string
  ip: string
  registeredBy: number
  activatedBy: number
  loggedInBy: number
  token: string
  cookie: string
  api: Record<string, string>
}

type Payment = { teacher: number; paymentId: string; sandboxId: string; confirmedBy: number; returnedBy: number | null; late: boolean }

const other = (by: number, step = 1) => (by + step) % PROCESSES
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

export async function manyProcesses(options: ManyProcessesOptions): Promise<ScenarioResult> {
  const log = options.log ?? (() => {})
  const rec = new Recorder()
  const checks: Check[] = []
  const notes: string[] = []
  const unexpected: string[] = []
  const [proxyPort, ...ports] = options.ports
  const adminUrl = options.adminDatabaseUrl ?? ADMIN_DATABASE_URL
  const downSeconds = options.downSeconds ?? 2
  const database = await createDatabaseBeside(adminUrl, 'hallil_load_processes')
  const outbox = mkdtempSync(path.join(tmpdir(), 'hallil-processes-outbox-'))
  const webhooks = new Map<string, { by: number; status: number | string }>()
  const proxy = await startRoundRobinProxy({
    port: proxyPort,
    backends: ports,
    onAnswered: (request: ProxiedRequest) => {
      if (!request.url.startsWith('/api/v1/payments/webhook/')) return
      try {
        const id = (JSON.parse(request.body.toString()) as { data?: { id?: string } }).data?.id
        if (id) webhooks.set(id, { by: request.servedBy, status: request.status })
      } catch {
        // not an event: the app refuses it, nothing to match
      }
    },
  })
  const base = proxy.url
  const env = {
    NODE_ENV: 'production',
    APP_URL: base,
    PAYMENT_GATEWAY: 'sandbox',
    SELLER_VAT_NUMBER: '300000000000003',
    SESSION_SECRET: 'processes-load-session-secret-0123456789abcdef',
    LOG_LEVEL: 'error',
    SMTP_URL: '',
    FILE_STORE_URL: '',
    // One outbox for the three, where a deployment would have one SMTP server.
    MAIL_OUTBOX_DIR: outbox,
    ANALYSIS_UPLOADS_PER_HOUR: '10000',
  }
  const start = (i: number) =>
    startServer({
      name: `load-processes-${i}`,
      port: ports[i],
      hostname: '127.0.0.1',
      database: { url: database.url },
      startTimeoutMs: 90_000,
      env,
    })
  const servers: Array<ServerProcess | null> = [null, null, null]
  const db = new pg.Client({ connectionString: database.url })
  try {
    // All three at once on the empty database: migrations and the seed run under their lock.
    const bootStart = performance.now()
    await Promise.all([0, 1, 2].map(async (i) => (servers[i] = await start(i))))
    notes.push(
      `three processes started at once on one empty database in ${((performance.now() - bootStart) / 1000).toFixed(1)} s (ports ${ports.join(', ')}, proxy ${proxyPort})`,
    )
    await db.connect()
    rec.started = performance.now()
    const t = () => ((performance.now() - rec.started) / 1000).toFixed(1)

    /** A request through the proxy, to the next process or to process `to`; an answer other than `expect` is listed. */
    const send = async (
      op: string,
      pathname: string,
      init: Parameters<Recorder['request']>[2] & { to?: number | string; expect?: number | readonly number[] } = {},
    ): Promise<Sent> => {
      const headers = { ...init.headers, ...(init.to === undefined ? {} : { 'x-route-to': String(init.to) }) }
      const answer = await rec.request(op, `${base}${pathname}`, { timeoutMs: 60_000, ...init, headers })
      const by = Number(answer.headers?.get('x-served-by') ?? -1)
      const wanted = init.expect === undefined ? [] : typeof init.expect === 'number' ? [init.expect] : init.expect
      if (typeof answer.status === 'number' && wanted.length > 0 && !wanted.includes(answer.status))
        unexpected.push(`${op}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 160)}`)
      return { ...answer, by }
    }
    const dropped = (s: Sent) => typeof s.status !== 'number'
    /** The other two processes than `by`, for `x-route-to`: the proxy passes a stopped one over to the next named. */
    const elsewhere = (by: number) => `${other(by)},${other(by, 2)}`
    /** A web form's body, as the browser posts it (same origin). */
    const formPost = (fields: Record<string, string>) => ({
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
    })
    const formHeaders = { origin: base, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' }
    /** A file read through the proxy (process `to`), timed and recorded; its bytes when 200. */
    const readBytes = async (op: string, pathname: string, headers: Record<string, string>, to: number | string) => {
      const started = performance.now()
      try {
        const answer = await fetch(`${base}${pathname}`, {
          headers: { ...headers, 'x-route-to': String(to) },
          signal: AbortSignal.timeout(60_000),
        })
        const bytes = new Uint8Array(await answer.arrayBuffer())
        const proxyError = answer.headers.get('x-proxy-error')
        rec.record(op, proxyError ? `proxy:${proxyError}` : answer.status, performance.now() - started)
        if (!proxyError && answer.status !== 200) unexpected.push(`${op}: ${answer.status}`)
        return {
          by: Number(answer.headers.get('x-served-by') ?? -1),
          dropped: proxyError !== null,
          bytes: answer.status === 200 ? bytes : null,
        }
      } catch (error) {
        rec.record(op, (error as { name?: string }).name === 'TimeoutError' ? 'timeout' : 'neterr', performance.now() - started)
        return { by: -1, dropped: true, bytes: null }
      }
    }

    // ------------------------------------------------------------ registering and signing in
    const total = options.teachers + options.latePayers
    const teachers: Teacher[] = []
    await pool(
      Array.from({ length: total }, (_, n) => n),
      8,
      async (n) => {
        const body = registrationBody('proc', n)
        const ip = schoolIp(7000 + n)
        const registered = await send('POST auth/register', '/api/v1/auth/register', {
          json: body,
          headers: { 'accept-language': 'en', 'x-forwarded-for': ip },
          expect: 201,
        })
        if (registered.status !== 201) throw new Error(`register ${body.email}: ${registered.status}`)
        teachers[n] = {
          n,
          email: body.email,
          ip,
          registeredBy: registered.by,
          activatedBy: -1,
          loggedInBy: -1,
          token: '',
          cookie: '',
          api: {},
        }
      },
    )
    const codes = await outboxCodes(outbox)
    await pool(teachers, 8, async (teacher) => {
      const code = codes.get(teacher.email)
      if (!code) throw new Error(`no activation code in the outbox for ${teacher.email}`)
      // Activated through another process than the one it registered on.
      const activated = await send('POST auth/activate', '/api/v1/auth/activate', {
        json: { email: teacher.email, code },
        headers: { 'accept-language': 'en', 'x-forwarded-for': teacher.ip },
        to: other(teacher.registeredBy),
        expect: 200,
      })
      const token = (activated.body as { data?: { token?: string } })?.data?.token
      if (!token) throw new Error(`activate ${teacher.email}: ${activated.status}`)
      teacher.activatedBy = activated.by
      teacher.token = token
      teacher.api = { authorization: `Bearer ${token}`, 'accept-language': 'en', 'x-forwarded-for': teacher.ip }
      // The web login (a form post, as the browser sends it).
      const login = await send('POST /en/login (form)', '/en/login', {
        ...formPost({ email: teacher.email, password: PASSWORD }),
        headers: { ...formHeaders, 'x-forwarded-for': teacher.ip },
        expect: 302,
      })
      teacher.cookie =
        login.headers
          ?.getSetCookie()
          .map((c) => c.split(';')[0])
          .filter((c) => c && !c.endsWith('='))
          .join('; ') ?? ''
      teacher.loggedInBy = login.by
      if (login.status !== 302 || !teacher.cookie) throw new Error(`web login of ${teacher.email}: ${login.status}`)
    })
    log(`  ${t()} s: ${total} teachers registered, activated and signed in`)

    // ------------------------------------------------------------ sessions work on every process
    let sessionChecks = 0
    let sessionFailures = 0
    await pool(teachers, 8, async (teacher) => {
      for (const step of [1, 2]) {
        const page = await send('GET /en/profile (web session elsewhere)', '/en/profile', {
          headers: { cookie: teacher.cookie, 'x-forwarded-for': teacher.ip, accept: 'text/html' },
          to: other(teacher.loggedInBy, step),
          expect: 200,
        })
        const profile = await send('GET auth/profile (token elsewhere)', '/api/v1/auth/profile', {
          headers: teacher.api,
          to: other(teacher.activatedBy, step),
          expect: 200,
        })
        sessionChecks += 2
        if (page.status !== 200 || page.by === teacher.loggedInBy) sessionFailures++
        if (profile.status !== 200 || profile.by === teacher.activatedBy) sessionFailures++
      }
    })
    check(
      checks,
      'sessions shared: a web session and an API token from one process work on the other two',
      sessionFailures === 0,
      `${sessionChecks - sessionFailures}/${sessionChecks} answered 200 by another process than the one that signed in`,
    )

    // ------------------------------------------------------------ the login limit, counted across processes
    const failedLogins = async (tag: string, to?: number) => {
      const statuses: number[] = []
      const by = new Set<number>()
      for (let i = 1; i <= FIRST_REFUSED_LOGIN + 1; i++) {
        const answer = await send(`POST auth/login (wrong password, ${tag})`, '/api/v1/auth/login', {
          json: { email: `limit.${tag}@school.sa`, password: 'Not-The-Password-7' },
          headers: { 'accept-language': 'en', 'x-forwarded-for': schoolIp(9000 + (to ?? 9)) },
          to,
          expect: [401, 429],
        })
        statuses.push(typeof answer.status === 'number' ? answer.status : 0)
        by.add(answer.by)
      }
      return { first429: statuses.indexOf(429) + 1, by: [...by].toSorted() }
    }
    const spread = await failedLogins('spread')
    const single = await failedLogins('single', 0)
    check(
      checks,
      `rate limits shared: wrong passwords spread over the processes are refused from the same try as on one (the ${FIRST_REFUSED_LOGIN}th)`,
      spread.first429 === FIRST_REFUSED_LOGIN && single.first429 === FIRST_REFUSED_LOGIN && spread.by.length === PROCESSES,
      `first 429 at try ${spread.first429} over processes ${spread.by.join(',')}, at try ${single.first429} on process 0 alone`,
    )

    // ------------------------------------------------------------ paying through the sandbox
    const packages = await send('GET packages', '/api/v1/packages', { headers: { 'accept-language': 'en' }, expect: 200 })
    const packageId = ((packages.body as { data?: Array<{ id: number }> })?.data ?? [])[0]?.id
    if (!packageId) throw new Error('no package')
    const payments: Payment[] = []
    const expiry = `12/${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0')}`
    /** One step of a payer, tried again once if the process it reached was killed under it. */
    const step = async (run: () => Promise<Sent>) => {
      const first = await run()
      if (!dropped(first)) return first
      await sleep(500)
      return run()
    }
    /**
     * A teacher's payment as the browser makes it: checkout (API), the sandbox's card and 3-D
     * Secure pages (web session), then the return. `wait`: the return goes, once the webhook
     * has been answered, to another process than the one that answered it.
     */
    const pay = async (teacher: Teacher, late: boolean, wait: boolean) => {
      const web = { ...formHeaders, cookie: teacher.cookie, 'x-forwarded-for': teacher.ip }
      const checkout = await step(() =>
        send('POST subscriptions (checkout)', '/api/v1/subscriptions', {
          json: { package_id: packageId, method: 'mada' },
          headers: teacher.api,
          expect: 201,
        }),
      )
      const data = (checkout.body as { data?: { payment_id?: string; payment_url?: string } })?.data
      if (!data?.payment_id || !data.payment_url) throw new Error(`checkout of ${teacher.email}: ${checkout.status}`)
      const sandboxId = new URL(data.payment_url).searchParams.get('id') ?? ''
      const page = `/en/sandbox-pay?id=${encodeURIComponent(sandboxId)}`
      const card = { intent: 'card', number: '4111 1111 1111 1111', name: 'NOURA ALQAHTANI', expiry, cvc: '123' }
      // A step tried again that answers 404 had gone through the first time (the page moved on).
      const again = late ? [302, 404] : 302
      await step(() => send('POST /en/sandbox-pay (card)', page, { ...formPost(card), headers: web, expect: again }))
      const confirmed = await step(() =>
        send('POST /en/sandbox-pay (3-D Secure)', page, { ...formPost({ intent: 'confirm' }), headers: web, expect: again }),
      )
      const location = confirmed.headers?.get('location')
      const back = location
        ? new URL(location, base)
        : new URL(`${base}/en/payments/callback?id=${encodeURIComponent(sandboxId)}&status=paid&message=APPROVED`)
      let to: number | string | undefined
      if (wait) {
        const until = Date.now() + 10_000
        while (!webhooks.has(sandboxId) && Date.now() < until) await sleep(50)
        const hook = webhooks.get(sandboxId)
        if (hook) to = elsewhere(hook.by)
      }
      const returned = await step(() =>
        send('GET /en/payments/callback (payer returns)', `${back.pathname}${back.search}`, {
          headers: { cookie: teacher.cookie, 'x-forwarded-for': teacher.ip, accept: 'text/html' },
          to,
          expect: 302,
        }),
      )
      payments.push({
        teacher: teacher.n,
        paymentId: data.payment_id,
        sandboxId,
        confirmedBy: confirmed.by,
        returnedBy: dropped(returned) ? null : returned.by,
        late,
      })
    }
    const workers = teachers.slice(0, options.teachers)
    const latePayers = teachers.slice(options.teachers)
    // Half the returns race the webhook, half wait for it and go to another process.
    await pool(workers, 6, (teacher) => pay(teacher, false, teacher.n % 2 === 0))
    log(`  ${t()} s: ${workers.length} teachers paid`)

    // ------------------------------------------------------------ the work, with a kill in the middle
    const workbook = readFileSync(path.join(root, 'app/features/absence/fixtures/small-ar.xlsx'))
    const acked = {
      exams: [] as Array<{ id: string; title: string; by: number; teacher: Teacher }>,
      images: [] as Array<{ id: string; by: number; sha: string | null; teacher: Teacher }>,
      analyses: [] as Array<{ id: string; by: number; teacher: Teacher }>,
    }
    let imageReadsElsewhere = 0
    let imageReadFailures = 0
    let imageReadsDropped = 0
    const workStart = performance.now()
    let deadline = Date.now() + options.seconds * 1000
    const kill = {
      at: 0,
      inFlight: 0,
      readyAfter: 0,
      servedBefore: 0,
      startTook: 0,
    }
    const killer = (async () => {
      await sleep(options.seconds * 1000 * 0.35)
      const victim = servers[VICTIM]!
      // In flight: what it held when the signal was sent, and what reached it until it was gone
      // (the kernel still accepts connections on its socket until the process has died).
      const heldAtKill = proxy.inFlight[VICTIM]!
      const sentAtKill = proxy.sent[VICTIM]!
      kill.at = performance.now()
      victim.child.kill('SIGKILL')
      await new Promise((resolve) =>
        victim.exitCode() === null && victim.child.signalCode === null ? victim.child.once('exit', resolve) : resolve(null),
      )
      kill.inFlight = heldAtKill + proxy.sent[VICTIM]! - sentAtKill
      log(`  ${t()} s: process ${VICTIM} killed (SIGKILL) with ${kill.inFlight} requests in flight`)
      await victim.stop() // its data folder; the shared database stays
      servers[VICTIM] = null
      await sleep(downSeconds * 1000)
      const startedAgain = performance.now()
      servers[VICTIM] = await start(VICTIM)
      kill.startTook = performance.now() - startedAgain
      kill.readyAfter = performance.now() - kill.at
      kill.servedBefore = proxy.served[VICTIM]!
      log(`  ${t()} s: process ${VICTIM} answering again, ${(kill.readyAfter / 1000).toFixed(1)} s after the kill`)
      deadline = Math.max(deadline, Date.now() + 3000)
    })()
    const work = async (teacher: Teacher) => {
      let i = 0
      await sleep(Math.random() * 500)
      while (Date.now() < deadline) {
        i++
        const roll = Math.random()
        if (roll < 0.3) {
          const title = `processes ${teacher.n}.${i}`
          const saved = await send('POST exams (save)', '/api/v1/exams', { json: examBody(title), headers: teacher.api, expect: 201 })
          const id = (saved.body as { data?: { id?: string } })?.data?.id
          if (saved.status === 201 && id) acked.exams.push({ id, title, by: saved.by, teacher })
        } else if (roll < 0.45) {
          const picture = await sharp({
            create: { width: 40 + (i % 60), height: 30, channels: 3, background: { r: teacher.n % 256, g: i % 256, b: 77 } },
          })
            .png()
            .toBuffer()
          const body = new FormData()
          body.set('file', new Blob([new Uint8Array(picture)], { type: 'image/png' }), 'question.png')
          const stored = await send('POST uploads/images', '/api/v1/uploads/images', { form: body, headers: teacher.api, expect: 201 })
          const id = (stored.body as { data?: { id?: string } })?.data?.id
          if (stored.status !== 201 || !id) continue
          // Read at once through another process than the one that stored it.
          const read = await readBytes(
            'GET uploads/images/{id} (at once, elsewhere)',
            `/api/v1/uploads/images/${id}`,
            teacher.api,
            elsewhere(stored.by),
          )
          if (read.bytes && read.by !== stored.by) imageReadsElsewhere++
          else if (read.dropped) imageReadsDropped++
          else imageReadFailures++
          acked.images.push({ id, by: stored.by, sha: read.bytes ? sha256(read.bytes) : null, teacher })
        } else if (roll < 0.55) {
          const body = new FormData()
          body.set(
            'file',
            new Blob([workbook], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }),
            'small-ar.xlsx',
          )
          const uploaded = await send('POST analyses/absence (upload)', '/api/v1/analyses/absence', {
            form: body,
            headers: teacher.api,
            expect: 201,
          })
          const id = (uploaded.body as { data?: { id?: string } })?.data?.id
          if (uploaded.status === 201 && id) acked.analyses.push({ id, by: uploaded.by, teacher })
        } else if (roll < 0.7) {
          await send('GET /en/exams (page)', '/en/exams', {
            headers: { cookie: teacher.cookie, 'x-forwarded-for': teacher.ip, accept: 'text/html' },
            expect: 200,
          })
        } else if (roll < 0.85) await send('GET exams', '/api/v1/exams', { headers: teacher.api, expect: 200 })
        else await send('GET analyses', '/api/v1/analyses', { headers: teacher.api, expect: 200 })
        await sleep(100 + Math.random() * 300)
      }
    }
    const late = latePayers.map(async (teacher, j) => {
      // Spread from a tenth to two thirds of the work, so that some pay across the kill.
      await sleep(options.seconds * 1000 * (0.1 + (0.56 * (j + 0.5)) / latePayers.length))
      await pay(teacher, true, j % 2 === 1)
    })
    await Promise.all([...workers.map(work), killer, ...late])
    const workSeconds = (performance.now() - workStart) / 1000
    await sleep(1000) // the last webhooks
    log(`  ${t()} s: work done (${workSeconds.toFixed(0)} s); reading everything back`)

    // ------------------------------------------------------------ everything acknowledged, read back elsewhere
    let usersMissing = 0
    await pool(teachers, 8, async (teacher) => {
      const login = await send('verify: POST auth/login', '/api/v1/auth/login', {
        json: { email: teacher.email, password: PASSWORD },
        headers: { 'accept-language': 'en', 'x-forwarded-for': teacher.ip },
        to: other(teacher.registeredBy),
        expect: 200,
      })
      if (login.status !== 200 || login.by === teacher.registeredBy) usersMissing++
    })
    let examsMissing = 0
    await pool(acked.exams, 8, async (exam) => {
      const read = await send('verify: GET exams/{id}', `/api/v1/exams/${exam.id}`, {
        headers: exam.teacher.api,
        to: other(exam.by),
        expect: 200,
      })
      if (read.status !== 200 || read.by === exam.by || (read.body as { data?: { title?: string } })?.data?.title !== exam.title)
        examsMissing++
    })
    const storedHashes = new Map(
      (
        await db.query<{ id: string; sha256: string }>(
          'select i.id, f.sha256 from exam_images i join stored_files f on f.key = i.file_key where i.id = any($1)',
          [acked.images.map((image) => image.id)],
        )
      ).rows.map((row) => [row.id, row.sha256]),
    )
    // Nothing half-written: a picture's row never without its file (an upload cut by the kill may
    // leave a file without a row, which nothing points at).
    const rowsWithoutFile = Number(
      (
        await db.query<{ n: string }>(
          'select count(*) as n from exam_images i where not exists (select 1 from stored_files f where f.key = i.file_key)',
        )
      ).rows[0]?.n,
    )
    check(checks, 'no image row without its stored file', rowsWithoutFile === 0, `${rowsWithoutFile} rows without their file`)
    let imagesMissing = 0
    await pool(acked.images, 8, async (image) => {
      const read = await readBytes(
        'verify: GET uploads/images/{id}',
        `/api/v1/uploads/images/${image.id}`,
        image.teacher.api,
        other(image.by, 2),
      )
      const hash = read.bytes ? sha256(read.bytes) : null
      if (hash === null || (image.sha !== null && hash !== image.sha) || hash !== storedHashes.get(image.id)) imagesMissing++
    })
    let analysesMissing = 0
    await pool(acked.analyses, 8, async (analysis) => {
      const read = await send('verify: GET analyses/{id}', `/api/v1/analyses/${analysis.id}`, {
        headers: analysis.teacher.api,
        to: other(analysis.by),
        expect: 200,
      })
      if (read.status !== 200 || read.by === analysis.by) analysesMissing++
    })
    rec.finish()
    check(
      checks,
      'every acknowledged write read back through another process than the one that acknowledged it',
      usersMissing + examsMissing + imagesMissing + analysesMissing === 0,
      `users ${teachers.length - usersMissing}/${teachers.length} (log in), tests ${acked.exams.length - examsMissing}/${acked.exams.length}, ` +
        `images ${acked.images.length - imagesMissing}/${acked.images.length} (SHA-256 as first read and as stored), ` +
        `analyses ${acked.analyses.length - analysesMissing}/${acked.analyses.length}`,
    )
    check(
      checks,
      'every image stored through one process was served at once by another',
      imageReadFailures === 0 && imageReadsElsewhere + imageReadsDropped === acked.images.length,
      `${imageReadsElsewhere} of ${acked.images.length}${imageReadsDropped ? ` (${imageReadsDropped} read dropped by the kill, read back at the end)` : ''}`,
    )

    // ------------------------------------------------------------ the books
    const books = (
      await db.query<{ id: string; status: string; subs: string; invoices: string; at_gateway: string }>(
        `select p.id, p.status,
                (select count(*) from subscriptions s where s.payment_id = p.id) as subs,
                (select count(*) from invoices i where i.payment_id = p.id) as invoices,
                (select s.status from sandbox_payments s where s.id = p.gateway_payment_id) as at_gateway
           from payments p`,
      )
    ).rows
    const paid = books.filter((b) => b.status === 'paid')
    const wrong = books.filter((b) => {
      const want = b.status === 'paid' ? 1 : 0
      return Number(b.subs) !== want || Number(b.invoices) !== want || (b.at_gateway === 'paid') !== (b.status === 'paid')
    })
    check(
      checks,
      'exactly one subscription and one invoice per paid payment, none for another; paid here exactly when paid at the gateway',
      wrong.length === 0 && paid.length === total,
      `${paid.length} paid of ${books.length} payments (${total} payers), ${wrong.length} wrong`,
    )
    const serials = (await db.query<{ serial: string }>('select serial from invoices order by serial')).rows.map((r) => r.serial)
    const counter = (await db.query<{ last_serial: number }>('select last_serial from invoice_counters')).rows[0]?.last_serial ?? 0
    const expected = serials.map((_, i) => `INV-${String(i + 1).padStart(6, '0')}`)
    check(
      checks,
      'invoice serials without gaps',
      serials.join() === expected.join() && counter === serials.length,
      `${serials[0] ?? '-'} … ${serials.at(-1) ?? '-'} (${serials.length} invoices, counter at ${counter})`,
    )
    // A webhook "reached" a process when it answered it (one in flight on the killed process did not).
    const answered = (p: Payment) => typeof webhooks.get(p.sandboxId)?.status === 'number' && p.returnedBy !== null
    const withHook = payments.filter(answered)
    const apart = withHook.filter((p) => webhooks.get(p.sandboxId)!.by !== p.returnedBy)
    const waited = withHook.filter((p) => (p.late ? latePayers.indexOf(teachers[p.teacher]!) % 2 === 1 : p.teacher % 2 === 0))
    check(
      checks,
      "payments whose webhook reached one process and the payer's return another settle once",
      apart.length > 0 && waited.every((p) => webhooks.get(p.sandboxId)!.by !== p.returnedBy),
      `${apart.length} of ${payments.length} payments; ${withHook.length - apart.length} with both on one process (racing), ` +
        `${payments.length - withHook.length} whose webhook the kill took (the return settled them)`,
    )

    // ------------------------------------------------------------ errors and the killed process
    // The client's requests, and the webhooks the processes sent each other through the proxy.
    const hooks = [...webhooks.values()]
    const fivexx = rec.count(is5xx) + hooks.filter((h) => is5xx(String(h.status))).length
    const proxyErrors = rec.count((s) => s.startsWith('proxy'))
    const timeouts = rec.count((s) => s === 'timeout')
    const connectionErrors = rec.count((s) => !/^\d+$/.test(s) && !s.startsWith('proxy') && s !== 'timeout')
    const droppedElsewhere = proxy.dropped.reduce((sum, n, i) => sum + (i === VICTIM ? 0 : n), 0)
    check(
      checks,
      'no 5xx from any process',
      fivexx === 0,
      `${fivexx} answers 5xx, of ${rec.count(() => true)} requests and ${hooks.length} webhooks`,
    )
    check(
      checks,
      "the only failures are the killed process's requests in flight (502 from the proxy, counted apart)",
      droppedElsewhere === 0 &&
        timeouts === 0 &&
        proxyErrors + connectionErrors <= kill.inFlight &&
        proxy.dropped[VICTIM]! <= kill.inFlight,
      `${kill.inFlight} sent to it before it was gone; the proxy saw ${proxy.dropped[VICTIM]} dropped (webhooks included); ` +
        `the client got ${proxyErrors} proxy 502s, ${connectionErrors} cut connections, ${timeouts} timeouts; other processes dropped ${droppedElsewhere}`,
    )
    check(
      checks,
      'every other answer was the expected one',
      unexpected.length === 0,
      unexpected.length === 0 ? '' : `${unexpected.length}: ${unexpected.slice(0, 5).join(' | ')}`,
    )
    const servedSince = proxy.served[VICTIM]! - kill.servedBefore
    check(
      checks,
      'the killed process started again and served requests',
      kill.readyAfter > 0 && servedSince > 0,
      `answering again ${(kill.readyAfter / 1000).toFixed(1)} s after the SIGKILL (down ${downSeconds} s, then ${(kill.startTook / 1000).toFixed(1)} s to start); ${servedSince} requests served since`,
    )
    check(
      checks,
      'all three processes up at the end',
      servers.every((s) => s !== null && s.exitCode() === null),
    )
    notes.push(
      `killed process ${VICTIM} with SIGKILL ${((kill.at - workStart) / 1000).toFixed(1)} s into the ${workSeconds.toFixed(0)} s of work; ready again ${(kill.readyAfter / 1000).toFixed(1)} s after the kill`,
      `requests served per process (through the proxy): ${proxy.served.map((n, i) => `#${i} ${n}`).join(', ')}`,
      `acknowledged: ${acked.exams.length} tests, ${acked.images.length} images, ${acked.analyses.length} workbook analyses, ${paid.length} payments`,
    )
    return {
      name: `6. Many processes: ${PROCESSES} processes on one PostgreSQL behind a round-robin proxy, ${options.teachers} teachers working + ${options.latePayers} paying, ${options.seconds} s, one SIGKILL`,
      recorder: rec,
      checks,
      notes,
    }
  } finally {
    await db.end().catch(() => {})
    for (const server of servers) await server?.stop()
    await proxy.close()
    await database.drop().catch(() => {})
    rmSync(outbox, { recursive: true, force: true })
  }
}
