import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { eq } from 'drizzle-orm'
import type { ServerBuild } from 'react-router'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { listNotifications, listSessions, notify } from '#app/features/accounts/index.server.ts'
import { listUserInvoices } from '#app/features/billing/index.server.ts'
import type { RequestContext } from '#app/platform/context.server.ts'
import { payments, sessions } from '#app/platform/db/schema.ts'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { loader as analysisExportLoader } from '#app/routes/analysis-export.tsx'
import { loader as examImageLoader } from '#app/routes/exams-image.tsx'
import { loader as examPdfLoader } from '#app/routes/exams-pdf.tsx'
import { loader as examPreviewLoader } from '#app/routes/exams-preview.tsx'
import { loader as examPrintLoader } from '#app/routes/exams-print.tsx'
import { action as examEditorAction, loader as examEditorLoader } from '#app/routes/exams-test.tsx'
import { action as examListAction } from '#app/routes/exams.tsx'
import { loader as invoicePdfLoader } from '#app/routes/invoice-pdf.tsx'
import { loader as invoiceLoader } from '#app/routes/invoice.tsx'
import { action as followUpAction } from '#app/routes/follow-up.tsx'
import { action as analysesListAction } from '#app/routes/last-multiple.tsx'
import { action as notificationsAction } from '#app/routes/notifications.tsx'
import { loader as paymentResultLoader } from '#app/routes/payment-result.tsx'
import { action as profileAction } from '#app/routes/profile.tsx'
import { action as singleAnalysisAction, loader as singleAnalysisLoader } from '#app/routes/single-analysis.tsx'
import { testContext, testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { sampleExamBody, subscribedTeacher } from '#tests/exams.ts'
import { createHttpApp } from '../http.ts'
import { checkedApp } from '#tests/api-conformance.ts'

// ASVS V8 (authorization): every endpoint and page that takes an id is tried by teacher B with
// teacher A's ids. Each must answer 404 (never 403, which would confirm the id exists) and leave
// A's records exactly as they were. See docs/security.md.

const fakeBuild = { assets: { version: 't', url: '', entry: { module: '', imports: [] }, routes: {} } } as unknown as ServerBuild
const fixtures = resolve(import.meta.dirname, '../../../app/features/absence/fixtures')

let app: ReturnType<typeof createHttpApp>
let ctx: RequestContext
const testDb = setupTestDatabase(async (db) => {
  await seedPackages({ db: db.db })
  const services = testServices(db)
  app = checkedApp(createHttpApp({ services, getBuild: () => fakeBuild, mode: 'production' }))
  // The loaders' context shares the app's settings (its session secret above all).
  ctx = testContext(db, { env: services.env, files: services.files, logger: services.logger, mailer: services.mailer })
})

type Teacher = Awaited<ReturnType<typeof subscribedTeacher>>
type Ids = {
  analysis: string
  exam: string
  image: string
  invoice: string
  payment: string
  notification: string
  session: string
  /** An entry of A's follow-up register, and how the register names its student. */
  entry: string
  student: string
}

let a: Teacher
let b: Teacher
let ids: Ids
const bearer = (t: Teacher) => ({ authorization: `Bearer ${t.token}`, 'accept-language': 'en' })

/** A's records as A sees them through the API, to compare before and after B's attempts. */
async function snapshot() {
  const get = async (path: string) => {
    const res = await app.request(path, { headers: bearer(a) })
    const type = res.headers.get('content-type') ?? ''
    return { status: res.status, body: type.includes('json') ? await res.json() : (await res.arrayBuffer()).byteLength }
  }
  return {
    analysis: await get(`/api/v1/analyses/${ids.analysis}`),
    analyses: await get('/api/v1/analyses'),
    exam: await get(`/api/v1/exams/${ids.exam}`),
    exams: await get('/api/v1/exams'),
    image: await get(`/api/v1/uploads/images/${ids.image}`),
    invoice: await get(`/api/v1/invoices/${ids.invoice}`),
    register: await get('/api/v1/follow-up/register'),
    notifications: (await listNotifications({ db: testDb().db, userId: a.user.id })).map((n) => ({ id: n.id, readAt: n.readAt })),
    sessions: (await listSessions({ db: testDb().db, userId: a.user.id })).length,
  }
}

function created(res: Response): Response {
  if (res.status !== 201) throw new Error(`${res.url}: ${res.status} instead of 201`)
  return res
}

beforeAll(async () => {
  a = await subscribedTeacher(ctx)
  b = await subscribedTeacher(ctx)
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(readFileSync(`${fixtures}/small-ar.xlsx`))]), 'report.xlsx')
  const analysis = created(await app.request('/api/v1/analyses/absence', { method: 'POST', headers: bearer(a), body: form }))
  const exam = created(
    await app.request('/api/v1/exams', {
      method: 'POST',
      headers: { ...bearer(a), 'content-type': 'application/json' },
      body: JSON.stringify(sampleExamBody()),
    }),
  )
  // A ladder from one unexcused day, so the fixture's students reach a step, and a document recorded for one of them.
  const json = { ...bearer(a), 'content-type': 'application/json' }
  await app.request('/api/v1/settings/absence-ladder', {
    method: 'PUT',
    headers: json,
    body: JSON.stringify({ steps: [{ days: 1, name: null, document: 'firstWarning' }] }),
  })
  const register = (await (await app.request('/api/v1/follow-up/register', { headers: bearer(a) })).json()) as {
    data: { school_year: number; outstanding: { student: string }[] }
  }
  const [owed, second] = register.data.outstanding
  if (!owed || !second) throw new Error('A’s register has no student owed a document')
  const entry = created(
    await app.request('/api/v1/follow-up/register', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        student: owed.student,
        step: 1,
        school_year: register.data.school_year,
        issued_on: '2025-09-01',
        issued_by: 'A',
      }),
    }),
  )
  const png = await sharp({ create: { width: 30, height: 20, channels: 3, background: '#fff' } })
    .png()
    .toBuffer()
  const imageForm = new FormData()
  imageForm.append('file', new File([new Uint8Array(png)], 'figure.png', { type: 'image/png' }))
  const image = created(await app.request('/api/v1/uploads/images', { method: 'POST', headers: bearer(a), body: imageForm }))
  await notify({ db: testDb().db, userId: a.user.id, kind: 'welcome', params: {} })
  const [invoice] = await listUserInvoices({ db: testDb().db, userId: a.user.id })
  const [payment] = await testDb().db.select().from(payments).where(eq(payments.userId, a.user.id))
  const [session] = await testDb().db.select().from(sessions).where(eq(sessions.userId, a.user.id))
  const [notification] = await listNotifications({ db: testDb().db, userId: a.user.id })
  if (!invoice || !payment || !session || !notification) throw new Error('A’s records were not all made')
  ids = {
    analysis: ((await analysis.json()) as { data: { id: string } }).data.id,
    exam: ((await exam.json()) as { data: { id: string } }).data.id,
    image: ((await image.json()) as { data: { id: string } }).data.id,
    invoice: invoice.id,
    payment: payment.id,
    notification: notification.id,
    session: session.id,
    entry: ((await entry.json()) as { data: { id: string } }).data.id,
    student: second.student,
  }
})

describe('another teacher’s ids through /api/v1', () => {
  it('answer 404 on every id-bearing endpoint and method, and change nothing of the owner’s', async () => {
    const before = await snapshot()
    // The owner reads each of them.
    expect([before.analysis, before.exam, before.image, before.invoice].map((r) => r.status)).toEqual([200, 200, 200, 200])
    expect(before.notifications.length).toBeGreaterThanOrEqual(1)
    const json = { ...bearer(b), 'content-type': 'application/json' }
    const attempts: Array<[string, string, RequestInit?]> = [
      ['GET', `/api/v1/analyses/${ids.analysis}`],
      ['GET', `/api/v1/analyses/${ids.analysis}/students?q=${encodeURIComponent('محمد سلطان عبدالله')}`],
      ['GET', `/api/v1/analyses/${ids.analysis}/export.xlsx`],
      ['GET', `/api/v1/analyses/${ids.analysis}/export.pdf`],
      ['DELETE', `/api/v1/analyses/${ids.analysis}`],
      ['GET', `/api/v1/exams/${ids.exam}`],
      ['PUT', `/api/v1/exams/${ids.exam}`, { headers: json, body: JSON.stringify(sampleExamBody({ title: 'stolen' })) }],
      ['DELETE', `/api/v1/exams/${ids.exam}`],
      ['GET', `/api/v1/exams/${ids.exam}/pdf`],
      ['GET', `/api/v1/exams/${ids.exam}/pdf?answers=1`],
      ['GET', `/api/v1/exams/${ids.exam}/pdf?versions=2`],
      ['GET', `/api/v1/uploads/images/${ids.image}`],
      ['GET', `/api/v1/invoices/${ids.invoice}`],
      ['GET', `/api/v1/invoices/${ids.invoice}/pdf`],
      ['POST', `/api/v1/notifications/${ids.notification}/read`],
      ['PATCH', `/api/v1/follow-up/register/${ids.entry}`, { headers: json, body: JSON.stringify({ status: 'declined' }) }],
      ['DELETE', `/api/v1/follow-up/register/${ids.entry}`],
      [
        'POST',
        '/api/v1/follow-up/register',
        {
          headers: json,
          body: JSON.stringify({ student: ids.student, step: 1, school_year: 2025, issued_on: '2025-09-01', issued_by: 'B' }),
        },
      ],
    ]
    const results = []
    for (const [method, path, init] of attempts) {
      const res = await app.request(path, { method, headers: bearer(b), ...init })
      results.push({ method, path, status: res.status })
    }
    expect(results).toEqual(attempts.map(([method, path]) => ({ method, path, status: 404 })))
    expect(await snapshot()).toEqual(before)
  })

  it('show B none of A’s records in B’s own lists', async () => {
    for (const path of [
      '/api/v1/analyses',
      '/api/v1/exams',
      '/api/v1/invoices',
      '/api/v1/subscriptions',
      '/api/v1/notifications',
      '/api/v1/follow-up/register',
    ]) {
      const body = JSON.stringify(await (await app.request(path, { headers: bearer(b) })).json())
      for (const id of Object.values(ids)) expect({ path, leaks: body.includes(id) }).toEqual({ path, leaks: false })
    }
  })

  it('use A’s image in B’s test is refused', async () => {
    const body = sampleExamBody({ questions: [{ type: 'essay', text: 'Describe.', marks: 2, lines: 3, image: ids.image }] })
    const res = await app.request('/api/v1/exams', {
      method: 'POST',
      headers: { ...bearer(b), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    expect(res.status).toBe(422)
  })
})

type Wrapped = { type: 'DataWithResponseInit'; init: { status: number } }
/** The status a loader or action answers with, thrown or returned. */
async function statusOf(run: () => Promise<unknown>): Promise<number> {
  try {
    const result = await run()
    if (result instanceof Response) return result.status
    if ((result as Partial<Wrapped>)?.type === 'DataWithResponseInit') return (result as Wrapped).init.status
    return 200
  } catch (error) {
    if (error instanceof Response) return error.status
    if ((error as Partial<Wrapped>)?.type === 'DataWithResponseInit') return (error as Wrapped).init.status
    throw error
  }
}

describe('another teacher’s ids through the pages (B’s session cookie)', () => {
  const page = (t: Teacher, path: string, init: RequestInit = {}) =>
    new Request(`http://localhost/en/${path}`, { ...init, headers: { cookie: t.cookie, origin: 'http://localhost', ...init.headers } })
  const args = (req: Request, params: Record<string, string> = {}) =>
    ({ request: req, params: { lang: 'en', ...params }, context: ctx }) as never
  const post = (fields: Record<string, string>) => ({ method: 'POST', body: new URLSearchParams(fields) })

  it('answer 404 on every page and file that takes an id, and change nothing of the owner’s', async () => {
    const before = await snapshot()
    const attempts: Array<[string, () => Promise<unknown>]> = [
      ['single-analysis', () => singleAnalysisLoader(args(page(b, `single-analysis?id=${ids.analysis}`)))],
      [
        'single-analysis delete',
        () => singleAnalysisAction(args(page(b, `single-analysis?id=${ids.analysis}`, post({ intent: 'delete' })))),
      ],
      ['export.pdf', () => analysisExportLoader(args(page(b, `analyses/${ids.analysis}/export.pdf`), { analysisId: ids.analysis }))],
      ['export.xlsx', () => analysisExportLoader(args(page(b, `analyses/${ids.analysis}/export.xlsx`), { analysisId: ids.analysis }))],
      ['last-multiple delete', () => analysesListAction(args(page(b, 'last-multiple', post({ intent: 'delete', id: ids.analysis }))))],
      [
        'last-multiple rename',
        () => analysesListAction(args(page(b, 'last-multiple', post({ intent: 'rename', id: ids.analysis, title: 'stolen' })))),
      ],
      ['exams-test', () => examEditorLoader(args(page(b, `exams-test?id=${ids.exam}`)))],
      [
        'exams-test save',
        () =>
          examEditorAction(
            args(
              page(b, `exams-test?id=${ids.exam}`, {
                method: 'POST',
                body: JSON.stringify(sampleExamBody({ title: 'stolen' })),
                headers: { 'content-type': 'application/json' },
              }),
            ),
          ),
      ],
      ['exams print', () => examPrintLoader(args(page(b, `exams/${ids.exam}/print`), { examId: ids.exam }))],
      ['exams pdf', () => examPdfLoader(args(page(b, `exams/${ids.exam}/pdf`), { examId: ids.exam }))],
      ['exams preview', () => examPreviewLoader(args(page(b, `exams/${ids.exam}/preview.svg`), { examId: ids.exam }))],
      ['exams delete', () => examListAction(args(page(b, 'exams', post({ intent: 'delete', id: ids.exam }))))],
      ['exams duplicate', () => examListAction(args(page(b, 'exams', post({ intent: 'duplicate', id: ids.exam }))))],
      ['exams image', () => examImageLoader(args(page(b, `exams-images/${ids.image}`), { imageId: ids.image }))],
      ['invoice', () => invoiceLoader(args(page(b, `invoices/${ids.invoice}`), { invoiceId: ids.invoice }))],
      ['invoice pdf', () => invoicePdfLoader(args(page(b, `invoices/${ids.invoice}/pdf`), { invoiceId: ids.invoice }))],
      ['payment result', () => paymentResultLoader(args(page(b, `payments/result/${ids.payment}`), { paymentId: ids.payment }))],
      ['follow-up update', () => followUpAction(args(page(b, 'follow-up', post({ intent: 'update', id: ids.entry, status: 'signed' }))))],
      ['follow-up delete', () => followUpAction(args(page(b, 'follow-up', post({ intent: 'delete', id: ids.entry }))))],
      [
        'follow-up issue',
        () =>
          followUpAction(
            args(
              page(
                b,
                'follow-up',
                post({ intent: 'issue', student: ids.student, step: '1', school_year: '2025', issued_on: '2025-09-01', issued_by: 'B' }),
              ),
            ),
          ),
      ],
    ]
    const results = []
    for (const [name, run] of attempts) results.push({ name, status: await statusOf(run) })
    expect(results).toEqual(attempts.map(([name]) => ({ name, status: 404 })))
    expect(await snapshot()).toEqual(before)
    // B's duplicate of A's test made nothing in B's list either.
    expect(((await (await app.request('/api/v1/exams', { headers: bearer(b) })).json()) as { data: unknown[] }).data).toEqual([])
  })

  it('actions that answer with a redirect whatever the id leave A’s notification and session alone', async () => {
    const before = await snapshot()
    // These pages redirect back either way (no oracle); what matters is that nothing of A's changes.
    await statusOf(() => notificationsAction(args(page(b, 'notifications', post({ id: ids.notification })))))
    await statusOf(() => profileAction(args(page(b, 'profile', post({ intent: 'revoke', session: ids.session })))))
    expect(await snapshot()).toEqual(before)
    expect((await app.request('/api/v1/auth/profile', { headers: bearer(a) })).status).toBe(200)
  })
})
