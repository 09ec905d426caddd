import { eq } from 'drizzle-orm'
import { randomBytes } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { simpleParser } from 'mailparser'
import sharp from 'sharp'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  base32Decode,
  confirmTotpEnrolment,
  createSession,
  decideReview,
  hotp,
  sessionCookieName,
  startTotpEnrolment,
  totpStep,
} from '#app/features/accounts/index.server.ts'
import type { AppServices } from '#app/platform/context.server.ts'
import { packages, sessions, subscriptions, users } from '#app/platform/db/schema.ts'
import { testContext, testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { apiTestApp } from '#tests/api-app.ts'
import { subscribedTeacher } from '#tests/subscriber.ts'

// /api/v1 accounts endpoints through the whole HTTP app, on a fresh database, with the real
// mailer writing to its outbox: codes are read from the emails, as a teacher would.

let app: ReturnType<typeof apiTestApp>
let services: AppServices
const testDb = setupTestDatabase(async (database) => {
  // Behind a trusted proxy, so each test can come from its own address and the per-address
  // limits (10 registrations an hour, 50 logins, 30 code checks) stay per test.
  services = testServices(database, { TRUST_PROXY: 'true' })
  app = apiTestApp(services)
})

let clientIp = ''
let ipCounter = 0
beforeEach(() => {
  ipCounter += 1
  clientIp = `198.51.100.${ipCounter}`
})

type Answer = { status: number; headers: Headers; body: { message: string; data?: unknown; errors?: Record<string, string[]> } }
type CallOptions = { json?: unknown; form?: FormData; token?: string; lang?: 'ar' | 'en'; headers?: Record<string, string> }

async function call(method: string, url: string, { json, form, token, lang, headers = {} }: CallOptions = {}): Promise<Answer> {
  const h: Record<string, string> = { accept: 'application/json', 'x-forwarded-for': clientIp, ...headers }
  if (lang) h['accept-language'] = lang
  if (token) h.authorization = `Bearer ${token}`
  let body: BodyInit | undefined
  if (json !== undefined) {
    h['content-type'] = 'application/json'
    body = JSON.stringify(json)
  } else if (form) body = form
  const res = await app.request(`/api/v1/${url}`, { method, headers: h, body })
  const text = await res.text()
  // Whatever the endpoint, a password hash never leaves the server.
  expect(text).not.toMatch(/\$argon2|password_?hash/i)
  return { status: res.status, headers: res.headers, body: JSON.parse(text) as Answer['body'] }
}

const dataOf = <T>(answer: Answer) => answer.body.data as T

/** The 6-digit code of the newest email to this address in the outbox. */
async function latestCode(to: string): Promise<string> {
  const dir = services.env.MAIL_OUTBOX_DIR
  // Newest first: the file names start with the time they were written.
  const files = (await readdir(dir)).filter((f) => f.endsWith('.eml')).sort((a, b) => b.localeCompare(a))
  for (const file of files) {
    const mail = await simpleParser(await readFile(path.join(dir, file)))
    const recipients = (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) => a.value.map((v) => v.address))
    if (!recipients.includes(to)) continue
    const code = /^\s*(\d{6})\s*$/m.exec(mail.text ?? '')?.[1]
    if (!code) throw new Error(`no code in ${file}`)
    return code
  }
  throw new Error(`no email to ${to}`)
}

async function outboxCount(to: string): Promise<number> {
  let n = 0
  const dir = services.env.MAIL_OUTBOX_DIR
  for (const file of await readdir(dir).catch(() => [])) {
    const mail = await simpleParser(await readFile(path.join(dir, file)))
    const recipients = (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) => a.value.map((v) => v.address))
    if (recipients.includes(to)) n += 1
  }
  return n
}

// The limits of sign-in.server.ts (LOGINS_PER_15_MIN_PER_ACCOUNT, LOGINS_PER_15_MIN_PER_IP).
const LOGINS_PER_15_MIN_PER_ACCOUNT = 10
const LOGINS_PER_15_MIN_PER_IP = 50

const otherCode = (code: string) => code.slice(0, 5) + String((Number(code[5]) + 1) % 10)

/** Moves the clock past the 60-second wait between two codes (Date only: the database's own timers keep running). */
function waitForNextCode() {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(Date.now() + 61_000)
}
afterEach(() => {
  vi.useRealTimers()
})

let userCounter = 0
function newTeacher() {
  userCounter += 1
  return {
    username: `teacher_${userCounter}`,
    email: `teacher${userCounter}@example.sa`,
    phone: '0551234567',
    password: 'Kx9-ridge-Lamp',
    password_confirmation: 'Kx9-ridge-Lamp',
    terms: true,
  }
}

type UserJson = {
  id: string
  username: string
  full_name_ar: string | null
  full_name_en: string | null
  email: string
  phone: string
  avatar_url: string | null
  email_verified_at: string | null
  created_at: string
  subscription: { package: { id: number; name: string }; starts_at: string; ends_at: string } | null
}

/** A registered, activated teacher and an API token, made through the API itself. */
async function activatedTeacher() {
  const teacher = newTeacher()
  expect((await call('POST', 'auth/register', { json: teacher })).status).toBe(201)
  const activated = await call('POST', 'auth/activate', { json: { email: teacher.email, code: await latestCode(teacher.email) } })
  expect(activated.status).toBe(200)
  const { token, user } = dataOf<{ token: string; user: UserJson }>(activated)
  return { ...teacher, token, user }
}

const png = () =>
  sharp({ create: { width: 10, height: 10, channels: 3, background: { r: 15, g: 93, b: 82 } } })
    .png()
    .toBuffer()

describe('registration and activation', () => {
  it('registers (201), emails a code, activates with it and the token opens the profile', async () => {
    const teacher = newTeacher()
    const registered = await call('POST', 'auth/register', { json: teacher, lang: 'en' })
    expect(registered.status).toBe(201)
    expect(registered.body.message).toBe('Registration successful, please activate the code')
    const { user } = dataOf<{ user: UserJson }>(registered)
    expect(Object.keys(user).sort()).toEqual([
      'avatar_url',
      'created_at',
      'email',
      'email_verified_at',
      'full_name_ar',
      'full_name_en',
      'id',
      'phone',
      'subscription',
      'username',
    ])
    expect(user).toMatchObject({
      username: teacher.username,
      full_name_ar: null,
      full_name_en: null,
      email: teacher.email,
      phone: '+966551234567',
      avatar_url: null,
      email_verified_at: null,
      subscription: null,
    })

    const code = await latestCode(teacher.email)
    expect(code).toMatch(/^\d{6}$/)
    const activated = await call('POST', 'auth/activate', { json: { email: teacher.email, code }, lang: 'en' })
    expect(activated.status).toBe(200)
    expect(activated.body.message).toBe('Activation successful')
    const { token, user: active } = dataOf<{ token: string; user: UserJson }>(activated)
    expect(token.length).toBeGreaterThanOrEqual(43)
    expect(active.email_verified_at).not.toBeNull()

    const profile = await call('GET', 'auth/profile', { token })
    expect(profile.status).toBe(200)
    expect(dataOf<{ user: UserJson }>(profile).user).toMatchObject({ id: user.id, email: teacher.email })

    const again = await call('POST', 'auth/activate', { json: { email: teacher.email, code }, lang: 'en' })
    expect(again.status).toBe(409)
    expect(again.body.message).toBe('This account is already activated')
  })

  it('shows the subscription in force in the user object, its package named in the request’s language, and null once it ended', async () => {
    const db = testDb().db
    const teacher = await subscribedTeacher(db)
    const { token } = await createSession({ db, secret: services.env.SESSION_SECRET, userId: teacher.id, kind: 'api' })
    const [subscription] = await db.select().from(subscriptions).where(eq(subscriptions.userId, teacher.id))
    const [pkg] = await db.select().from(packages).where(eq(packages.id, subscription!.packageId))
    const profile = async (lang: 'ar' | 'en') =>
      dataOf<{ user: UserJson }>(await call('GET', 'auth/profile', { token, lang })).user.subscription
    expect(await profile('en')).toEqual({
      package: { id: pkg!.id, name: pkg!.nameEn },
      starts_at: subscription!.startsAt.toISOString(),
      ends_at: subscription!.endsAt.toISOString(),
    })
    expect((await profile('ar'))?.package.name).toBe(pkg!.nameAr)
    await db
      .update(subscriptions)
      .set({ endsAt: new Date(Date.now() - 60_000) })
      .where(eq(subscriptions.id, subscription!.id))
    expect(await profile('en')).toBeNull()
  })

  it('answers in Arabic by default and keeps the request language as the account language', async () => {
    const teacher = newTeacher()
    const registered = await call('POST', 'auth/register', { json: teacher })
    expect(registered.body.message).toBe('أنشأنا حسابك. أدخل الرمز المرسل إلى بريدك لتفعيله.')
    const rows = await testDb().db.select({ email: users.email, lang: users.lang }).from(users)
    expect(rows.find((r) => r.email === teacher.email)?.lang).toBe('ar')
    const en = newTeacher()
    await call('POST', 'auth/register', { json: en, lang: 'en' })
    const after = await testDb().db.select({ email: users.email, lang: users.lang }).from(users)
    expect(after.find((r) => r.email === en.email)?.lang).toBe('en')
  })

  it('accepts a multipart form with a picture', async () => {
    const teacher = newTeacher()
    const form = new FormData()
    for (const [k, v] of Object.entries({ ...teacher, terms: 'on' })) form.set(k, String(v))
    form.set('avatar', new File([await png()], 'me.png', { type: 'image/png' }))
    const registered = await call('POST', 'auth/register', { form, lang: 'en' })
    expect(registered.status).toBe(201)
    expect(dataOf<{ user: UserJson }>(registered).user.avatar_url).toMatch(/^\/files\/avatars\/[0-9a-f-]{36}\.webp$/)
  })

  it('gives the product messages for each invalid field, in English and Arabic', async () => {
    const empty = await call('POST', 'auth/register', { json: {}, lang: 'en' })
    expect(empty.status).toBe(422)
    expect(empty.body.message).toBe('Please check the highlighted fields')
    expect(empty.body.errors).toEqual({
      username: ['Username is required'],
      email: ['Email is required'],
      phone: ['Mobile number is required'],
      password: ['Password is required'],
      password_confirmation: ['Confirm Password is required'],
      terms: ['You must accept the terms and conditions'],
    })

    const bad = await call('POST', 'auth/register', {
      json: { ...newTeacher(), email: 'not-an-email', password: 'Ab1', password_confirmation: 'Ab1', terms: false },
      lang: 'en',
    })
    expect(bad.body.errors).toEqual({
      email: ['Invalid email address'],
      password: ['Password must be at least 8 characters'],
      terms: ['You must accept the terms and conditions'],
    })

    const mismatch = await call('POST', 'auth/register', { json: { ...newTeacher(), password_confirmation: 'Kx9-ridge-Lamq' }, lang: 'en' })
    expect(mismatch.body.errors).toEqual({ password_confirmation: ['Password and Confirm Password must match'] })

    const ar = await call('POST', 'auth/register', {
      json: { ...newTeacher(), email: 'not-an-email', password: 'Ab1', password_confirmation: 'Ab1' },
    })
    expect(ar.status).toBe(422)
    expect(ar.body.message).toBe('تحقق من الحقول المظللة')
    expect(ar.body.errors).toEqual({ email: ['البريد الإلكتروني غير صالح'], password: ['يجب ألا تقل كلمة المرور عن 8 أحرف'] })
  })

  it('answers a JSON body that is not an object (a list, null) with the general 422 in the request’s language, never a 500', async () => {
    for (const json of [[], null, 7]) {
      const list = await call('POST', 'auth/login', { json, lang: 'en' })
      expect(list.status).toBe(422)
      expect(list.body.errors).toEqual({ _form: ['Please check the highlighted fields'] })
    }
    const ar = await call('POST', 'contact', { json: [] })
    expect(ar.status).toBe(422)
    expect(ar.body.errors).toEqual({ _form: ['تحقق من الحقول المظللة'] })
  })

  it('refuses a common password, whatever its case', async () => {
    const teacher = { ...newTeacher(), password: 'Password1', password_confirmation: 'Password1' }
    const res = await call('POST', 'auth/register', { json: teacher, lang: 'en' })
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual({ password: ['This password is too common. Choose another one.'] })
  })

  it('refuses an email that is already registered', async () => {
    const first = newTeacher()
    expect((await call('POST', 'auth/register', { json: first })).status).toBe(201)
    const res = await call('POST', 'auth/register', { json: { ...newTeacher(), email: first.email.toUpperCase() }, lang: 'en' })
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual({ email: ['This email is already registered'] })
  })

  it('asks to wait 60 s before sending another code (429 with Retry-After)', async () => {
    const teacher = newTeacher()
    await call('POST', 'auth/register', { json: teacher })
    const res = await call('POST', 'auth/resend-code', { json: { email: teacher.email, purpose: 'activation' }, lang: 'en' })
    expect(res.status).toBe(429)
    expect(res.body.message).toBe('Please wait before asking for another code')
    const retryAfter = Number(res.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(60)
  })

  it('sends a new activation code after 60 s; only the newest one works', async () => {
    const teacher = newTeacher()
    await call('POST', 'auth/register', { json: teacher })
    const first = await latestCode(teacher.email)
    waitForNextCode()
    const resent = await call('POST', 'auth/resend-code', { json: { email: teacher.email, purpose: 'activation' }, lang: 'en' })
    expect(resent.status).toBe(200)
    expect(resent.body).toEqual({ message: 'A new code has been sent', data: null })
    expect(await outboxCount(teacher.email)).toBe(2)
    const second = await latestCode(teacher.email)
    expect((await call('POST', 'auth/activate', { json: { email: teacher.email, code: first } })).status).toBe(422)
    expect((await call('POST', 'auth/activate', { json: { email: teacher.email, code: second } })).status).toBe(200)
  })

  it('answers an unknown email or purpose like the others', async () => {
    const unknown = await call('POST', 'auth/resend-code', { json: { email: 'nobody@example.sa', purpose: 'activation' }, lang: 'en' })
    expect(unknown.status).toBe(200)
    expect(unknown.body).toEqual({ message: 'A new code has been sent', data: null })
    const wrongPurpose = await call('POST', 'auth/resend-code', { json: { email: 'nobody@example.sa', purpose: 'spam' }, lang: 'en' })
    expect(wrongPurpose.body.errors).toEqual({ purpose: ['Unknown purpose'] })
  })
})

describe('login and logout', () => {
  it('refuses an account that is not activated with 403 and says so', async () => {
    const teacher = newTeacher()
    await call('POST', 'auth/register', { json: teacher })
    const en = await call('POST', 'auth/login', { json: { email: teacher.email, password: teacher.password }, lang: 'en' })
    expect(en.status).toBe(403)
    expect(en.body).toEqual({ message: 'Your account is not activated yet. Enter the code we emailed you, or ask for a new one.' })
    const ar = await call('POST', 'auth/login', { json: { email: teacher.email, password: teacher.password } })
    expect(ar.body.message).toBe('حسابك غير مفعّل بعد. أدخل الرمز الذي أرسلناه إلى بريدك، أو اطلب رمزاً جديداً.')
  })

  it('logs in with {token, user} and refuses a wrong password with 401', async () => {
    const teacher = await activatedTeacher()
    const res = await call('POST', 'auth/login', { json: { email: teacher.email.toUpperCase(), password: teacher.password }, lang: 'en' })
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('Login successful')
    expect(dataOf<{ user: UserJson }>(res).user.id).toBe(teacher.user.id)
    const wrong = await call('POST', 'auth/login', { json: { email: teacher.email, password: 'Wrong-Password-1' }, lang: 'en' })
    expect(wrong.status).toBe(401)
    expect(wrong.body.message).toBe('The email or password is incorrect')
    const wrongAr = await call('POST', 'auth/login', { json: { email: teacher.email, password: 'Wrong-Password-1' } })
    expect(wrongAr.body.message).toBe('البريد الإلكتروني أو كلمة المرور غير صحيحة')
  })

  it('logout revokes this token only', async () => {
    const teacher = await activatedTeacher()
    const login = await call('POST', 'auth/login', { json: { email: teacher.email, password: teacher.password } })
    const { token } = dataOf<{ token: string }>(login)
    const out = await call('POST', 'auth/logout', { token, lang: 'en' })
    expect(out.status).toBe(200)
    expect(out.body).toEqual({ message: 'Logout successful', data: null })
    expect(out.headers.get('clear-site-data')).toBe('"cache", "storage"')
    expect((await call('GET', 'auth/profile', { token })).status).toBe(401)
    expect((await call('POST', 'auth/logout', { token })).status).toBe(401)
    expect((await call('GET', 'auth/profile', { token: teacher.token })).status).toBe(200)
  })

  it('with two-step verification on, answers a two-factor token instead of a token; auth/login/two-factor ends the sign-in', async () => {
    const teacher = await activatedTeacher()
    const ctx = testContext(testDb(), { env: services.env, logger: services.logger, mailer: services.mailer, files: services.files })
    const [row] = await testDb().db.select().from(users).where(eq(users.id, teacher.user.id))
    const { key } = await startTotpEnrolment({ ...ctx, user: row! })
    const [pending] = await testDb().db.select().from(users).where(eq(users.id, teacher.user.id))
    const recovery = await confirmTotpEnrolment({ ...ctx, user: pending!, input: { code: hotp(base32Decode(key)!, totpStep(new Date())) } })
    const appCode = () => hotp(base32Decode(key)!, totpStep(new Date()) + 1)

    const login = await call('POST', 'auth/login', { json: { email: teacher.email, password: teacher.password }, lang: 'en' })
    expect(login.status).toBe(200)
    expect(login.body.message).toBe('Enter the code from your authenticator app')
    const { two_factor_token: challenge, ...rest } = dataOf<{ two_factor_required: boolean; two_factor_token: string }>(login)
    expect(rest).toEqual({ two_factor_required: true })
    expect(challenge).toMatch(/^[\w-]{43}$/)

    const malformed = await call('POST', 'auth/login/two-factor', { json: { two_factor_token: challenge, code: '12' }, lang: 'en' })
    expect(malformed.status).toBe(422)
    expect(malformed.body.errors).toEqual({ code: ['Enter the 6 digits from the app, or a recovery code'] })
    const wrong = await call('POST', 'auth/login/two-factor', {
      json: { two_factor_token: challenge, code: appCode() === '000000' ? '111111' : '000000' },
    })
    expect(wrong.status).toBe(422)
    expect(wrong.body.errors).toEqual({ code: ['الرمز غير صحيح أو سبق استخدامه'] })
    const right = await call('POST', 'auth/login/two-factor', { json: { two_factor_token: challenge, code: appCode() }, lang: 'en' })
    expect(right.status).toBe(200)
    const { token, user } = dataOf<{ token: string; user: UserJson }>(right)
    expect(user.id).toBe(teacher.user.id)
    expect((await call('GET', 'auth/profile', { token })).status).toBe(200)
    // The challenge is spent; a recovery code ends a new one.
    expect((await call('POST', 'auth/login/two-factor', { json: { two_factor_token: challenge, code: recovery[0] } })).status).toBe(422)
    const again = dataOf<{ two_factor_token: string }>(
      await call('POST', 'auth/login', { json: { email: teacher.email, password: teacher.password } }),
    )
    expect(
      (await call('POST', 'auth/login/two-factor', { json: { two_factor_token: again.two_factor_token, code: recovery[0] } })).status,
    ).toBe(200)
  })

  it('refuses and revokes a token left unused for longer than SESSION_IDLE_DAYS (401)', async () => {
    const teacher = await activatedTeacher()
    const login = await call('POST', 'auth/login', { json: { email: teacher.email, password: teacher.password } })
    const { token } = dataOf<{ token: string }>(login)
    const idle = services.env.SESSION_IDLE_DAYS
    expect(idle).toBe(7)
    const tokensOf = async () =>
      (await testDb().db.select({ lastSeenAt: sessions.lastSeenAt }).from(sessions).where(eq(sessions.userId, teacher.user.id))).length
    const before = await tokensOf()
    // Unused for a day short of the limit: still good. Unused for longer: refused, and gone.
    await testDb()
      .db.update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - (idle - 1) * 86_400_000) })
      .where(eq(sessions.userId, teacher.user.id))
    expect((await call('GET', 'auth/profile', { token })).status).toBe(200)
    await testDb()
      .db.update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - (idle + 0.1) * 86_400_000) })
      .where(eq(sessions.userId, teacher.user.id))
    const refused = await call('GET', 'auth/profile', { token, lang: 'en' })
    expect(refused.status).toBe(401)
    expect(await tokensOf()).toBe(before - 1)
    expect((await call('GET', 'auth/profile', { token: teacher.token })).status).toBe(401)
    expect(await tokensOf()).toBe(before - 2)
  })

  it(`limits logins to ${LOGINS_PER_15_MIN_PER_ACCOUNT} per account (429 with Retry-After)`, async () => {
    const teacher = await activatedTeacher()
    for (let i = 0; i < LOGINS_PER_15_MIN_PER_ACCOUNT; i++)
      expect((await call('POST', 'auth/login', { json: { email: teacher.email, password: 'Wrong-Password-1' } })).status).toBe(401)
    const limited = await call('POST', 'auth/login', { json: { email: teacher.email, password: teacher.password }, lang: 'en' })
    expect(limited.status).toBe(429)
    expect(limited.body.message).toBe('Too many attempts. Please try again later.')
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  it(`limits logins to ${LOGINS_PER_15_MIN_PER_IP} per address, whatever the account`, async () => {
    for (let i = 0; i < LOGINS_PER_15_MIN_PER_IP; i++)
      expect((await call('POST', 'auth/login', { json: { email: `guess${i}@example.sa`, password: 'Wrong-Password-1' } })).status).toBe(401)
    const limited = await call('POST', 'auth/login', { json: { email: 'guess-last@example.sa', password: 'Wrong-Password-1' } })
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})

describe('authentication', () => {
  const authenticated: Array<[string, string]> = [
    ['POST', 'auth/logout'],
    ['GET', 'auth/profile'],
    ['PATCH', 'auth/profile'],
    ['POST', 'auth/change-password'],
    ['POST', 'auth/change-email'],
    ['GET', 'notifications'],
    ['POST', 'notifications/read-all'],
    ['POST', 'notifications/00000000-0000-4000-8000-000000000000/read'],
    ['POST', 'reviews'],
  ]

  it('answers 401 on every authenticated endpoint without a token or with a bad one', async () => {
    for (const [method, url] of authenticated) {
      const json = method === 'GET' ? undefined : {}
      const none = await call(method, url, { json, lang: 'en' })
      expect([method, url, none.status]).toEqual([method, url, 401])
      expect(none.body).toEqual({ message: 'Login is required' })
      const bad = await call(method, url, { json, token: 'x'.repeat(43) })
      expect([method, url, bad.status]).toEqual([method, url, 401])
      expect(bad.body).toEqual({ message: 'تسجيل الدخول مطلوب' })
    }
  })

  it('never accepts the web session, in a cookie or as a bearer token', async () => {
    const teacher = await activatedTeacher()
    const { token } = await createSession({ db: testDb().db, secret: services.env.SESSION_SECRET, userId: teacher.user.id, kind: 'web' })
    expect((await call('GET', 'auth/profile', { headers: { cookie: `${sessionCookieName(services.env)}=${token}` } })).status).toBe(401)
    expect((await call('GET', 'auth/profile', { token })).status).toBe(401)
  })
})

describe('password reset', () => {
  it('answers the same for a known, an inactive and an unknown email', async () => {
    const known = await activatedTeacher()
    const inactive = newTeacher()
    await call('POST', 'auth/register', { json: inactive })
    const answers = []
    for (const email of [known.email, inactive.email, 'nobody@example.sa']) {
      const res = await call('POST', 'auth/forgot-password', { json: { email }, lang: 'en' })
      expect(res.status).toBe(200)
      expect(res.body.message).toBe('Password reset email sent successfully')
      expect(Object.keys(res.body.data as object)).toEqual(['temporary_token'])
      answers.push(dataOf<{ temporary_token: string }>(res).temporary_token.length)
    }
    expect(new Set(answers).size).toBe(1)
    expect(await outboxCount('nobody@example.sa')).toBe(0)
  })

  it('resets through the emailed code; the old password and every old token stop working', async () => {
    const teacher = await activatedTeacher()
    const forgot = await call('POST', 'auth/forgot-password', { json: { email: teacher.email } })
    const first = dataOf<{ temporary_token: string }>(forgot).temporary_token
    const verified = await call('POST', 'auth/verify-code', {
      json: { temporary_token: first, code: await latestCode(teacher.email) },
      lang: 'en',
    })
    expect(verified.status).toBe(200)
    const second = dataOf<{ temporary_token: string }>(verified).temporary_token
    expect(second).not.toBe(first)

    // The first token only checks a code; only the second may set the password.
    const early = await call('POST', 'auth/reset-password', {
      json: { temporary_token: first, password: 'New-Harbor-42', password_confirmation: 'New-Harbor-42' },
      lang: 'en',
    })
    expect(early.status).toBe(422)
    expect(early.body.errors).toEqual({ temporary_token: ['This reset link has expired. Please start again.'] })
    const common = await call('POST', 'auth/reset-password', {
      json: { temporary_token: second, password: 'Password1', password_confirmation: 'Password1' },
    })
    expect(common.status).toBe(422)

    const reset = await call('POST', 'auth/reset-password', {
      json: { temporary_token: second, password: 'New-Harbor-42', password_confirmation: 'New-Harbor-42' },
      lang: 'en',
    })
    expect(reset.status).toBe(200)
    expect(reset.body).toEqual({ message: 'Password reset successfully', data: null })

    expect((await call('GET', 'auth/profile', { token: teacher.token })).status).toBe(401)
    expect((await call('POST', 'auth/login', { json: { email: teacher.email, password: teacher.password } })).status).toBe(401)
    expect((await call('POST', 'auth/login', { json: { email: teacher.email, password: 'New-Harbor-42' } })).status).toBe(200)
    expect(
      (
        await call('POST', 'auth/reset-password', {
          json: { temporary_token: second, password: 'Other-Harbor-43', password_confirmation: 'Other-Harbor-43' },
        })
      ).status,
    ).toBe(422)
  })

  it('ends the code after five wrong tries', async () => {
    const teacher = await activatedTeacher()
    const forgot = await call('POST', 'auth/forgot-password', { json: { email: teacher.email } })
    const token = dataOf<{ temporary_token: string }>(forgot).temporary_token
    const code = await latestCode(teacher.email)
    const tries = []
    for (let i = 0; i < 5; i++)
      tries.push(await call('POST', 'auth/verify-code', { json: { temporary_token: token, code: otherCode(code) }, lang: 'en' }))
    expect(tries.map((t) => t.status)).toEqual([422, 422, 422, 422, 422])
    expect(tries.slice(0, 4).map((t) => t.body.errors?.code)).toEqual(Array.from({ length: 4 }, () => ['The code is incorrect']))
    expect(tries[4]?.body.errors).toEqual({ code: ['Too many wrong attempts. Ask for a new code.'] })
    const right = await call('POST', 'auth/verify-code', { json: { temporary_token: token, code }, lang: 'en' })
    expect(right.status).toBe(422)
    expect(right.body.errors).toEqual({ code: ['The code has expired or was already used. Ask for a new one.'] })
  })

  it('ends an unknown email flow after five tries too', async () => {
    const forgot = await call('POST', 'auth/forgot-password', { json: { email: 'ghost@example.sa' } })
    const token = dataOf<{ temporary_token: string }>(forgot).temporary_token
    const tries = []
    for (let i = 0; i < 5; i++)
      tries.push(await call('POST', 'auth/verify-code', { json: { temporary_token: token, code: '123456' }, lang: 'en' }))
    expect(tries.map((t) => t.body.errors?.code?.[0])).toEqual([
      ...Array.from({ length: 4 }, () => 'The code is incorrect'),
      'Too many wrong attempts. Ask for a new code.',
    ])
  })
})

describe('account changes', () => {
  it('changes the password in two steps and hands back a new token', async () => {
    const teacher = await activatedTeacher()
    const change = { current_password: teacher.password, password: 'Fresh-Olive-77', password_confirmation: 'Fresh-Olive-77' }
    const wrong = await call('POST', 'auth/change-password', {
      json: { ...change, current_password: 'Not-It-123' },
      token: teacher.token,
      lang: 'en',
    })
    expect(wrong.status).toBe(422)
    expect(wrong.body.errors).toEqual({ current_password: ['The password is incorrect'] })

    const step1 = await call('POST', 'auth/change-password', { json: change, token: teacher.token, lang: 'en' })
    expect(step1.status).toBe(200)
    expect(step1.body).toEqual({ message: 'We sent a code to your email', data: null })
    const step2 = await call('POST', 'auth/change-password', {
      json: { code: await latestCode(teacher.email) },
      token: teacher.token,
      lang: 'en',
    })
    expect(step2.status).toBe(200)
    expect(step2.body.message).toBe('Password changed successfully')
    const { token } = dataOf<{ token: string }>(step2)

    expect((await call('GET', 'auth/profile', { token: teacher.token })).status).toBe(401)
    expect((await call('GET', 'auth/profile', { token })).status).toBe(200)
    expect((await call('POST', 'auth/login', { json: { email: teacher.email, password: 'Fresh-Olive-77' } })).status).toBe(200)
    expect((await call('POST', 'auth/login', { json: { email: teacher.email, password: teacher.password } })).status).toBe(401)
  })

  it('changes the email in two steps, with the code sent to the new address', async () => {
    const teacher = await activatedTeacher()
    const newEmail = `new-${teacher.email}`
    const before = await outboxCount(teacher.email)
    const step1 = await call('POST', 'auth/change-email', {
      json: { email: newEmail, password: teacher.password },
      token: teacher.token,
      lang: 'en',
    })
    expect(step1.status).toBe(200)
    expect(step1.body.message).toBe('We sent a code to your email')
    expect(await outboxCount(teacher.email)).toBe(before)
    const step2 = await call('POST', 'auth/change-email', { json: { code: await latestCode(newEmail) }, token: teacher.token, lang: 'en' })
    expect(step2.status).toBe(200)
    expect(dataOf<{ user: UserJson }>(step2).user.email).toBe(newEmail)
    const profile = await call('GET', 'auth/profile', { token: teacher.token })
    expect(dataOf<{ user: UserJson }>(profile).user.email).toBe(newEmail)
    expect((await call('POST', 'auth/login', { json: { email: newEmail, password: teacher.password } })).status).toBe(200)
  })

  it('resends a change code to its owner only (the bearer token says who asks)', async () => {
    const teacher = await activatedTeacher()
    const newEmail = `moved-${teacher.email}`
    await call('POST', 'auth/change-email', { json: { email: newEmail, password: teacher.password }, token: teacher.token })
    waitForNextCode()
    const anonymous = await call('POST', 'auth/resend-code', { json: { email: teacher.email, purpose: 'change_email' } })
    expect(anonymous.status).toBe(200)
    expect(await outboxCount(newEmail)).toBe(1)
    const owner = await call('POST', 'auth/resend-code', { json: { email: teacher.email, purpose: 'change_email' }, token: teacher.token })
    expect(owner.status).toBe(200)
    expect(await outboxCount(newEmail)).toBe(2)
    const confirmed = await call('POST', 'auth/change-email', { json: { code: await latestCode(newEmail) }, token: teacher.token })
    expect(dataOf<{ user: UserJson }>(confirmed).user.email).toBe(newEmail)
  })

  it('updates the profile with JSON or a form with a picture, and refuses a file that is not a picture', async () => {
    const teacher = await activatedTeacher()
    const phone = await call('PATCH', 'auth/profile', { json: { phone: '٠٥٠١٢٣٤٥٦٧' }, token: teacher.token, lang: 'en' })
    expect(phone.status).toBe(200)
    expect(phone.body.message).toBe('Data saved successfully')
    expect(dataOf<{ user: UserJson }>(phone).user.phone).toBe('+966501234567')

    const form = new FormData()
    form.set('username', `${teacher.username}_renamed`)
    form.set('avatar', new File([await png()], 'me.png', { type: 'image/png' }))
    const updated = await call('PATCH', 'auth/profile', { form, token: teacher.token })
    expect(updated.status).toBe(200)
    const user = dataOf<{ user: UserJson }>(updated).user
    expect(user.username).toBe(`${teacher.username}_renamed`)
    expect(user.avatar_url).toMatch(/^\/files\/avatars\/[0-9a-f-]{36}\.webp$/)

    const notPicture = new FormData()
    notPicture.set('avatar', new File(['just some text'], 'photo.png', { type: 'image/png' }))
    const refused = await call('PATCH', 'auth/profile', { form: notPicture, token: teacher.token, lang: 'en' })
    expect(refused.status).toBe(422)
    expect(refused.body.errors).toEqual({ avatar: ['The picture must be a PNG, JPEG or WebP image'] })

    const invalid = await call('PATCH', 'auth/profile', { json: { phone: '123' }, token: teacher.token, lang: 'en' })
    expect(invalid.body.errors).toEqual({ phone: ['Enter a Saudi mobile number, e.g. 05xxxxxxxx'] })
  })

  it('sets, changes and clears the full names, in JSON or a form, and refuses a name in the wrong letters', async () => {
    const teacher = await activatedTeacher()
    expect(teacher.user).toMatchObject({ full_name_ar: null, full_name_en: null })
    const named = await call('PATCH', 'auth/profile', {
      json: { full_name_ar: ' نورة  بنت سعد العتيبي', full_name_en: 'Noura Saad Alotaibi' },
      token: teacher.token,
      lang: 'en',
    })
    expect(named.status).toBe(200)
    expect(dataOf<{ user: UserJson }>(named).user).toMatchObject({
      username: teacher.username,
      full_name_ar: 'نورة بنت سعد العتيبي',
      full_name_en: 'Noura Saad Alotaibi',
    })
    expect(dataOf<{ user: UserJson }>(await call('GET', 'auth/profile', { token: teacher.token })).user).toMatchObject({
      full_name_ar: 'نورة بنت سعد العتيبي',
      full_name_en: 'Noura Saad Alotaibi',
    })

    // Left out: kept. Null (JSON) or empty (a form): cleared.
    const phoneOnly = await call('PATCH', 'auth/profile', { json: { phone: '0501234567' }, token: teacher.token })
    expect(dataOf<{ user: UserJson }>(phoneOnly).user.full_name_en).toBe('Noura Saad Alotaibi')
    expect(
      dataOf<{ user: UserJson }>(await call('PATCH', 'auth/profile', { json: { full_name_en: null }, token: teacher.token })).user
        .full_name_en,
    ).toBeNull()
    const form = new FormData()
    form.set('full_name_ar', '')
    expect(dataOf<{ user: UserJson }>(await call('PATCH', 'auth/profile', { form, token: teacher.token })).user.full_name_ar).toBeNull()

    const wrong = await call('PATCH', 'auth/profile', {
      json: { full_name_ar: 'Noura', full_name_en: 'نورة' },
      token: teacher.token,
      lang: 'en',
    })
    expect(wrong.status).toBe(422)
    expect(wrong.body.errors).toEqual({
      full_name_ar: ['Write the name in Arabic letters'],
      full_name_en: ['Write the name in English letters'],
    })
    const [row] = await testDb()
      .db.select({ ar: users.fullNameAr, askedAt: users.fullNameAskedAt })
      .from(users)
      .where(eq(users.id, teacher.user.id))
    expect(row).toMatchObject({ ar: null })
    expect(row?.askedAt).toBeInstanceOf(Date)
  })

  it('takes a picture body over 64 KB, refuses one over 2 MB with 422 and a body over 3 MB with 413', async () => {
    const teacher = await activatedTeacher()
    const big = await sharp(randomBytes(400 * 400 * 3), { raw: { width: 400, height: 400, channels: 3 } })
      .png()
      .toBuffer()
    expect(big.length).toBeGreaterThan(64 * 1024)
    const fine = new FormData()
    fine.set('avatar', new File([big], 'big.png', { type: 'image/png' }))
    expect((await call('PATCH', 'auth/profile', { form: fine, token: teacher.token })).status).toBe(200)

    const header = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    const overTwo = new Uint8Array(2.5 * 1024 * 1024)
    overTwo.set(header)
    const form = new FormData()
    form.set('avatar', new File([overTwo], 'huge.png', { type: 'image/png' }))
    const refused = await call('PATCH', 'auth/profile', { form, token: teacher.token, lang: 'en' })
    expect(refused.status).toBe(422)
    expect(refused.body.errors).toEqual({ avatar: ['The picture must be at most 2 MB'] })

    const overThree = new FormData()
    overThree.set('avatar', new File([new Uint8Array(3.5 * 1024 * 1024)], 'huge.png', { type: 'image/png' }))
    const tooLarge = await call('PATCH', 'auth/profile', { form: overThree, token: teacher.token, lang: 'en' })
    expect(tooLarge.status).toBe(413)
    expect(tooLarge.body).toEqual({ message: 'The request is larger than allowed' })
    expect((await call('POST', 'auth/login', { json: { email: teacher.email, password: 'x'.repeat(70 * 1024) } })).status).toBe(413)
  })
})

describe('notifications', () => {
  type NotificationJson = { id: string; kind: string; title: string; body: string; read_at: string | null; created_at: string }

  it('lists the welcome notification in the request language and marks it read', async () => {
    const teacher = await activatedTeacher()
    const en = await call('GET', 'notifications', { token: teacher.token, lang: 'en' })
    expect(en.status).toBe(200)
    const list = dataOf<NotificationJson[]>(en)
    expect(list).toHaveLength(1)
    expect(Object.keys(list[0]!).sort()).toEqual(['body', 'created_at', 'id', 'kind', 'read_at', 'title'])
    expect(list[0]).toMatchObject({ kind: 'welcome', title: `Welcome to Hallil, ${teacher.username}`, read_at: null })
    const ar = dataOf<NotificationJson[]>(await call('GET', 'notifications', { token: teacher.token }))
    expect(ar[0]?.title).toBe(`مرحباً بك في حلّل يا ${teacher.username}`)

    const read = await call('POST', `notifications/${list[0]!.id}/read`, { token: teacher.token })
    expect(read.status).toBe(200)
    expect(read.body.data).toBeNull()
    const after = dataOf<NotificationJson[]>(await call('GET', 'notifications', { token: teacher.token }))
    expect(after[0]?.read_at).not.toBeNull()
    expect((await call('POST', 'notifications/read-all', { token: teacher.token })).status).toBe(200)
  })

  it('lists newest first and answers 404 for another teacher’s notification or a malformed id', async () => {
    const owner = await activatedTeacher()
    const change = { current_password: owner.password, password: 'Fresh-Olive-77', password_confirmation: 'Fresh-Olive-77' }
    await call('POST', 'auth/change-password', { json: change, token: owner.token })
    const changed = await call('POST', 'auth/change-password', { json: { code: await latestCode(owner.email) }, token: owner.token })
    const ownerToken = dataOf<{ token: string }>(changed).token
    const list = dataOf<NotificationJson[]>(await call('GET', 'notifications', { token: ownerToken, lang: 'en' }))
    expect(list.map((n) => n.kind)).toEqual(['password_changed', 'welcome'])

    const other = await activatedTeacher()
    const res = await call('POST', `notifications/${list[0]!.id}/read`, { token: other.token, lang: 'en' })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ message: 'The requested resource was not found' })
    for (const id of ['not-a-uuid', 'a'.repeat(36), '-'.repeat(36)])
      expect((await call('POST', `notifications/${id}/read`, { token: other.token })).status).toBe(404)
    const still = dataOf<NotificationJson[]>(await call('GET', 'notifications', { token: ownerToken }))
    expect(still[0]?.read_at).toBeNull()
  })
})

describe('reviews', () => {
  type ReviewJson = { id: string; rating: number; comment: string; username: string; created_at: string }

  it('keeps a review pending until it is approved', async () => {
    const teacher = await activatedTeacher()
    const invalid = await call('POST', 'reviews', { json: { rating: 6, comment: '' }, token: teacher.token, lang: 'en' })
    expect(invalid.status).toBe(422)
    expect(invalid.body.errors).toEqual({ rating: ['Choose a rating from 1 to 5'], comment: ['Write a comment'] })

    const created = await call('POST', 'reviews', {
      json: { rating: 5, comment: 'Saves me hours every term.' },
      token: teacher.token,
      lang: 'en',
    })
    expect(created.status).toBe(201)
    expect(created.body.message).toBe('Thank you for your comment')
    const review = dataOf<{ id: string }>(created)
    expect(review).toEqual({ id: expect.any(String), rating: 5, comment: 'Saves me hours every term.', status: 'pending' })

    const before = dataOf<ReviewJson[]>(await call('GET', 'reviews'))
    expect(before.map((r) => r.id)).not.toContain(review.id)
    expect(await decideReview({ db: testDb().db, id: review.id, status: 'approved' })).toBe(true)
    const after = dataOf<ReviewJson[]>(await call('GET', 'reviews'))
    const listed = after.find((r) => r.id === review.id)
    expect(listed).toEqual({
      id: review.id,
      rating: 5,
      comment: 'Saves me hours every term.',
      username: teacher.username,
      created_at: expect.any(String),
    })
  })
})
