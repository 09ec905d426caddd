import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { guardFileStore } from '#app/platform/files.server.ts'
import { createLogger } from '#app/platform/logger.server.ts'
import { testContext } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { sampleExamBody, subscribedTeacher, teacher } from '#tests/exams.ts'
import { loader as imageLoader } from './exams-image.tsx'
import { action as imageAction } from './exams-images.tsx'
import { loader as pdfLoader } from './exams-pdf.tsx'
import { loader as previewLoader } from './exams-preview.tsx'
import { loader as printLoader } from './exams-print.tsx'
import { action as editorAction, loader as editorLoader } from './exams-test.tsx'
import { action as listAction, loader as listLoader } from './exams.tsx'

// The pages' loaders and actions, called as React Router calls them.

const testDb = setupTestDatabase(async (db) => {
  await seedPackages({ db: db.db })
})

type Wrapped<T> = { type: 'DataWithResponseInit'; data: T; init: { status: number } }
/** A data() answer's status and body; a plain object is a 200. */
function unwrap<T>(result: unknown): { status: number; body: T } {
  if (result && typeof result === 'object' && (result as { type?: string }).type === 'DataWithResponseInit') {
    const wrapped = result as Wrapped<T>
    return { status: wrapped.init.status, body: wrapped.data }
  }
  return { status: 200, body: result as T }
}

/** What a loader or action throws (a redirect, a 404), as a status and a location. */
async function thrown(run: () => Promise<unknown>): Promise<{ status: number; location: string | null }> {
  try {
    await run()
  } catch (error) {
    if (error instanceof Response) return { status: error.status, location: error.headers.get('location') }
    const wrapped = error as Partial<Wrapped<unknown>>
    if (wrapped?.type === 'DataWithResponseInit') return { status: wrapped.init?.status ?? 0, location: null }
    throw error
  }
  throw new Error('expected the call to throw')
}
const thrownStatus = async (run: () => Promise<unknown>) => (await thrown(run)).status

const url = (path: string) => `http://localhost/en/${path}`
const request = (cookie: string, path: string, init: RequestInit = {}) =>
  new Request(url(path), { ...init, headers: { cookie, origin: 'http://localhost', ...init.headers } })
const args = (ctx: ReturnType<typeof testContext>, req: Request, params: Record<string, string> = {}) =>
  ({ request: req, params: { lang: 'en', ...params }, context: ctx }) as never

type Saved = { ok: true; exam: { id: string; title: string; questions: Array<{ image: string | null; image_url: string | null }> } }
type Failed = { ok: false; errors: Record<string, string[]> }

async function saveExam(ctx: ReturnType<typeof testContext>, cookie: string, body: unknown, id?: string) {
  const req = request(cookie, id ? `exams-test?id=${id}` : 'exams-test', {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  })
  return unwrap<Saved | Failed>(await editorAction(args(ctx, req)))
}

describe('the tests pages', () => {
  it('are for subscribers: a guest goes to log in, a teacher without a subscription to the packages', async () => {
    const ctx = testContext(testDb())
    expect(await thrown(() => listLoader(args(ctx, new Request(url('exams')))))).toEqual({
      status: 302,
      location: '/en/login?redirectTo=%2Fen%2Fexams',
    })
    const { cookie } = await teacher(ctx)
    expect(await thrown(() => editorLoader(args(ctx, request(cookie, 'exams-test'))))).toEqual({ status: 302, location: '/en/packages' })
  })

  it('save a new test from the editor’s JSON, then its changes, and answer errors under their paths', async () => {
    const ctx = testContext(testDb())
    const { cookie } = await subscribedTeacher(ctx)
    const created = await saveExam(ctx, cookie, sampleExamBody())
    expect(created.status).toBe(200)
    if (!created.body.ok) throw new Error('expected the test to be saved')
    const id = created.body.exam.id

    const loaded = await editorLoader(args(ctx, request(cookie, `exams-test?id=${id}`)))
    expect(loaded.exam?.title).toBe(sampleExamBody().title)
    expect((loaded.messages.exams as { messages: { saved: string } }).messages.saved).toBe('Data saved successfully')

    const edited = await saveExam(ctx, cookie, sampleExamBody({ title: 'Edited' }), id)
    expect(edited.body).toMatchObject({ ok: true, exam: { id, title: 'Edited' } })

    const invalid = await saveExam(ctx, cookie, sampleExamBody({ questions: [{ type: 'true_false', text: 'T', marks: 1 }] }), id)
    expect(invalid).toEqual({ status: 422, body: { ok: false, errors: { 'questions.0.correct': ['exams.errors.trueFalseCorrect'] } } })
    const notJson = unwrap<Failed>(await editorAction(args(ctx, request(cookie, 'exams-test', { method: 'POST', body: 'title=x' }))))
    expect(notJson).toEqual({ status: 422, body: { ok: false, errors: { _form: ['exams.errors.body'] } } })
  })

  it('answer 404 for another teacher’s test on every page and file', async () => {
    const ctx = testContext(testDb())
    const owner = await subscribedTeacher(ctx)
    const other = await subscribedTeacher(ctx)
    const created = await saveExam(ctx, owner.cookie, sampleExamBody())
    if (!created.body.ok) throw new Error('expected the test to be saved')
    const id = created.body.exam.id
    const statuses = [
      await thrownStatus(() => editorLoader(args(ctx, request(other.cookie, `exams-test?id=${id}`)))),
      await thrownStatus(() => saveExam(ctx, other.cookie, sampleExamBody(), id)),
      await thrownStatus(() => printLoader(args(ctx, request(other.cookie, `exams/${id}/print`), { examId: id }))),
      await thrownStatus(() => pdfLoader(args(ctx, request(other.cookie, `exams/${id}/pdf`), { examId: id }))),
      await thrownStatus(() => previewLoader(args(ctx, request(other.cookie, `exams/${id}/preview.svg`), { examId: id }))),
      await thrownStatus(() =>
        listAction(args(ctx, request(other.cookie, 'exams', { method: 'POST', body: new URLSearchParams({ intent: 'delete', id }) }))),
      ),
      await thrownStatus(() =>
        listAction(args(ctx, request(other.cookie, 'exams', { method: 'POST', body: new URLSearchParams({ intent: 'duplicate', id }) }))),
      ),
    ]
    expect(statuses).toEqual([404, 404, 404, 404, 404, 404, 404])
    expect((await listLoader(args(ctx, request(owner.cookie, 'exams')))).exams).toHaveLength(1)
  })

  it('list, duplicate and delete from the list page, saying so', async () => {
    const ctx = testContext(testDb())
    const { cookie } = await subscribedTeacher(ctx)
    const created = await saveExam(ctx, cookie, sampleExamBody({ title: 'Science' }))
    if (!created.body.ok) throw new Error('expected the test to be saved')
    const post = (intent: string, id: string) =>
      listAction(args(ctx, request(cookie, 'exams', { method: 'POST', body: new URLSearchParams({ intent, id }) })))
    const duplicated = (await post('duplicate', created.body.exam.id)) as Response
    expect(duplicated.headers.get('location')).toBe('/en/exams')
    expect(decodeURIComponent(duplicated.headers.get('set-cookie') ?? '')).toContain('exams.messages.duplicated')
    const list = (await listLoader(args(ctx, request(cookie, 'exams')))).exams
    expect(list.map((e) => [e.title, e.question_count, e.total_marks])).toEqual([
      ['Science (copy)', 6, 13],
      ['Science', 6, 13],
    ])
    const deleted = (await post('delete', list[0]!.id)) as Response
    expect(decodeURIComponent(deleted.headers.get('set-cookie') ?? '')).toContain('exams.messages.deleted')
    expect((await listLoader(args(ctx, request(cookie, 'exams')))).exams.map((e) => e.title)).toEqual(['Science'])
  })

  it('print: counts the pages, and serves the PDF and the preview for what was chosen', async () => {
    const ctx = testContext(testDb())
    const { cookie } = await subscribedTeacher(ctx)
    const created = await saveExam(ctx, cookie, sampleExamBody())
    if (!created.body.ok) throw new Error('expected the test to be saved')
    const id = created.body.exam.id
    const printed = unwrap<{ pages: number; failure: string | null }>(
      await printLoader(args(ctx, request(cookie, `exams/${id}/print?show=versions&count=3`), { examId: id })),
    )
    expect(printed.status).toBe(200)
    const print = printed.body
    expect(print.failure).toBeNull()
    expect(print).toMatchObject({
      show: 'versions',
      count: 3,
      pdfUrl: `/en/exams/${id}/pdf?versions=3`,
      previewUrl: `/en/exams/${id}/preview.svg?versions=3`,
    })
    expect(print.pages).toBeGreaterThanOrEqual(6)
    const pdf = (await pdfLoader(args(ctx, request(cookie, `exams/${id}/pdf?answers=1`), { examId: id }))) as Response
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(pdf.headers.get('content-disposition')).toContain('Answer%20key')
    const svg = (await previewLoader(args(ctx, request(cookie, `exams/${id}/preview.svg`), { examId: id }))) as Response
    expect(svg.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8')
    expect(svg.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect((await svg.text()).startsWith('<svg')).toBe(true)
  })

  it('print: a test past the page limit shows the limit on the page (422), and its PDF and preview answer a page saying so', async () => {
    const ctx = testContext(testDb())
    const { cookie } = await subscribedTeacher(ctx)
    const questions = Array.from({ length: 100 }, (_q, i) => ({ type: 'essay', text: `Question ${i + 1}`, marks: 1, lines: 30 }))
    const created = await saveExam(ctx, cookie, sampleExamBody({ questions }))
    if (!created.body.ok) throw new Error('expected the test to be saved')
    const id = created.body.exam.id
    const printed = unwrap<{ pages: number; failure: string | null }>(
      await printLoader(args(ctx, request(cookie, `exams/${id}/print`), { examId: id })),
    )
    expect(printed).toMatchObject({ status: 422, body: { failure: 'exams.errors.tooManyPages', pages: 0 } })
    for (const path of [`exams/${id}/pdf?versions=2`, `exams/${id}/preview.svg`]) {
      const loader = path.includes('pdf') ? pdfLoader : previewLoader
      const answer = await loader(args(ctx, request(cookie, path), { examId: id })).catch((error: unknown) => error)
      expect(answer).toBeInstanceOf(Response)
      expect((answer as Response).status).toBe(422)
      expect(await (answer as Response).text()).toContain('more than 50 A4 pages per copy')
    }
    const tooMany = (await pdfLoader(args(ctx, request(cookie, `exams/${id}/pdf?versions=5`), { examId: id })).catch(
      (error: unknown) => error,
    )) as Response
    expect(tooMany.status).toBe(422)
    expect(await tooMany.text()).toContain('at most 4 shuffled versions')
  })

  it('upload an image for the editor and show it to its owner only', async () => {
    const ctx = testContext(testDb())
    const owner = await subscribedTeacher(ctx)
    const other = await subscribedTeacher(ctx)
    const form = new FormData()
    form.append(
      'file',
      new File(
        [
          new Uint8Array(
            await sharp({ create: { width: 30, height: 20, channels: 3, background: '#fff' } })
              .png()
              .toBuffer(),
          ),
        ],
        'figure.png',
      ),
    )
    const uploaded = unwrap<{ id: string; url: string }>(
      await imageAction(args(ctx, request(owner.cookie, 'exams-images', { method: 'POST', body: form }))),
    )
    expect(uploaded.status).toBe(201)
    expect(uploaded.body.url).toBe(`/en/exams-images/${uploaded.body.id}`)
    const image = (await imageLoader(
      args(ctx, request(owner.cookie, `exams-images/${uploaded.body.id}`), { imageId: uploaded.body.id }),
    )) as Response
    expect(image.headers.get('content-type')).toBe('image/png')
    expect(
      await thrownStatus(() =>
        imageLoader(args(ctx, request(other.cookie, `exams-images/${uploaded.body.id}`), { imageId: uploaded.body.id })),
      ),
    ).toBe(404)

    const bad = new FormData()
    bad.append('file', new File([new TextEncoder().encode('not an image')], 'photo.jpg'))
    expect(unwrap(await imageAction(args(ctx, request(owner.cookie, 'exams-images', { method: 'POST', body: bad }))))).toEqual({
      status: 422,
      body: { error: 'exams.errors.imageType' },
    })

    // The image in a question, then the question's image as the editor loads it.
    const saved = await saveExam(
      ctx,
      owner.cookie,
      sampleExamBody({ questions: [{ type: 'essay', text: 'Describe.', marks: 2, lines: 3, image: uploaded.body.id }] }),
    )
    expect(saved.body).toMatchObject({ ok: true, exam: { questions: [{ image: uploaded.body.id, image_url: uploaded.body.url }] } })
  })

  it('when the file store does not answer: the upload, the image, the print page, its PDF and preview answer 503 saying so', async () => {
    const ctx = testContext(testDb())
    const { cookie } = await subscribedTeacher(ctx)
    const form = () => {
      const f = new FormData()
      f.append('file', new File([new Uint8Array(figure)], 'figure.png'))
      return f
    }
    const figure = await sharp({ create: { width: 30, height: 20, channels: 3, background: '#fff' } })
      .png()
      .toBuffer()
    const uploaded = unwrap<{ id: string }>(await imageAction(args(ctx, request(cookie, 'exams-images', { method: 'POST', body: form() }))))
    const saved = await saveExam(
      ctx,
      cookie,
      sampleExamBody({ questions: [{ type: 'essay', text: 'Describe.', marks: 2, lines: 3, image: uploaded.body.id }] }),
    )
    if (!saved.body.ok) throw new Error('expected the test to be saved')
    const id = saved.body.exam.id
    // The same requests, the store now refusing everything.
    const refuse = () => Promise.reject(new Error('ECONNREFUSED'))
    const down = guardFileStore(
      { kind: 's3', put: refuse, get: refuse, remove: refuse, list: () => ({ [Symbol.asyncIterator]: () => ({ next: refuse }) }) },
      createLogger('silent'),
    )
    const off = { ...ctx, files: down }
    expect(unwrap(await imageAction(args(off, request(cookie, 'exams-images', { method: 'POST', body: form() }))))).toEqual({
      status: 503,
      body: { error: 'common.errors.fileStoreUnavailable' },
    })
    expect(
      await thrownStatus(() => imageLoader(args(off, request(cookie, `exams-images/${uploaded.body.id}`), { imageId: uploaded.body.id }))),
    ).toBe(503)
    const printed = unwrap<{ failure: string | null }>(await printLoader(args(off, request(cookie, `exams/${id}/print`), { examId: id })))
    expect(printed).toMatchObject({ status: 503, body: { failure: 'common.errors.fileStoreUnavailable' } })
    for (const [loader, path] of [
      [pdfLoader, `exams/${id}/pdf`],
      [previewLoader, `exams/${id}/preview.svg`],
    ] as const) {
      const answer = (await loader(args(off, request(cookie, path), { examId: id })).catch((error: unknown) => error)) as Response
      expect([answer.status, answer.headers.get('retry-after')]).toEqual([503, '30'])
      expect(await answer.text()).toContain('The storage for pictures is not answering right now.')
    }
  })
})
