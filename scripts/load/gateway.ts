// Scenario 4: Moyasar slow or failing around settlement. The server runs PAYMENT_GATEWAY=moyasar
// against the local fake (tests/fakes/moyasar.ts), which also posts its webhooks. For each
// checkout the payer's return (callback), the webhook (the fake's own and extra copies) and
// reconciliation (the admin CLI, a second process) race, with the fake delaying or failing
// one API call. Afterwards, in the database: exactly one subscription and one invoice per paid
// payment, none for a failed or unpaid one, and never two gateway payments for one checkout.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import pg from 'pg'
import { startMoyasarFake } from '../../tests/fakes/moyasar.ts'
import {
  check,
  is5xx,
  Recorder,
  registerTeachers,
  sleep,
  startServer,
  type Check,
  type LoadServer,
  type ScenarioResult,
  type Teacher,
} from './lib.ts'

const SECRET_KEY = 'sk_test_load_secret'
const PUBLISHABLE_KEY = 'pk_test_load_publishable'
const WEBHOOK_SECRET = 'load-moyasar-webhook-secret-0123456789'
const CARD_OK = '4111111111111111'
const CARD_DECLINED = '4000000000000002'

const run = promisify(execFile)

type Case = { name: string; expect: 'paid' | 'failed' | 'initiated'; paymentId?: string; gatewayId?: string; notes: string[] }

export async function gatewayFaults(options: { port: number }): Promise<ScenarioResult> {
  const rec = new Recorder()
  const setup = new Recorder()
  const checks: Check[] = []
  const notes: string[] = []
  const base = `http://127.0.0.1:${options.port}`
  const fake = await startMoyasarFake({
    secretKey: SECRET_KEY,
    publishableKey: PUBLISHABLE_KEY,
    webhookSecret: WEBHOOK_SECRET,
    webhookUrl: `${base}/api/v1/payments/webhook/moyasar`,
  })
  let server: LoadServer | null = null
  try {
    server = await startServer({
      name: 'gateway',
      port: options.port,
      env: {
        PAYMENT_GATEWAY: 'moyasar',
        MOYASAR_API_URL: fake.url,
        MOYASAR_SECRET_KEY: SECRET_KEY,
        MOYASAR_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
        MOYASAR_WEBHOOK_SECRET: WEBHOOK_SECRET,
      },
    })
    const s = server
    const api = `${s.url}/api/v1`
    const teachers = await registerTeachers(s, setup, 'pay', 8, 500)
    const db = new pg.Client({ connectionString: s.databaseUrl })
    await db.connect()
    try {
      const packages = await rec.request('GET packages', `${api}/packages`, { headers: teachers[0]!.headers })
      const packageId = ((packages.body as { data?: Array<{ id: number }> })?.data ?? [])[0]?.id
      if (!packageId) throw new Error('no package')

      const cookies = new Map<string, string>()
      const login = async (t: Teacher) => {
        const form = new URLSearchParams({ email: t.email, password: t.password })
        const res = await fetch(`${s.url}/en/login`, {
          method: 'POST',
          body: form,
          redirect: 'manual',
          headers: { origin: s.url, 'x-forwarded-for': t.ip, 'content-type': 'application/x-www-form-urlencoded' },
        })
        const cookie = res.headers
          .getSetCookie()
          .map((c) => c.split(';')[0])
          .filter((c) => c && !c.endsWith('='))
          .join('; ')
        if (res.status !== 302 || !cookie) throw new Error(`web login of ${t.email}: ${res.status}`)
        cookies.set(t.userId, cookie)
      }
      for (const t of teachers) await login(t)

      /** POST /subscriptions, then the idempotency key the browser would send as given_id. */
      const checkout = async (t: Teacher) => {
        const res = await rec.request('POST subscriptions (checkout)', `${api}/subscriptions`, {
          json: { package_id: packageId, method: 'creditcard' },
          headers: t.headers,
        })
        const paymentId = (res.body as { data?: { payment_id?: string } })?.data?.payment_id
        if (res.status !== 201 || !paymentId) throw new Error(`checkout: ${res.status} ${JSON.stringify(res.body)}`)
        const row = (
          await db.query<{ gateway_payment_id: string; total: number }>('select gateway_payment_id, total from payments where id = $1', [
            paymentId,
          ])
        ).rows[0]!
        return { paymentId, gatewayId: row.gateway_payment_id, total: row.total }
      }
      /** The payer's browser: the payment created at "Moyasar" with the publishable key. */
      const payAtGateway = async (c: { paymentId: string; gatewayId: string; total: number }, card: string) =>
        rec.request('fake: POST /v1/payments (browser)', `${fake.url}/v1/payments`, {
          json: {
            given_id: c.gatewayId,
            amount: c.total,
            currency: 'SAR',
            description: 'Hallil load test',
            callback_url: `${s.url}/en/payments/callback`,
            metadata: { payment_id: c.paymentId },
            source: {
              type: 'creditcard',
              name: 'NOURA ALQAHTANI',
              number: card,
              month: '12',
              year: String((new Date().getUTCFullYear() + 3) % 100),
              cvc: '123',
            },
          },
          headers: { authorization: `Basic ${Buffer.from(`${PUBLISHABLE_KEY}:`).toString('base64')}` },
        })
      const threeDs = (gatewayId: string) => rec.request('fake: GET /3ds (payer passes 3-D Secure)', `${fake.url}/3ds/${gatewayId}`)
      const callback = (t: Teacher, gatewayId: string, status = 'paid') =>
        rec.request(
          'GET /en/payments/callback (payer returns)',
          `${s.url}/en/payments/callback?id=${gatewayId}&status=${status}&message=x`,
          {
            headers: { cookie: cookies.get(t.userId) ?? '', 'x-forwarded-for': t.ip, accept: 'text/html' },
            timeoutMs: 30_000,
          },
        )
      const webhook = (gatewayId: string) => {
        const start = performance.now()
        return fake.sendWebhook(`${api}/payments/webhook/moyasar`, gatewayId).then(
          (r) => rec.record('POST payments/webhook/moyasar (extra copy)', r.status, performance.now() - start),
          () => rec.record('POST payments/webhook/moyasar (extra copy)', 'neterr', performance.now() - start),
        )
      }
      const reconcile = async () => {
        const start = performance.now()
        try {
          const { stdout } = await run(process.execPath, ['--import', 'tsx', 'server/admin.ts', 'payments:reconcile'], {
            env: s.env as NodeJS.ProcessEnv,
            timeout: 60_000,
          })
          rec.record('admin payments:reconcile (CLI)', 'exit 0', performance.now() - start)
          return stdout.trim()
        } catch (error) {
          rec.record('admin payments:reconcile (CLI)', `exit ${(error as { code?: number }).code ?? '?'}`, performance.now() - start)
          return String((error as { stderr?: string }).stderr ?? error).slice(-300)
        }
      }
      const cases: Case[] = []
      const teacher = (() => {
        let i = 0
        return () => teachers[i++]!
      })()

      // A. Everyone at once: two returns (a double click), the fake's webhook, two extra webhooks, reconciliation.
      {
        const t = teacher()
        const c = await checkout(t)
        await payAtGateway(c, CARD_OK)
        await threeDs(c.gatewayId)
        await Promise.all([callback(t, c.gatewayId), callback(t, c.gatewayId), webhook(c.gatewayId), webhook(c.gatewayId), reconcile()])
        cases.push({ name: 'A. paid; callback ×2 + webhook ×3 + reconcile racing', expect: 'paid', ...c, notes: [] })
      }
      // B. The gateway slow: the return's lookup answered 3 s late while the webhook settles.
      {
        const t = teacher()
        const c = await checkout(t)
        await payAtGateway(c, CARD_OK)
        fake.delayNext(3000)
        const returned = callback(t, c.gatewayId)
        await sleep(20)
        await threeDs(c.gatewayId) // settles at the fake, whose webhook follows 50 ms later
        const [r] = await Promise.all([returned, reconcile(), webhook(c.gatewayId)])
        cases.push({
          name: 'B. paid; gateway lookup 3 s slow while webhook + reconcile settle',
          expect: 'paid',
          ...c,
          notes: [`slow callback answered ${r.status} in ${r.ms.toFixed(0)} ms`],
        })
      }
      // C. The gateway failing: the return's lookup gets a 500, then the webhook and reconciliation settle.
      {
        const t = teacher()
        const c = await checkout(t)
        await payAtGateway(c, CARD_OK)
        const settled = fake.webhooksSent.length
        await threeDs(c.gatewayId)
        // Wait until the fake's own webhook has been answered, then make the next lookup fail.
        while (fake.webhooksSent.length === settled) await sleep(20)
        fake.failNext(500)
        const r = await callback(t, c.gatewayId)
        const again = await callback(t, c.gatewayId)
        await reconcile()
        cases.push({
          name: "C. paid; gateway answers 500 to the return's lookup, then returns again + reconcile",
          expect: 'paid',
          ...c,
          notes: [`callback during the failure answered ${r.status}, the second ${again.status}`],
        })
      }
      // D. The gateway failing before anyone settled: webhook lost (500 at lookup), payer never returns; reconciliation settles.
      {
        const t = teacher()
        const c = await checkout(t)
        await payAtGateway(c, CARD_OK)
        fake.failNext(503)
        const sent = fake.webhooksSent.length
        await threeDs(c.gatewayId) // the fake's webhook lookup is the next API call: it gets the 503
        while (fake.webhooksSent.length === sent) await sleep(20)
        const webhookStatus = fake.webhooksSent.at(-1)?.status
        const before = (await db.query<{ status: string }>('select status from payments where id = $1', [c.paymentId])).rows[0]?.status
        const out = await reconcile()
        cases.push({
          name: "D. paid; webhook's lookup fails (503), no return; reconcile settles",
          expect: 'paid',
          ...c,
          notes: [
            `webhook answered ${webhookStatus} (the gateway retries a non-2xx), payment was ${before} before reconcile; reconcile: ${out}`,
          ],
        })
      }
      // E. Declined card: callback + webhook + reconcile, none may start a subscription.
      {
        const t = teacher()
        const c = await checkout(t)
        await payAtGateway(c, CARD_DECLINED)
        await threeDs(c.gatewayId)
        await Promise.all([callback(t, c.gatewayId, 'failed'), webhook(c.gatewayId), reconcile()])
        cases.push({ name: 'E. declined; callback + webhook + reconcile', expect: 'failed', ...c, notes: [] })
      }
      // F. Unpaid: created at the gateway, 3-D Secure never passed; a forged "paid" return and reconciliation.
      {
        const t = teacher()
        const c = await checkout(t)
        await payAtGateway(c, CARD_OK)
        const [r] = await Promise.all([callback(t, c.gatewayId, 'paid'), reconcile()])
        cases.push({
          name: 'F. unpaid (3-D Secure not passed); forged status=paid return + reconcile',
          expect: 'initiated',
          ...c,
          notes: [`the return answered ${r.status}`],
        })
      }
      // G. Never created at the gateway (the payer left the page); reconciliation finds nothing to settle.
      {
        const t = teacher()
        const c = await checkout(t)
        const [r] = await Promise.all([callback(t, c.gatewayId, 'paid'), reconcile()])
        cases.push({
          name: 'G. checkout never paid at the gateway; forged return + reconcile',
          expect: 'initiated',
          ...c,
          notes: [`the return answered ${r.status}`],
        })
      }
      // H. The browser sends the payment twice (retry after a timeout): the gateway refuses the second.
      {
        const t = teacher()
        const c = await checkout(t)
        fake.delayNext(2000)
        const [p1, p2] = await Promise.all([payAtGateway(c, CARD_OK), (async () => (await sleep(50), payAtGateway(c, CARD_OK)))()])
        await threeDs(c.gatewayId)
        await Promise.all([callback(t, c.gatewayId), webhook(c.gatewayId), reconcile()])
        const second = await rec.request('POST subscriptions (while subscribed)', `${api}/subscriptions`, {
          json: { package_id: packageId, method: 'creditcard' },
          headers: t.headers,
        })
        cases.push({
          name: 'H. payment sent to the gateway twice (browser retry), then a new checkout while subscribed',
          expect: 'paid',
          ...c,
          notes: [`gateway answered ${p1.status} and ${p2.status}; a new checkout answered ${second.status}`],
        })
        check(checks, 'H: a second checkout while subscribed is refused (409)', second.status === 409, `status ${second.status}`)
      }

      await sleep(500) // the fake's last webhooks
      // The books.
      for (const c of cases) {
        const rows = (
          await db.query<{ status: string; subs: string; invoices: string }>(
            `select p.status, (select count(*) from subscriptions s where s.payment_id = p.id) as subs, (select count(*) from invoices i where i.payment_id = p.id) as invoices from payments p where p.id = $1`,
            [c.paymentId],
          )
        ).rows[0]
        const atGateway = [...fake.payments.values()].filter((p) => p.id === c.gatewayId || p.metadata?.payment_id === c.paymentId)
        const want = c.expect === 'paid' ? 1 : 0
        const ok = rows?.status === c.expect && Number(rows.subs) === want && Number(rows.invoices) === want && atGateway.length <= 1
        check(
          checks,
          c.name,
          ok,
          `payment ${rows?.status} (want ${c.expect}), subscriptions ${rows?.subs}, invoices ${rows?.invoices}, gateway payments ${atGateway.length}${c.notes.length ? `; ${c.notes.join('; ')}` : ''}`,
        )
      }
      const orphans = (
        await db.query<{ n: string }>(
          `select count(*) as n from subscriptions s join payments p on p.id = s.payment_id where p.status <> 'paid' or p.gateway <> 'moyasar'`,
        )
      ).rows[0]?.n
      check(checks, 'no subscription without a paid gateway payment', Number(orphans) === 0, `${orphans} without`)
      const unpaidAtGateway = (
        await db.query<{ gateway_payment_id: string }>(
          `select p.gateway_payment_id from subscriptions s join payments p on p.id = s.payment_id`,
        )
      ).rows.filter((r) => fake.payments.get(r.gateway_payment_id)?.status !== 'paid').length
      check(checks, "every subscription's payment is paid at the gateway", unpaidAtGateway === 0, `${unpaidAtGateway} not paid there`)
      const perUser = (
        await db.query<{ n: string }>(
          `select count(*) as n from (select user_id from subscriptions group by user_id having count(*) > 1) x`,
        )
      ).rows[0]?.n
      check(checks, 'no teacher charged twice (one subscription each at most)', Number(perUser) === 0, `${perUser} teachers with two`)
      const serials = (await db.query<{ n: string; max: string }>(`select count(*) as n, max(serial) as max from invoices`)).rows[0]
      notes.push(
        `invoices issued: ${serials?.n}, last serial ${serials?.max}; fake gateway API calls: ${fake.requests.length}; webhooks the fake sent: ${fake.webhooksSent.map((w) => w.status).join(',')}`,
      )
      check(
        checks,
        'no 5xx from the API (webhooks excepted: a 5xx there asks the gateway to retry)',
        rec.count(is5xx, 'POST subscriptions (checkout)') + rec.count(is5xx, 'GET packages') === 0,
      )
      check(checks, 'the server stayed up', s.exitCode() === null)
    } finally {
      await db.end()
    }
    rec.finish()
    return { name: '4. Gateway slow or failing (PAYMENT_GATEWAY=moyasar against the local fake)', recorder: rec, checks, notes }
  } finally {
    await server?.stop()
    await fake.close()
  }
}
