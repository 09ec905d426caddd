import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { createReview, listApprovedReviews } from '#app/features/accounts/index.server.ts'
import { OPERATOR_WRITES_PER_HOUR } from '#app/features/operators/index.server.ts'
import type { RequestContext } from '#app/platform/context.server.ts'
import { contactMessages, notifications, operatorAudit, rateLimits, users } from '#app/platform/db/schema.ts'
import { apiTestApp } from '#tests/api-app.ts'
import { testContext, testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { clearOutbox, mailsTo, silenceOutboxHints } from '#tests/factories.ts'
import { areaUser, type AreaUser } from '#tests/operators.ts'

// /api/v1/admin as an operator uses it (docs/operators.md): every answer checked against the
// OpenAPI document, every action found in the audit log.

let services: ReturnType<typeof testServices>
let app: ReturnType<typeof apiTestApp>
const testDb = setupTestDatabase(async (database) => {
  services = testServices(database)
  app = apiTestApp(services)
})
silenceOutboxHints()
let ctx: RequestContext
let operator: AreaUser
beforeAll(async () => {
  ctx = testContext(testDb(), { env: services.env, mailer: services.mailer, files: services.files })
  operator = await areaUser(ctx)
})

type Answer = { message: string; data: unknown; errors?: Record<string, string[]> }
async function call(method: string, path: string, headers: Record<string, string> = operator.bearer, body?: unknown, lang = 'en') {
  const res = await app.request(`/api/v1${path}`, {
    method,
    headers: { ...headers, 'content-type': 'application/json', 'accept-language': lang },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: res.status, body: (await res.json()) as Answer, retryAfter: res.headers.get('retry-after') }
}

const auditOf = (targetId: string) =>
  ctx.db.select().from(operatorAudit).where(eq(operatorAudit.targetId, targetId)).orderBy(operatorAudit.seq)

async function aMessage(lang: 'ar' | 'en') {
  const [row] = await ctx.db
    .insert(contactMessages)
    .values({ type: 'inquiry', name: 'Huda', email: `huda.${lang}.${Date.now()}@school.sa`, message: 'How do I print a test?', lang })
    .returning()
  return row!
}

describe('teachers', () => {
  it('are found by part of the email, the username or the full name, in any case', async () => {
    const teacher = await areaUser(ctx, { role: 'teacher' })
    await ctx.db.update(users).set({ fullNameAr: 'نورة العتيبي', fullNameEn: 'Noura Alotaibi' }).where(eq(users.id, teacher.user.id))
    for (const q of [teacher.user.email.slice(0, 14).toUpperCase(), teacher.user.username.slice(-6), 'العتيبي', 'noura'])
      expect([q, (await call('GET', `/admin/teachers?q=${encodeURIComponent(q)}`)).body.data]).toEqual([
        q,
        expect.arrayContaining([expect.objectContaining({ id: teacher.user.id, role: 'teacher', sessions: 2, deactivated_at: null })]),
      ])
    expect((await call('GET', '/admin/teachers?q=no-such-teacher-anywhere')).body.data).toEqual([])
    // The wildcard characters are looked for as themselves.
    expect((await call('GET', '/admin/teachers?q=%25')).body.data).toEqual([])
  })

  it('deactivated: the token ends at once, sign-in is refused in both languages; reactivated: sign-in works again', async () => {
    const teacher = await areaUser(ctx, { role: 'teacher' })
    expect((await call('GET', '/auth/profile', teacher.bearer)).status).toBe(200)

    const done = await call('POST', `/admin/teachers/${teacher.user.id}/deactivate`)
    expect(done).toMatchObject({ status: 200, body: { message: 'The account is deactivated and signed out everywhere.', data: null } })
    expect((await call('GET', '/auth/profile', teacher.bearer)).status).toBe(401)
    const login = { email: teacher.user.email, password: teacher.password }
    expect(await call('POST', '/auth/login', {}, login, 'en')).toMatchObject({
      status: 403,
      body: { message: expect.stringMatching(/deactivated/) },
    })
    expect(await call('POST', '/auth/login', {}, login, 'ar')).toMatchObject({
      status: 403,
      body: { message: expect.stringMatching(/أوقف فريق حلّل/) },
    })
    // Twice is refused: nothing to change.
    expect((await call('POST', `/admin/teachers/${teacher.user.id}/deactivate`)).status).toBe(409)

    expect((await call('POST', `/admin/teachers/${teacher.user.id}/reactivate`)).status).toBe(200)
    expect((await call('POST', '/auth/login', {}, login)).status).toBe(200)

    const audit = await auditOf(teacher.user.id)
    expect(audit.map((a) => [a.action, a.targetType, a.operatorEmail, a.detail])).toEqual([
      ['teacher.deactivate', 'user', operator.user.email, { sessionsEnded: 2 }],
      ['teacher.reactivate', 'user', operator.user.email, {}],
    ])
  })

  it('end all sessions: every token of the account stops working, the account stays active', async () => {
    const teacher = await areaUser(ctx, { role: 'teacher' })
    expect((await call('POST', `/admin/teachers/${teacher.user.id}/end-sessions`)).status).toBe(200)
    expect((await call('GET', '/auth/profile', teacher.bearer)).status).toBe(401)
    expect((await call('POST', '/auth/login', {}, { email: teacher.user.email, password: teacher.password })).status).toBe(200)
    expect((await auditOf(teacher.user.id)).map((a) => [a.action, a.detail])).toEqual([['teacher.endSessions', { sessionsEnded: 2 }]])
  })

  it('two-step verification turned off: the factor goes, the owner is notified; a second time there is nothing to do', async () => {
    const teacher = await areaUser(ctx, { role: 'teacher', twoFactor: true })
    expect((await call('POST', `/admin/teachers/${teacher.user.id}/two-factor-off`)).status).toBe(200)
    const [after] = await ctx.db.select().from(users).where(eq(users.id, teacher.user.id))
    expect(after?.totpEnabledAt).toBeNull()
    const kinds = (await ctx.db.select().from(notifications).where(eq(notifications.userId, teacher.user.id))).map((n) => n.kind)
    expect(kinds).toContain('two_factor_disabled')
    expect((await call('POST', `/admin/teachers/${teacher.user.id}/two-factor-off`)).status).toBe(409)
    expect((await auditOf(teacher.user.id)).map((a) => a.action)).toEqual(['teacher.twoFactorOff'])
  })

  it('refuses an operator acting on their own account, and an id that is no account', async () => {
    for (const action of ['deactivate', 'end-sessions'])
      expect((await call('POST', `/admin/teachers/${operator.user.id}/${action}`)).status).toBe(409)
    expect((await call('POST', '/admin/teachers/00000000-0000-4000-8000-000000000000/deactivate')).status).toBe(404)
    expect((await call('POST', '/admin/teachers/not-an-id/deactivate')).status).toBe(404)
    expect(await auditOf(operator.user.id)).toEqual([])
  })
})

describe('reviews', () => {
  it('a pending review is approved (public from then on) or rejected, once', async () => {
    const author = await areaUser(ctx, { role: 'teacher' })
    const good = await createReview({ db: ctx.db, userId: author.user.id, input: { rating: 5, comment: 'Saved me hours every week' } })
    const bad = await createReview({ db: ctx.db, userId: author.user.id, input: { rating: 1, comment: 'Spam spam spam' } })
    const pending = (await call('GET', '/admin/reviews')).body.data as Array<{ id: string }>
    expect(pending.map((r) => r.id)).toEqual(expect.arrayContaining([good.id, bad.id]))

    expect(await call('POST', `/admin/reviews/${good.id}/approve`)).toMatchObject({ status: 200 })
    expect(await call('POST', `/admin/reviews/${bad.id}/reject`)).toMatchObject({ status: 200 })
    expect((await listApprovedReviews({ db: ctx.db })).map((r) => r.id)).toContain(good.id)
    expect((await listApprovedReviews({ db: ctx.db })).map((r) => r.id)).not.toContain(bad.id)
    expect(((await call('GET', '/admin/reviews?status=rejected')).body.data as Array<{ id: string }>).map((r) => r.id)).toContain(bad.id)

    expect((await call('POST', `/admin/reviews/${good.id}/reject`)).status).toBe(409)
    expect((await call('POST', '/admin/reviews/00000000-0000-4000-8000-000000000000/approve')).status).toBe(404)
    expect((await auditOf(good.id)).map((a) => [a.action, a.detail])).toEqual([['review.approve', { rating: 5 }]])
    expect((await auditOf(bad.id)).map((a) => a.action)).toEqual(['review.reject'])
  })
})

describe('contact messages', () => {
  it('are answered by mail in the message’s language; the answer, its sender and time are kept, and the message is handled', async () => {
    clearOutbox(ctx)
    const message = await aMessage('ar')
    const open = (await call('GET', '/admin/messages')).body.data as { messages: Array<{ id: string }>; open: number }
    expect(open.messages.map((m) => m.id)).toContain(message.id)

    expect(await call('POST', `/admin/messages/${message.id}/answer`, operator.bearer, { answer: '  ' })).toMatchObject({
      status: 422,
      body: { errors: { answer: ['Write the answer before sending it'] } },
    })
    expect(await mailsTo(ctx, message.email)).toHaveLength(0)

    const answer = 'From the tests page, choose Print.\n\nRegards'
    expect((await call('POST', `/admin/messages/${message.id}/answer`, operator.bearer, { answer })).status).toBe(200)
    const [mail] = await mailsTo(ctx, message.email)
    expect(mail?.subject).toBe('رسالتك إلى حلّل')
    expect(mail?.text).toContain('From the tests page, choose Print.')
    expect(mail?.text).toContain('> How do I print a test?')

    const shown = (await call('GET', `/admin/messages/${message.id}`)).body.data as { handled_at: string | null; answer: unknown }
    expect(shown.handled_at).not.toBeNull()
    expect(shown.answer).toEqual({ text: answer, answered_at: expect.any(String), answered_by: operator.user.email })
    expect((await call('POST', `/admin/messages/${message.id}/answer`, operator.bearer, { answer })).status).toBe(409)
    expect(await mailsTo(ctx, message.email)).toHaveLength(1)
    expect((await auditOf(message.id)).map((a) => [a.action, a.detail])).toEqual([['message.answer', { lang: 'ar' }]])
  })

  it('are marked handled without an answer, once; the open list no longer shows them', async () => {
    const message = await aMessage('en')
    expect((await call('POST', `/admin/messages/${message.id}/handle`)).status).toBe(200)
    expect((await call('POST', `/admin/messages/${message.id}/handle`)).status).toBe(409)
    const open = (await call('GET', '/admin/messages?state=open')).body.data as { messages: Array<{ id: string }> }
    expect(open.messages.map((m) => m.id)).not.toContain(message.id)
    const handled = (await call('GET', '/admin/messages?state=handled')).body.data as { messages: Array<{ id: string }> }
    expect(handled.messages.map((m) => m.id)).toContain(message.id)
    expect((await call('GET', '/admin/messages/00000000-0000-4000-8000-000000000000')).status).toBe(404)
  })
})

describe('the audit log and the limit', () => {
  it('reads newest first through the API', async () => {
    const log = (await call('GET', '/admin/audit')).body.data as {
      entries: Array<{ action: string; operator_email: string }>
      total: number
    }
    expect(log.total).toBeGreaterThan(5)
    expect(log.entries[0]).toMatchObject({ operator_email: operator.user.email })
  })

  it('refuses writes past the hourly allowance with Retry-After, and lets reads through', async () => {
    const busy = await areaUser(ctx)
    await ctx.db
      .insert(rateLimits)
      .values({ key: `operator-write:${busy.user.id}`, count: OPERATOR_WRITES_PER_HOUR, resetAt: new Date(Date.now() + 600_000) })
    const message = await aMessage('en')
    const refused = await call('POST', `/admin/messages/${message.id}/handle`, busy.bearer)
    expect(refused.status).toBe(429)
    expect(Number(refused.retryAfter)).toBeGreaterThan(500)
    expect((await call('GET', '/admin/audit', busy.bearer)).status).toBe(200)
    expect(await auditOf(message.id)).toEqual([])
  })
})
