import { readdir, readFile } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import path, { resolve } from 'node:path'
import { DrizzleQueryError } from 'drizzle-orm/errors'
import { simpleParser } from 'mailparser'
import type { ServerBuild } from 'react-router'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { base32Decode, createSession, hotp, listSessions, sessionCookieName, totpStep } from '#app/features/accounts/index.server.ts'
import { sandboxFor, settlePayment, startCheckout } from '#app/features/billing/index.server.ts'
import type { AppServices } from '#app/platform/context.server.ts'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { createLogger, errorForLog } from '#app/platform/logger.server.ts'
import { createMailer } from '#app/platform/mail.server.ts'
import { testContext, testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { silenceOutboxHints } from '#tests/factories.ts'
import { action as profileAction, loader as profileLoader } from '../../../app/routes/profile.tsx'
import { createHttpApp } from '../http.ts'
import { checkedApp } from '#tests/api-conformance.ts'

// ASVS V16 (security logging): a teacher's whole journey through the app, registration to a
// student search, with every log line (level trace) kept in memory; no line may carry the
// teacher's email, name, phone, password, token or code, nor a student's name or the search.
// See docs/security.md.

const fakeBuild = { assets: { version: 't', url: '', entry: { module: '', imports: [] }, routes: {} } } as unknown as ServerBuild
const fixtures = resolve(import.meta.dirname, '../../../app/features/absence/fixtures')

const lines: string[] = []
const capture = { write: (line: string) => void lines.push(line) }

let app: ReturnType<typeof createHttpApp>
let services: AppServices
const testDb = setupTestDatabase(async (db) => {
  await seedPackages({ db: db.db })
  const base = testServices(db)
  const logger = createLogger('trace', capture)
  const mailer = createMailer({ smtpUrl: base.env.SMTP_URL, from: base.env.MAIL_FROM, outboxDir: base.env.MAIL_OUTBOX_DIR, logger })
  services = { ...base, logger, mailer }
  app = checkedApp(createHttpApp({ services, getBuild: () => fakeBuild, mode: 'production' }))
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
  const res = await app.request(`/api/v1/${url}`, {
    method,
    headers,
    body: init.json !== undefined ? JSON.stringify(init.json) : init.form,
  })
  return { status: res.status, body: (await res.json()) as { data?: Record<string, unknown> } }
}

describe('logs', () => {
  it('carry no personal data through registration, activation, login, payment, upload, search and errors', async () => {
    const secrets: string[] = [teacher.email, teacher.username, teacher.phone, '551239876', teacher.password]
    const avatar = new FormData()
    for (const [k, v] of Object.entries(teacher)) avatar.append(k, String(v))
    avatar.append(
      'avatar',
      new Blob([
        new Uint8Array(
          await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
            .png()
            .toBuffer(),
        ),
      ]),
      'me.png',
    )
    expect((await call('POST', 'auth/register', { form: avatar })).status).toBe(201)
    const activationCode = await latestCode(teacher.email)
    secrets.push(activationCode)
    // A wrong code first, then the right one.
    expect(
      (await call('POST', 'auth/activate', { json: { email: teacher.email, code: activationCode === '000000' ? '111111' : '000000' } }))
        .status,
    ).toBe(422)
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
    const checkout = await startCheckout({ ...ctx, gateway, input: { userId, packageId: 1, method: 'mada', lang: 'en' } })
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
    expect((await call('GET', `analyses/${String(uploaded.body.data?.id)}/students?q=${encodeURIComponent(q)}`, { token })).status).toBe(
      200,
    )
    secrets.push(q, encodeURIComponent(q))
    // A refused workbook (logged as "analysis failed") and a contact message.
    const bad = new FormData()
    bad.append('file', new Blob([new TextEncoder().encode(`${teacher.email},${students[1]}`)]), 'Nourah private.xlsx')
    expect((await call('POST', 'analyses/absence', { form: bad, token })).status).toBe(422)
    secrets.push('Nourah private')
    expect(
      (
        await call('POST', 'contact', {
          json: { type: 'other', name: 'Huda Almutairi', email: 'huda@family.sa', message: 'My son Faisal was marked absent.' },
        })
      ).status,
    ).toBe(201)
    secrets.push('Huda Almutairi', 'huda@family.sa', 'Faisal')

    // An unexpected database failure carrying personal values, logged as the API logs errors.
    const failure = new DrizzleQueryError(
      'insert into "users" ("email", "username") values ($1, $2)',
      [teacher.email, teacher.username],
      Object.assign(new Error(`Key (email)=(${teacher.email}) already exists.`), {
        code: '23505',
        severity: 'ERROR',
        detail: `Key (email)=(${teacher.email}) already exists.`,
        constraint: 'users_email_unique',
      }),
    )
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

describe('account events (ASVS 16.3.1)', () => {
  it('are logged with the user id only: code refused, password changed and reset, email changed, sessions ended, logout, account deleted', async () => {
    const haya = {
      username: 'Haya_Alharbi',
      email: 'haya.alharbi@school.sa',
      phone: '0559871234',
      password: 'Qw7-harbour-Tile-31',
      password_confirmation: 'Qw7-harbour-Tile-31',
      terms: true,
    }
    const newPassword = 'Mz4-orchard-Kite-58'
    const resetPassword = 'Lp2-meadow-Drum-94'
    const newEmail = 'haya.work@school.sa'
    const secrets: string[] = [haya.email, haya.username, haya.phone, '559871234', haya.password, newPassword, resetPassword, newEmail]
    const from = lines.length
    const wrong = (code: string) => (code === '000000' ? '111111' : '000000')

    expect((await call('POST', 'auth/register', { json: haya })).status).toBe(201)
    const activation = await latestCode(haya.email)
    expect((await call('POST', 'auth/activate', { json: { email: haya.email, code: wrong(activation) } })).status).toBe(422)
    const activated = await call('POST', 'auth/activate', { json: { email: haya.email, code: activation } })
    const userId = String((activated.body.data?.user as { id?: string } | undefined)?.id)
    let token = String(activated.body.data?.token)
    secrets.push(activation, token)
    // An activation for an address with no account is refused too, and logged without one.
    expect((await call('POST', 'auth/activate', { json: { email: 'nobody.here@school.sa', code: '123456' } })).status).toBe(422)
    secrets.push('nobody.here@school.sa')

    // A change of password: a wrong code, then the right one.
    expect(
      (
        await call('POST', 'auth/change-password', {
          token,
          json: { current_password: haya.password, password: newPassword, password_confirmation: newPassword },
        })
      ).status,
    ).toBe(200)
    const passwordCode = await latestCode(haya.email)
    expect((await call('POST', 'auth/change-password', { token, json: { code: wrong(passwordCode) } })).status).toBe(422)
    const changed = await call('POST', 'auth/change-password', { token, json: { code: passwordCode } })
    expect(changed.status).toBe(200)
    token = String(changed.body.data?.token)
    secrets.push(passwordCode, token)

    // A change of email, with the code sent to the new address.
    expect((await call('POST', 'auth/change-email', { token, json: { email: newEmail, password: newPassword } })).status).toBe(200)
    const emailCode = await latestCode(newEmail)
    expect((await call('POST', 'auth/change-email', { token, json: { code: emailCode } })).status).toBe(200)
    secrets.push(emailCode)

    expect((await call('POST', 'auth/logout', { token })).status).toBe(200)

    // A password reset: a wrong code, the right one, the new password.
    const forgot = await call('POST', 'auth/forgot-password', { json: { email: newEmail } })
    const resetCode = await latestCode(newEmail)
    expect(
      (await call('POST', 'auth/verify-code', { json: { temporary_token: forgot.body.data?.temporary_token, code: wrong(resetCode) } }))
        .status,
    ).toBe(422)
    const verified = await call('POST', 'auth/verify-code', {
      json: { temporary_token: forgot.body.data?.temporary_token, code: resetCode },
    })
    expect(
      (
        await call('POST', 'auth/reset-password', {
          json: { temporary_token: verified.body.data?.temporary_token, password: resetPassword, password_confirmation: resetPassword },
        })
      ).status,
    ).toBe(200)
    secrets.push(resetCode, String(forgot.body.data?.temporary_token), String(verified.body.data?.temporary_token))

    // The profile page: one device signed out, then the others, then the account deleted.
    const ctx = testContext(testDb(), { env: services.env, logger: services.logger, mailer: services.mailer, files: services.files })
    const web = await createSession({ db: ctx.db, secret: ctx.env.SESSION_SECRET, userId, kind: 'web' })
    for (let i = 0; i < 3; i++) await createSession({ db: ctx.db, secret: ctx.env.SESSION_SECRET, userId, kind: 'api' })
    secrets.push(web.token)
    const profile = async (fields: Record<string, string>) => {
      const form = new FormData()
      for (const [k, v] of Object.entries(fields)) form.append(k, v)
      const request = new Request('http://localhost/en/profile', {
        method: 'POST',
        body: form,
        headers: { cookie: `${sessionCookieName(ctx.env)}=${web.token}` },
      })
      const answer = await profileAction({ request, params: { lang: 'en' }, context: ctx } as never).catch((thrown: unknown) => thrown)
      expect((answer as Response).status).toBe(302)
    }
    const other = (await listSessions({ db: ctx.db, userId })).find((s) => s.kind === 'api')!
    await profile({ intent: 'revoke', session: other.id })
    await profile({ intent: 'revoke-others' })
    await profile({ intent: 'delete', password: resetPassword })

    const logged = lines.slice(from)
    const events = logged.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => typeof entry.event === 'string')
    const accountEvents = events.filter((entry) => !String(entry.event).startsWith('auth.login.'))
    expect(
      accountEvents.map(({ event, userId: id, reason, purpose, count }) => ({
        event,
        userId: id,
        ...(reason ? { reason } : {}),
        ...(purpose ? { purpose } : {}),
        ...(count !== undefined ? { count } : {}),
      })),
    ).toEqual([
      { event: 'auth.code.failed', userId, reason: 'wrong', purpose: 'activation' },
      { event: 'auth.code.failed', userId: null, reason: 'no_account', purpose: 'activation' },
      { event: 'auth.code.failed', userId, reason: 'wrong', purpose: 'change_password' },
      { event: 'auth.password.changed', userId },
      { event: 'auth.sessions.revoked', userId, reason: 'password_changed', count: 1 },
      { event: 'auth.email.changed', userId },
      { event: 'auth.session.revoked', userId, reason: 'logout' },
      { event: 'auth.code.failed', userId, reason: 'wrong', purpose: 'reset' },
      { event: 'auth.password.reset', userId },
      { event: 'auth.sessions.revoked', userId, reason: 'password_reset', count: 0 },
      { event: 'auth.session.revoked', userId, reason: 'signed_out' },
      { event: 'auth.sessions.revoked', userId, reason: 'other_devices', count: 2 },
      { event: 'auth.account.deleted', userId },
    ])
    // An event carries its name, the account's id and what happened: no other field.
    for (const entry of events) {
      const { level, time, msg, reqId, event, userId: id, reason, purpose, count, kind, by, factor, ...rest } = entry
      void [level, time, msg, reqId, event, id, reason, purpose, count, kind, by, factor]
      expect({ event, rest }).toEqual({ event, rest: {} })
    }
    const log = logged.join('')
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(3)
      expect({ secret, logged: log.toLowerCase().includes(secret.toLowerCase()) }).toEqual({ secret, logged: false })
    }
  })
})

describe('second-factor events (ASVS 16.3.1)', () => {
  it('are logged with the user id only, never the key, a code or a recovery code', async () => {
    const salma = {
      username: 'Salma_Alotaibi',
      email: 'salma.alotaibi@school.sa',
      phone: '0557654321',
      password: 'Rv8-canyon-Bell-26',
      password_confirmation: 'Rv8-canyon-Bell-26',
      terms: true,
    }
    const secrets: string[] = [salma.email, salma.username, salma.phone, salma.password]
    expect((await call('POST', 'auth/register', { json: salma })).status).toBe(201)
    const activated = await call('POST', 'auth/activate', { json: { email: salma.email, code: await latestCode(salma.email) } })
    const userId = String((activated.body.data?.user as { id?: string } | undefined)?.id)
    const from = lines.length

    // Turned on from the profile page.
    const ctx = testContext(testDb(), { env: services.env, logger: services.logger, mailer: services.mailer, files: services.files })
    const web = await createSession({ db: ctx.db, secret: ctx.env.SESSION_SECRET, userId, kind: 'web' })
    const cookie = `${sessionCookieName(ctx.env)}=${web.token}`
    const profile = async (fields: Record<string, string>) => {
      const form = new FormData()
      for (const [k, v] of Object.entries(fields)) form.append(k, v)
      const request = new Request('http://localhost/en/profile', { method: 'POST', body: form, headers: { cookie } })
      return profileAction({ request, params: { lang: 'en' }, context: ctx } as never).catch((thrown: unknown) => thrown)
    }
    await profile({ intent: 'totp-start' })
    const shown = (await profileLoader({
      request: new Request('http://localhost/en/profile', { headers: { cookie } }),
      params: { lang: 'en' },
      context: ctx,
    } as never)) as { twoFactor: { key: string } }
    const key = shown.twoFactor.key
    const code = (steps: number) => hotp(base32Decode(key)!, totpStep(new Date()) + steps)
    const enrolCode = code(0)
    const { data: confirmed } = (await profile({ intent: 'totp-confirm', code: enrolCode })) as { data: { recoveryCodes: string[] } }
    const recovery = confirmed.recoveryCodes
    secrets.push(key, key.replace(/ /g, ''), enrolCode, ...recovery, ...recovery.map((r) => r.replace('-', '')))

    // Signing in through the API: a wrong code, the app's code, then a recovery code.
    const first = await call('POST', 'auth/login', { json: { email: salma.email, password: salma.password } })
    const challenge = String(first.body.data?.two_factor_token)
    const loginCode = code(1)
    expect(
      (
        await call('POST', 'auth/login/two-factor', {
          json: { two_factor_token: challenge, code: loginCode === '000000' ? '111111' : '000000' },
        })
      ).status,
    ).toBe(422)
    const signedIn = await call('POST', 'auth/login/two-factor', { json: { two_factor_token: challenge, code: loginCode } })
    expect(signedIn.status).toBe(200)
    const second = await call('POST', 'auth/login', { json: { email: salma.email, password: salma.password } })
    expect(
      (await call('POST', 'auth/login/two-factor', { json: { two_factor_token: second.body.data?.two_factor_token, code: recovery[0] } }))
        .status,
    ).toBe(200)
    secrets.push(loginCode, challenge, String(second.body.data?.two_factor_token), String(signedIn.body.data?.token), web.token)

    // Turned off from the profile with another recovery code.
    expect(((await profile({ intent: 'totp-disable', password: salma.password, code: recovery[1]! })) as Response).status).toBe(302)

    const logged = lines.slice(from)
    const events = logged.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => typeof entry.event === 'string')
    expect(
      events.map(({ event, userId: id, reason, factor, count }) => ({
        event,
        userId: id,
        ...(reason ? { reason } : {}),
        ...(factor ? { factor } : {}),
        ...(count !== undefined ? { count } : {}),
      })),
    ).toEqual([
      { event: 'auth.two_factor.enabled', userId },
      { event: 'auth.login.second_factor', userId },
      { event: 'auth.two_factor.failed', userId, reason: 'wrong' },
      { event: 'auth.login.succeeded', userId, factor: 'totp' },
      { event: 'auth.login.second_factor', userId },
      { event: 'auth.two_factor.recovery_used', userId, count: 9 },
      { event: 'auth.login.succeeded', userId, factor: 'recovery' },
      { event: 'auth.two_factor.recovery_used', userId, count: 8 },
      { event: 'auth.two_factor.disabled', userId },
    ])
    for (const entry of events) {
      const { level, time, msg, reqId, event, userId: id, reason, count, factor, ...rest } = entry
      void [level, time, msg, reqId, id, reason, count, factor]
      expect({ event, rest }).toEqual({ event, rest: {} })
    }
    const log = logged.join('')
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(3)
      expect({ secret, logged: log.toLowerCase().includes(secret.toLowerCase()) }).toEqual({ secret, logged: false })
    }
  })
})

describe('errorForLog', () => {
  it('keeps a failed query’s SQL, code and constraint, never its values or the database’s detail', () => {
    const cause = Object.assign(new Error('invalid input syntax for type uuid: "salma@x.sa"'), {
      code: '22P02',
      severity: 'ERROR',
      detail: 'salma@x.sa',
    })
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
