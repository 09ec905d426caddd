import { readdir, readFile } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import path, { resolve } from 'node:path'
import { DrizzleQueryError } from 'drizzle-orm/errors'
import { simpleParser } from 'mailparser'
import type { ServerBuild } from 'react-router'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { sandboxFor, settlePayment, startCheckout } from '#app/features/billing/index.server.ts'
import type { AppServices } from '#app/server/context.server.ts'
import { seedPackages } from '#app/server/db/seed.server.ts'
import { createLogger, errorForLog } from '#app/server/logger.server.ts'
import { createMailer } from '#app/server/mail.server.ts'
import { testContext, testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { silenceOutboxHints } from '#tests/factories.ts'
import { createHttpApp } from '../http.ts'

// ASVS V16 (security logging): a teacher's whole journey through the app, registration to a
// student search, with every log line (level trace) kept in memory; no line may carry the
// teacher's email, name, phone, password, token or code, nor a student's name or the search.
// See docs/security.md.

const fakeBuild = { assets: { version: 't', url: '', entry: { module: '', imports: [] }, routes: {} } } as unknown as ServerBuild
const fixtures = resolve(import.meta.dirname, '../../app/features/absence/fixtures')

const lines: string[] = []
const capture = { write: (line: string) => void lines.push(line) }

let app: ReturnType<typeof createHttpApp>
let services: AppServices
const testDb = setupTestDatabase(async (db) => {
  await seedPackages(db.db)
  const base = testServices(db)
  const logger = createLogger('trace', capture)
  const mailer = createMailer({ smtpUrl: base.env.SMTP_URL, from: base.env.MAIL_FROM, outboxDir: base.env.MAIL_OUTBOX_DIR, logger })
  services = { ...base, logger, mailer }
  app = createHttpApp({ services, getBuild: () => fakeBuild, mode: 'production' })
})
silenceOutboxHints()

async function latestCode(to: string): Promise<string> {
  const dir = services.env.MAIL_OUTBOX_DIR
  const files = (await readdir(dir)).filter((f) => f.endsWith('.eml')).sort((a, b) => b.localeCompare(a))
  for (const file of files) {
    const mail = await simpleParser(await readFile(path.join(dir, file)))
    const recipients = (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) => a.value.map((v) => v.address))
    if (!recipients.includes(to)) continue
    const code = /^\s*(\d{6})\s*$/m.exec(mail.text ?? '')?.[1]
    if (code) return code
  }
  throw new Error(`no code for ${to}`)
}

const teacher = {
  username: 'Nourah_Alqahtani',
  email: 'nourah.alqahtani@school.sa',
  phone: '0551239876',
  password: 'Kx9-ridge-Lamp-77',
  password_confirmation: 'Kx9-ridge-Lamp-77',
  terms: true,
}

async function call(method: string, url: string, init: { json?: unknown; form?: FormData; token?: string } = {}) {
  const headers: Record<string, string> = { 'accept-language': 'en' }
  if (init.token) headers.authorization = `Bearer ${init.token}`
  if (init.json !== undefined) headers['content-type'] = 'application/json'
  const res = await app.request(`/api/v1/${url}`, { method, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.form })
  return { status: res.status, body: (await res.json()) as { data?: Record<string, unknown> } }
}

describe('logs', () => {
  it('carry no personal data through registration, activation, login, payment, upload, search and errors', async () => {
    const secrets: string[] = [teacher.email, teacher.username, teacher.phone, '551239876', teacher.password]
    const avatar = new FormData()
    for (const [k, v] of Object.entries(teacher)) avatar.append(k, String(v))
    avatar.append('avatar', new Blob([new Uint8Array(await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).png().toBuffer())]), 'me.png')
    expect((await call('POST', 'auth/register', { form: avatar })).status).toBe(201)
    const activationCode = await latestCode(teacher.email)
    secrets.push(activationCode)
    // A wrong code first, then the right one.
    expect((await call('POST', 'auth/activate', { json: { email: teacher.email, code: activationCode === '000000' ? '111111' : '000000' } })).status).toBe(422)
    const activated = await call('POST', 'auth/activate', { json: { email: teacher.email, code: activationCode } })
    expect(activated.status).toBe(200)
    expect((await call('POST', 'auth/login', { json: { email: teacher.email, password: 'wrong-Password-1' } })).status).toBe(401)
    const login = await call('POST', 'auth/login', { json: { email: teacher.email, password: teacher.password } })
    expect(login.status).toBe(200)
    const token = String(login.body.data?.token)
    const userId = String((login.body.data?.user as { id?: string } | undefined)?.id)
    secrets.push(token, String(activated.body.data?.token), 'wrong-Password-1')

    // A reset flow: its temporary token and code.
    const forgot = await call('POST', 'auth/forgot-password', { json: { email: teacher.email } })
    secrets.push(String(forgot.body.data?.temporary_token))
    secrets.push(await latestCode(teacher.email))

    // Paid through the sandbox (the settlement logs), then a workbook of minors' names.
    const ctx = testContext(testDb(), { env: services.env, logger: services.logger, mailer: services.mailer, files: services.files })
    const gateway = sandboxFor(ctx)
    const checkout = await startCheckout(ctx, gateway, { userId, packageId: 1, method: 'mada', lang: 'en' })
    await gateway.submitCard(checkout.gatewayPaymentId, { number: '4111111111111111', name: 'NOURAH CARD', expiry: '12/30', cvc: '123' })
    await gateway.confirm3ds(checkout.gatewayPaymentId)
    await settlePayment({ db: ctx.db, gateway, env: ctx.env, logger: ctx.logger, gatewayPaymentId: checkout.gatewayPaymentId })
    secrets.push('4111111111111111', 'NOURAH CARD')

    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(readFileSync(`${fixtures}/small-ar.xlsx`))]), 'class 5-A absences.xlsx')
    const uploaded = await call('POST', 'analyses/absence', { form, token })
    expect(uploaded.status).toBe(201)
    const expected = JSON.parse(readFileSync(`${fixtures}/small-ar.expected.json`, 'utf8')) as { students: Array<{ name: string }> }
    const students = expected.students.map((s) => s.name)
    secrets.push(...students, 'class 5-A absences')
    const q = students[0]!.split(' ').slice(0, 3).join(' ')
    expect((await call('GET', `analyses/${String(uploaded.body.data?.id)}/students?q=${encodeURIComponent(q)}`, { token })).status).toBe(200)
    secrets.push(q, encodeURIComponent(q))
    // A refused workbook (logged as "analysis failed") and a contact message.
    const bad = new FormData()
    bad.append('file', new Blob([new TextEncoder().encode(`${teacher.email},${students[1]}`)]), 'Nourah private.xlsx')
    expect((await call('POST', 'analyses/absence', { form: bad, token })).status).toBe(422)
    secrets.push('Nourah private')
    expect((await call('POST', 'contact', { json: { type: 'other', name: 'Huda Almutairi', email: 'huda@family.sa', message: 'My son Faisal was marked absent.' } })).status).toBe(201)
    secrets.push('Huda Almutairi', 'huda@family.sa', 'Faisal')

    // An unexpected database failure carrying personal values, logged as the API logs errors.
    const failure = new DrizzleQueryError('insert into "users" ("email", "username") values ($1, $2)', [teacher.email, teacher.username], Object.assign(new Error(`Key (email)=(${teacher.email}) already exists.`), { code: '23505', severity: 'ERROR', detail: `Key (email)=(${teacher.email}) already exists.`, constraint: 'users_email_unique' }))
    services.logger.error({ err: failure }, 'api error')

    const log = lines.join('')
    if (process.env.SHOW_LOGS) process.stdout.write(log)
    expect(lines.length).toBeGreaterThan(10)
    expect(log).toContain('"path":"/api/v1/analyses/absence"')
    expect(log).toContain('"msg":"api error"')
    expect(log).toContain('users_email_unique')
    // Sign-in outcomes are events with the account's id (ASVS 16.3.1), the email never.
    expect(log).toContain(`"event":"auth.login.failed","userId":"${userId}"`)
    expect(log).toContain(`"event":"auth.login.succeeded","userId":"${userId}"`)
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(3)
      expect({ secret, logged: log.toLowerCase().includes(secret.toLowerCase()) }).toEqual({ secret, logged: false })
    }
    // No query string is logged at all, whatever it carries.
    expect(log).not.toMatch(/"path":"[^"]*\?/)
  })
})

describe('errorForLog', () => {
  it('keeps a failed query’s SQL, code and constraint, never its values or the database’s detail', () => {
    const cause = Object.assign(new Error('invalid input syntax for type uuid: "salma@x.sa"'), { code: '22P02', severity: 'ERROR', detail: 'salma@x.sa' })
    const logged = JSON.stringify(errorForLog(new DrizzleQueryError('select * from "users" where "id" = $1', ['salma@x.sa'], cause)))
    expect(logged).not.toContain('salma')
    expect(logged).toContain('select * from \\"users\\" where \\"id\\" = $1')
    expect(logged).toContain('22P02')
  })

  it('keeps an ordinary error’s message and stack frames', () => {
    const logged = errorForLog(new TypeError('x is not a function'))
    expect(logged).toMatchObject({ type: 'TypeError', message: 'x is not a function' })
    expect(String(logged.stack)).toMatch(/^\s+at /)
    expect(errorForLog('a string')).toEqual({ type: 'string' })
  })
})
