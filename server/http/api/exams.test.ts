import { execFileSync } from 'node:child_process'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { testContext, testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { EXAM_LIMITS } from '#app/features/exams/schemas.ts'
import { hugeExamBody, largestExamBody, sampleExamBody, subscribedTeacher, teacher } from '#tests/exams.ts'
import { apiTestApp } from '#tests/api-app.ts'

let app: ReturnType<typeof apiTestApp>
let services: ReturnType<typeof testServices>
const testDb = setupTestDatabase(async (db) => {
  await seedPackages({ db: db.db })
  services = testServices(db)
  app = apiTestApp(services)
})

const countPdfPages = (pdf: Uint8Array) =>
  Number(
    /Pages:\s+(\d+)/.exec(execFileSync('/usr/bin/pdfinfo', ['-'], { input: pdf, stdio: ['pipe', 'pipe', 'ignore'] }).toString('utf8'))?.[1],
  )

const ctx = () => testContext(testDb(), { env: services.env, files: services.files })

const headers = (token: string, lang = 'en') => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
  'accept-language': lang,
})
type Body<T = unknown> = { message: string; data: T; errors?: Record<string, string[]> }
type Exam = {
  id: string
  title: string
  total_marks: number
  questions: Array<{ type: string; image: string | null; image_url: string | null }>
}

async function call<T = unknown>(method: string, path: string, token: string, body?: unknown, lang = 'en') {
  const res = await app.request(`/api/v1${path}`, {
    method,
    headers: headers(token, lang),
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as Body<T>, res }
}

async function upload(token: string, data: Uint8Array, name = 'figure.png') {
  const form = new FormData()
  form.append('file', new File([new Uint8Array(data)], name))
  return app.request('/api/v1/uploads/images', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
    body: form,
  })
}

describe('/api/v1/exams', () => {
  it('needs a token (401) and a current subscription (403, saying why)', async () => {
    for (const [method, path] of [
      ['GET', '/exams'],
      ['POST', '/exams'],
      ['GET', '/exams/x'],
      ['PUT', '/exams/x'],
      ['DELETE', '/exams/x'],
      ['GET', '/exams/x/pdf'],
      ['POST', '/uploads/images'],
      ['GET', '/uploads/images/x'],
    ] as const)
      expect([method, path, (await app.request(`/api/v1${path}`, { method })).status]).toEqual([method, path, 401])
    const { token } = await teacher(ctx())
    const res = await call('GET', '/exams', token)
    expect(res.status).toBe(403)
    expect(res.body.message).toBe('You are not subscribed to a package, please subscribe first')
    expect((await call('POST', '/exams', token, sampleExamBody())).status).toBe(403)
  })

  it('creates, lists, reads, replaces and deletes a test with every question type', async () => {
    const { token } = await subscribedTeacher(ctx())
    const created = await call<Exam>('POST', '/exams', token, sampleExamBody())
    expect(created.status).toBe(201)
    expect(created.body.message).toBe('Data saved successfully')
    expect(created.body.data).toMatchObject({
      title: 'اختبار منتصف الفصل الدراسي الأول',
      date: '2026-11-22',
      duration_minutes: 45,
      total_marks: 13,
      show_student_name: true,
    })
    expect(created.body.data.questions.map((q) => q.type)).toEqual([
      'multiple_choice',
      'checkbox',
      'true_false',
      'essay',
      'matching',
      'fill_blank',
    ])
    const id = created.body.data.id

    const list = await call<Array<Record<string, unknown>>>('GET', '/exams', token)
    expect(list.body.data).toEqual([
      expect.objectContaining({ id, question_count: 6, total_marks: 13, subject: 'العلوم', grade: 'الصف الخامس' }),
    ])
    // In Arabic, as a teacher would say it; the English keeps the fixed message above.
    expect((await call('POST', '/exams', token, sampleExamBody(), 'ar')).body.message).toBe('حُفظ الاختبار')
    const third = await call(
      'POST',
      '/exams',
      token,
      sampleExamBody({ questions: [{ type: 'essay', text: 'Q', marks: 1.3, lines: 2 }] }),
      'ar',
    )
    expect(third.status).toBe(422)
    expect(JSON.stringify(third.body)).toContain('تقبل أرباع الدرجة مثل 1.5')

    const read = await call<Exam>('GET', `/exams/${id}`, token)
    // What GET answers can be sent back as is (image_url is ignored on the way in).
    const put = await call<Exam>('PUT', `/exams/${id}`, token, {
      ...read.body.data,
      title: 'Final',
      questions: read.body.data.questions.slice(2),
    })
    expect(put.status).toBe(200)
    expect(put.body.data).toMatchObject({ id, title: 'Final', total_marks: 10 })

    expect((await call('DELETE', `/exams/${id}`, token)).status).toBe(200)
    expect((await call('GET', `/exams/${id}`, token)).status).toBe(404)
    expect((await call('DELETE', `/exams/${id}`, token)).status).toBe(404)
  })

  it('answers 422 with each error under its path, in the request’s language', async () => {
    const { token } = await subscribedTeacher(ctx())
    const body = sampleExamBody({
      title: '',
      questions: [
        { type: 'multiple_choice', text: 'Q', marks: 1, options: ['a', 'b', 'c'], correct: 0 },
        { type: 'fill_blank', text: 'No blank', marks: 1, answers: [] },
      ],
    })
    const en = await call('POST', '/exams', token, body)
    expect(en.status).toBe(422)
    expect(en.body).toEqual({
      message: 'Please check the highlighted fields',
      errors: {
        title: ["Write the test's title"],
        'questions.0.options': ['A multiple-choice question has exactly four answers'],
        'questions.1.text': ['Write at least one blank as ___ (three underscores)'],
      },
    })
    const ar = await call('POST', '/exams', token, body, 'ar')
    expect(ar.body.errors?.['questions.0.options']).toEqual(['لسؤال الاختيار من متعدد أربع إجابات بالضبط'])
    const notAnObject = await call('POST', '/exams', token, 'not an object')
    expect(notAnObject.status).toBe(422)
    expect(notAnObject.body.errors).toEqual({ _form: ['Send the test as one JSON object'] })
  })

  it('answers 404 for another teacher’s test, whatever the method, and changes nothing', async () => {
    const owner = await subscribedTeacher(ctx())
    const other = await subscribedTeacher(ctx())
    const { body } = await call<Exam>('POST', '/exams', owner.token, sampleExamBody())
    const id = body.data.id
    for (const [method, path, payload] of [
      ['GET', `/exams/${id}`, undefined],
      ['PUT', `/exams/${id}`, sampleExamBody({ title: 'Taken' })],
      ['DELETE', `/exams/${id}`, undefined],
      ['GET', `/exams/${id}/pdf`, undefined],
      ['GET', `/exams/${id}/pdf?answers=1&versions=2`, undefined],
      ['GET', '/exams/not-a-uuid', undefined],
    ] as const) {
      const res = await call(method, path, other.token, payload)
      expect([method, path, res.status]).toEqual([method, path, 404])
      expect(res.body.message).toBe('The test was not found')
    }
    expect((await call('GET', '/exams', other.token)).body.data).toEqual([])
    expect((await call<Exam>('GET', `/exams/${id}`, owner.token)).body.data.title).toBe(body.data.title)
  })

  it('downloads the test, its answer key and its versions as PDF, named after the test', async () => {
    const { token } = await subscribedTeacher(ctx())
    const { body } = await call<Exam>('POST', '/exams', token, sampleExamBody({ title: 'Science test' }))
    const pdf = async (query: string) => {
      const res = await app.request(`/api/v1/exams/${body.data.id}/pdf${query}`, { headers: headers(token) })
      expect(res.headers.get('content-type')).toBe('application/pdf')
      const bytes = Buffer.from(await res.arrayBuffer())
      expect(bytes.subarray(0, 5).toString()).toBe('%PDF-')
      return { bytes, disposition: res.headers.get('content-disposition') ?? '' }
    }
    expect((await pdf('')).disposition).toBe(`attachment; filename="exam.pdf"; filename*=UTF-8''Science%20test.pdf`)
    expect((await pdf('?answers=1')).disposition).toContain(`filename*=UTF-8''Science%20test%20-%20Answer%20key.pdf`)
    const versions = await pdf('?versions=3&seed=term-2')
    expect(versions.disposition).toContain('3%20versions%20with%20keys')
    expect(versions.bytes.length).toBeGreaterThan((await pdf('')).bytes.length)
    // Unreadable options print the plain test; more versions than a test prints are refused, naming the limit.
    expect((await pdf('?versions=x&answers=maybe')).disposition).toContain(`filename*=UTF-8''Science%20test.pdf`)
    const tooMany = await app.request(`/api/v1/exams/${body.data.id}/pdf?versions=9`, { headers: headers(token) })
    expect(tooMany.status).toBe(422)
    expect(((await tooMany.json()) as Body).message).toBe('A test prints at most 4 shuffled versions.')
  })

  it('uploads an image (PNG, JPEG or WebP up to 5 MB), readable by its owner only and usable in their questions only', async () => {
    const owner = await subscribedTeacher(ctx())
    const other = await subscribedTeacher(ctx())
    const png = await sharp({ create: { width: 60, height: 40, channels: 3, background: '#e0a526' } })
      .png()
      .toBuffer()
    const res = await upload(owner.token, png)
    expect(res.status).toBe(201)
    const { data } = (await res.json()) as Body<{ id: string; url: string }>
    expect(data.url).toBe(`${services.env.APP_URL}/api/v1/uploads/images/${data.id}`)

    const image = await app.request(`/api/v1/uploads/images/${data.id}`, { headers: headers(owner.token) })
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toBe('image/png')
    expect(image.headers.get('x-content-type-options')).toBe('nosniff')
    expect((await app.request(`/api/v1/uploads/images/${data.id}`, { headers: headers(other.token) })).status).toBe(404)

    const question = { type: 'essay', text: 'Describe the figure.', marks: 2, lines: 4, image: data.id }
    const mine = await call<Exam>('POST', '/exams', owner.token, sampleExamBody({ questions: [question] }))
    expect(mine.status).toBe(201)
    expect(mine.body.data.questions[0]).toMatchObject({ image: data.id, image_url: data.url })
    const theirs = await call('POST', '/exams', other.token, sampleExamBody({ questions: [question] }))
    expect(theirs.status).toBe(422)
    expect(theirs.body.errors).toEqual({ 'questions.0.image': ['The image was not found. Upload it again.'] })
  })

  it('refuses an image by its content, its size (413) or without a file', async () => {
    const { token } = await subscribedTeacher(ctx())
    const script = await upload(token, new TextEncoder().encode('<script>alert(1)</script>'), 'photo.png')
    expect(script.status).toBe(422)
    expect(await script.json()).toEqual({
      message: 'Upload a PNG, JPEG or WebP image',
      errors: { file: ['Upload a PNG, JPEG or WebP image'] },
    })
    const huge = await upload(token, new Uint8Array(5 * 1024 * 1024 + 1).fill(0xff), 'huge.jpg')
    expect(huge.status).toBe(413)
    const far = await upload(token, new Uint8Array(7 * 1024 * 1024), 'far.jpg')
    expect(far.status).toBe(413)
    expect(((await far.json()) as Body).message).toBe('The request is larger than allowed')
    const none = await app.request('/api/v1/uploads/images', { method: 'POST', headers: headers(token), body: '{}' })
    expect(none.status).toBe(422)
  })

  it('refuses the 790 KB test of issue 15 with the whole-test limit as the message, in both languages', async () => {
    const { token } = await subscribedTeacher(ctx())
    const huge = hugeExamBody()
    expect(Buffer.byteLength(JSON.stringify(huge))).toBeGreaterThan(770_000)
    const en = await call('POST', '/exams', token, huge)
    expect(en.status).toBe(422)
    expect(en.body.message).toBe(
      'This test is too long: a test has at most 30,000 characters in all (header, questions, answers and pairs). Shorten it or split it into two tests.',
    )
    expect(en.body.errors?._form).toEqual([
      en.body.message,
      'A test has at most 100 matching pairs in all. Remove some pairs or split it into two tests.',
    ])
    const ar = await call('POST', '/exams', token, huge, 'ar')
    expect(ar.status).toBe(422)
    expect(ar.body.message).toContain('30,000 حرف على الأكثر')
    // The same on replacing a test, and nothing was stored.
    const { body } = await call<Exam>('POST', '/exams', token, sampleExamBody())
    expect((await call('PUT', `/exams/${body.data.id}`, token, huge)).status).toBe(422)
    expect((await call<Exam[]>('GET', '/exams', token)).body.data).toHaveLength(1)
    // The largest test the limits accept is stored.
    expect((await call('POST', '/exams', token, largestExamBody(EXAM_LIMITS, 30))).status).toBe(201)
  })

  it('prints the answer key of a test whose copy is exactly at the page limit (the key writes its answers in, so it is longer)', async () => {
    const { token } = await subscribedTeacher(ctx())
    const { body } = await call<Exam>('POST', '/exams', token, largestExamBody(EXAM_LIMITS, 30))
    const pdf = async (query: string) => {
      // In Arabic, where this test's copy is exactly 50 pages (37 in English).
      const res = await app.request(`/api/v1/exams/${body.data.id}/pdf${query}`, { headers: headers(token, 'ar') })
      const bytes = new Uint8Array(await res.arrayBuffer())
      return { status: res.status, pages: countPdfPages(bytes) }
    }
    const copy = await pdf('')
    expect(copy).toEqual({ status: 200, pages: EXAM_LIMITS.pagesPerCopy })
    const key = await pdf('?answers=1')
    expect(key.status).toBe(200)
    expect(key.pages).toBeGreaterThan(EXAM_LIMITS.pagesPerCopy)
  })

  it('refuses to print a test longer than the page limit, naming it, without rendering its versions', async () => {
    const { token } = await subscribedTeacher(ctx())
    // Short texts, but a hundred essays of thirty lines each: about 90 pages a copy.
    const questions = Array.from({ length: 100 }, (_q, i) => ({ type: 'essay', text: `Question ${i + 1}`, marks: 1, lines: 30 }))
    const { body } = await call<Exam>('POST', '/exams', token, sampleExamBody({ questions }))
    const refusal = async (query: string) => {
      const t0 = performance.now()
      const res = await app.request(`/api/v1/exams/${body.data.id}/pdf${query}`, { headers: headers(token) })
      return { status: res.status, message: ((await res.json()) as Body).message, ms: performance.now() - t0 }
    }
    const message = 'This test prints more than 50 A4 pages per copy, the most a test may print. Shorten it or split it into two tests.'
    expect(await refusal('')).toMatchObject({ status: 422, message })
    // Versions are refused on the plain copy's page count, already known: nothing is laid out again.
    const versions = await refusal('?versions=4')
    expect(versions).toMatchObject({ status: 422, message })
    expect(versions.ms).toBeLessThan(1000)
  })

  it('keeps the usual 64 KB limit for the rest of the API', async () => {
    const res = await app.request('/api/v1/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'x'.repeat(70 * 1024) }),
    })
    expect(res.status).toBe(413)
  })
})
