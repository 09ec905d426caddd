import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { createReview } from '#app/features/accounts/index.server.ts'
import type { RequestContext } from '#app/platform/context.server.ts'
import { contactMessages } from '#app/platform/db/schema.ts'
import { testContext, testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { mailsTo, silenceOutboxHints } from '#tests/factories.ts'
import { areaUser, type AreaUser } from '#tests/operators.ts'
import { action as messageAction, loader as messageLoader } from './admin-message.tsx'
import { loader as auditLoader } from './admin-audit.tsx'
import { action as reviewsAction } from './admin-reviews.tsx'
import { action as teachersAction, loader as teachersLoader } from './admin-teachers.tsx'
import { loader as homeLoader } from './home.tsx'
import { action as loginAction } from './login.tsx'
import { loader as profileLoader } from './profile.tsx'
import { flashOf, routeAnswer } from '#tests/route-answer.ts'

// The operator area's pages, called as React Router calls them: a deactivated teacher's next
// page is refused and so is her sign-in; a review approved from the page shows on the home
// page; an answer typed on a message's page reaches the sender; each lands in the audit log.

const testDb = setupTestDatabase()
silenceOutboxHints()
let ctx: RequestContext
let operator: AreaUser
beforeAll(async () => {
  const services = testServices(testDb())
  ctx = testContext(testDb(), { env: services.env, mailer: services.mailer, files: services.files })
  operator = await areaUser(ctx)
})

const args = (request: Request, params: Record<string, string> = {}) =>
  ({ request, params: { lang: 'en', ...params }, context: ctx }) as never
const get = (path: string, cookie = '') => new Request(`http://localhost/en/${path}`, { headers: { cookie } })
function post(path: string, fields: Record<string, string>, cookie = operator.cookie) {
  const body = new FormData()
  for (const [k, v] of Object.entries(fields)) body.append(k, v)
  return new Request(`http://localhost/en/${path}`, { method: 'POST', body, headers: { cookie, origin: 'http://localhost' } })
}

describe('the teachers page', () => {
  it('deactivates a teacher: her next page sends her to sign in, and signing in is refused with the reason', async () => {
    const teacher = await areaUser(ctx, { role: 'teacher' })
    expect((await routeAnswer(() => profileLoader(args(get('profile', teacher.cookie))))).status).toBe(200)

    const listed = await routeAnswer(() => teachersLoader(args(get(`admin/teachers?q=${teacher.user.email}`, operator.cookie))))
    expect((listed.body as { teachers: Array<{ id: string }> }).teachers.map((t) => t.id)).toEqual([teacher.user.id])

    const done = await routeAnswer(() =>
      teachersAction(args(post('admin/teachers', { id: teacher.user.id, action: 'deactivate', q: 'x' }))),
    )
    expect(done).toMatchObject({ status: 302, location: '/en/admin/teachers?q=x' })
    expect(flashOf(done.cookies)).toContain('operators.teachers.done.deactivate')

    const next = await routeAnswer(() => profileLoader(args(get('profile', teacher.cookie))))
    expect(next.status).toBe(302)
    expect(next.location).toMatch(/^\/en\/login\?redirectTo=/)
    const login = await routeAnswer(() => loginAction(args(post('login', { email: teacher.user.email, password: teacher.password }, ''))))
    expect(login).toMatchObject({ status: 403, body: { errors: { _form: ['accounts.errors.deactivated'] } } })
  })

  it('answers a refusal with the reason, not an error page: an unknown action, the operator’s own account', async () => {
    const unknown = await routeAnswer(() => teachersAction(args(post('admin/teachers', { id: operator.user.id, action: 'delete' }))))
    expect(flashOf(unknown.cookies)).toContain('operators.errors.unknownAction')
    const self = await routeAnswer(() => teachersAction(args(post('admin/teachers', { id: operator.user.id, action: 'deactivate' }))))
    expect(self).toMatchObject({ status: 302, location: '/en/admin/teachers' })
    expect(flashOf(self.cookies)).toContain('operators.errors.notOnYourself')
  })
})

describe('the reviews page', () => {
  it('approves a review, which the home page then shows', async () => {
    const author = await areaUser(ctx, { role: 'teacher' })
    const review = await createReview({
      db: ctx.db,
      userId: author.user.id,
      input: { rating: 4, comment: 'The absence report is clear and quick' },
    })
    const done = await routeAnswer(() => reviewsAction(args(post('admin/reviews', { id: review.id, decision: 'approve' }))))
    expect(flashOf(done.cookies)).toContain('operators.reviews.done.approve')
    const home = await routeAnswer(() => homeLoader(args(get(''))))
    expect((home.body as { reviews: Array<{ id: string }> }).reviews.map((r) => r.id)).toContain(review.id)
  })
})

describe('a message’s page', () => {
  it('keeps what was typed when the answer is refused, mails a good one, and shows it afterwards', async () => {
    const [message] = await ctx.db
      .insert(contactMessages)
      .values({ type: 'complaint', name: 'Sara', email: 'sara.page@school.sa', message: 'The upload failed twice today.', lang: 'en' })
      .returning()
    const params = { messageId: message!.id }
    const tooShort = await routeAnswer(() =>
      messageAction(args(post(`admin/messages/${message!.id}`, { intent: 'answer', answer: 'x' }), params)),
    )
    expect(tooShort).toMatchObject({
      status: 422,
      body: { values: { answer: 'x' }, errors: { answer: ['operators.errors.answerRequired'] } },
    })

    const sent = await routeAnswer(() =>
      messageAction(args(post(`admin/messages/${message!.id}`, { intent: 'answer', answer: 'Fixed now, sorry about that.' }), params)),
    )
    expect(sent).toMatchObject({ status: 302, location: `/en/admin/messages/${message!.id}` })
    const [mail] = await mailsTo(ctx, 'sara.page@school.sa')
    expect(mail?.subject).toBe('Your message to Hallil')
    expect(mail?.text).toContain('Fixed now, sorry about that.')

    const shown = await routeAnswer(() => messageLoader(args(get(`admin/messages/${message!.id}`, operator.cookie), params)))
    expect((shown.body as { message: { answer: { text: string; by: string } } }).message.answer).toMatchObject({
      text: 'Fixed now, sorry about that.',
      by: operator.user.email,
    })
    // Another id is the site's 404.
    const missing = await routeAnswer(() => messageLoader(args(get('admin/messages/x', operator.cookie), { messageId: 'x' })))
    expect(missing.status).toBe(404)
  })
})

describe('the audit log page', () => {
  it('lists what the operator did, newest first', async () => {
    const page = await routeAnswer(() => auditLoader(args(get('admin/audit', operator.cookie))))
    const entries = (page.body as { entries: Array<{ action: string; actionKey: string | null; operatorEmail: string }> }).entries
    expect(entries.map((e) => e.action)).toEqual(['message.answer', 'review.approve', 'teacher.deactivate'])
    expect(entries.every((e) => e.operatorEmail === operator.user.email && e.actionKey !== null)).toBe(true)
    const [row] = await ctx.db.select().from(contactMessages).where(eq(contactMessages.email, 'sara.page@school.sa'))
    expect(row?.handledBy).toBe(operator.user.id)
  })
})
