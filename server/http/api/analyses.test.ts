import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { project, shapeOf, type Json as ExpectedJson } from '#tests/expected-json.ts'
import { apiHeaders, subscribedTeacher } from '#tests/subscriber.ts'
import { apiTestApp } from '#tests/api-app.ts'

let app: ReturnType<typeof apiTestApp>
let services: ReturnType<typeof testServices>
const testDb = setupTestDatabase(async (db) => {
  await seedPackages({ db: db.db })
  services = testServices(db)
  app = apiTestApp(services)
})

// The shared fixtures, kept beside the absence feature's tests.
const fixtures = resolve(import.meta.dirname, '../../../app/features/absence/fixtures')

async function teacher(lang: 'ar' | 'en' = 'en', subscribed = true) {
  const user = await subscribedTeacher(testDb().db, { subscribed })
  return { user, headers: await apiHeaders(testDb().db, services.env.SESSION_SECRET, user.id, lang) }
}

function upload(headers: Record<string, string>, bytes: Uint8Array, name = 'report.xlsx') {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(bytes)]), name)
  return app.request('/api/v1/analyses/absence', { method: 'POST', headers, body: form })
}

type Json = Record<string, unknown>

describe('/api/v1/analyses (absence)', () => {
  it('needs a token and a subscription', async () => {
    expect((await app.request('/api/v1/analyses')).status).toBe(401)
    const { headers } = await teacher('en', false)
    const res = await app.request('/api/v1/analyses', { headers })
    expect(res.status).toBe(403)
    expect(((await res.json()) as Json).message).toBe('You are not subscribed to a package, please subscribe first')
  })

  for (const name of ['small-ar', 'english-hijri-shuffled']) {
    it(`${name}: the uploaded fixture gives exactly the expected figures, and its students are found by name`, async () => {
      const { headers } = await teacher('en')
      const expected = JSON.parse(readFileSync(`${fixtures}/${name}.expected.json`, 'utf8')) as Json & { students: Json[] }
      const res = await upload(headers, readFileSync(`${fixtures}/${name}.xlsx`))
      expect(res.status).toBe(201)
      const { data } = (await res.json()) as { data: Json & { id: string } }
      for (const key of ['summary', 'bySection', 'bySystem', 'byWeekday', 'byDate'])
        expect({ [key]: data[key] }).toEqual({ [key]: expected[key] })
      // Skipped rows also name their sheet now; the fixture states their row and reason.
      expect(project(data.skipped, shapeOf(expected.skipped as ExpectedJson))).toEqual(expected.skipped)
      // Classrooms come in school order (docs/absence.md "Order"); one fixture lists them in file order.
      const byName = (list: unknown) =>
        (list as Json[]).toSorted((a, b) => `${a.grade}/${a.classroom}`.localeCompare(`${b.grade}/${b.classroom}`))
      expect(byName(data.byClassroom)).toEqual(byName(expected.byClassroom))
      expect(data.kind).toBe('absence')

      const again = (await (await app.request(`/api/v1/analyses/${data.id}`, { headers })).json()) as { data: Json }
      expect(again.data.summary).toEqual(expected.summary)

      for (const student of expected.students) {
        const q = String(student.name).split(' ').slice(0, 3).join(' ')
        const found = await app.request(`/api/v1/analyses/${data.id}/students?q=${encodeURIComponent(q)}`, { headers })
        expect(found.status).toBe(200)
        const list = ((await found.json()) as { data: Json[] }).data
        expect(list.find((s) => s.name === student.name && s.classroom === student.classroom)).toMatchObject(student)
      }
    })
  }

  it('answers the search messages, in the request’s language', async () => {
    const { headers } = await teacher('ar')
    const res = await upload(headers, readFileSync(`${fixtures}/small-ar.xlsx`))
    const { data } = (await res.json()) as { data: { id: string } }
    const short = await app.request(`/api/v1/analyses/${data.id}/students?q=${encodeURIComponent('محمد سلطان')}`, { headers })
    expect(short.status).toBe(422)
    expect(await short.json()).toEqual({
      message: 'يجب أن يكون البحث بالاسم الكامل (ثلاث كلمات على الأقل)',
      errors: { q: ['يجب أن يكون البحث بالاسم الكامل (ثلاث كلمات على الأقل)'] },
    })
    const none = await app.request(`/api/v1/analyses/${data.id}/students?q=${encodeURIComponent('زيد عمرو بكر')}`, { headers })
    expect(none.status).toBe(404)
    expect(((await none.json()) as Json).message).toBe('الاسم غير موجود. يرجى المحاولة مرة أخرى.')
  })

  it('keeps each teacher’s analyses to themselves: list, read, search, export and delete answer 404 for another’s', async () => {
    const owner = await teacher('en')
    const other = await teacher('en')
    const { data } = (await (await upload(owner.headers, readFileSync(`${fixtures}/small-ar.xlsx`))).json()) as { data: { id: string } }
    expect(((await (await app.request('/api/v1/analyses', { headers: other.headers })).json()) as { data: unknown[] }).data).toEqual([])
    for (const path of [
      `/api/v1/analyses/${data.id}`,
      `/api/v1/analyses/${data.id}/students?q=a+b+c`,
      `/api/v1/analyses/${data.id}/export.xlsx`,
      `/api/v1/analyses/${data.id}/export.pdf`,
    ])
      expect({ path, status: (await app.request(path, { headers: other.headers })).status }).toEqual({ path, status: 404 })
    expect((await app.request(`/api/v1/analyses/${data.id}`, { method: 'DELETE', headers: other.headers })).status).toBe(404)
    expect((await app.request(`/api/v1/analyses/not-an-id`, { headers: owner.headers })).status).toBe(404)

    const list = ((await (await app.request('/api/v1/analyses', { headers: owner.headers })).json()) as { data: Json[] }).data
    expect(list.map((a) => a.id)).toEqual([data.id])
    expect((await app.request(`/api/v1/analyses/${data.id}`, { method: 'DELETE', headers: owner.headers })).status).toBe(200)
    expect((await app.request(`/api/v1/analyses/${data.id}`, { headers: owner.headers })).status).toBe(404)
  })

  it('exports the Excel workbook and the PDF of an analysis', async () => {
    const { headers } = await teacher('ar')
    const { data } = (await (await upload(headers, readFileSync(`${fixtures}/small-ar.xlsx`))).json()) as { data: { id: string } }
    const xlsx = await app.request(`/api/v1/analyses/${data.id}/export.xlsx`, { headers })
    expect(xlsx.status).toBe(200)
    expect(xlsx.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    expect(
      Buffer.from(await xlsx.arrayBuffer())
        .subarray(0, 2)
        .toString(),
    ).toBe('PK')
    const pdf = await app.request(`/api/v1/analyses/${data.id}/export.pdf`, { headers })
    expect(pdf.status).toBe(200)
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-')
  })

  it('says when the file is the other tool’s: a grades file sent to the absence analysis, and the other way round', async () => {
    const grades = readFileSync(resolve(fixtures, '../../grades/fixtures/english-two-subjects.xlsx'))
    for (const lang of ['ar', 'en'] as const) {
      const { headers } = await teacher(lang)
      const res = await upload(headers, grades)
      expect(res.status).toBe(422)
      const body = (await res.json()) as { message: string; otherTool?: string; missingColumns: string[] }
      expect(body.otherTool).toBe('grades')
      // The missing columns are named once, as a list in the request's language.
      for (const column of body.missingColumns) expect(body.message.split(column)).toHaveLength(2)
      expect(body.message).toMatch(
        lang === 'ar'
          ? /^(لم نجد في الملف جدول الغياب|في الورقة)/
          : /^Invalid file format\. Please download the sample file and modify it\./,
      )
    }
    const { headers } = await teacher('en')
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(readFileSync(`${fixtures}/small-ar.xlsx`))]), 'absence.xlsx')
    const res = await app.request('/api/v1/analyses/grades', { method: 'POST', headers, body: form })
    expect(res.status).toBe(422)
    expect(((await res.json()) as { otherTool?: string }).otherTool).toBe('absence')
    // A file that is neither tool's has no such hint.
    const neither = await upload(headers, new TextEncoder().encode('name,date,status\nA,2025-09-01,present\n'), 'report.csv')
    expect(((await neither.json()) as { otherTool?: string }).otherTool).toBeUndefined()
  })

  it('refuses files that are not the sample’s workbook with the product’s message, and says which limit', async () => {
    const { headers } = await teacher('en')
    // A CSV is read (whatever its name says), but its table lacks the student's name: the
    // product's message, then the closest table found and what it lacks.
    const csv = await upload(headers, new TextEncoder().encode('name,date,status\nA,2025-09-01,present\n'), 'report.xlsx')
    expect(csv.status).toBe(422)
    const invalid = 'Invalid file format. Please download the sample file and modify it.'
    const refused = (await csv.json()) as { message: string; errors: { file: string[] }; missingColumns: string[] }
    expect(refused.message).toBe(`${invalid} The table on sheet 1 (headers in row 1) lacks the columns Student name.`)
    // docs/api.md: a 422 names the field at fault, here the upload's `file`.
    expect(refused.errors).toEqual({ file: [refused.message] })
    expect(refused.missingColumns).toEqual(['Student name'])
    // A binary file that is no workbook: the product's message alone.
    const pdf = await upload(
      headers,
      new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37, 0x0a, 0x00, 0x01, 0x02, 0xff, 0xfe, 0x00, 0x9c]),
      'report.xlsx',
    )
    expect(await pdf.json()).toEqual({ message: invalid, errors: { file: [invalid] } })
    const xls = await upload(headers, new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]), 'report.xls')
    expect(xls.status).toBe(422)
    const none = await app.request('/api/v1/analyses/absence', { method: 'POST', headers, body: new FormData() })
    expect(none.status).toBe(422)
    expect(((await none.json()) as Json).message).toBe('Choose a file to upload: an Excel workbook (.xlsx or .xls) or a CSV file.')
    const big = await upload(headers, new Uint8Array(services.env.ANALYSIS_MAX_UPLOAD_MB * 1024 * 1024 + 10))
    expect(big.status).toBe(413)
    expect(((await big.json()) as Json).message).toBe(
      `The file is larger than ${services.env.ANALYSIS_MAX_UPLOAD_MB} MB. Split it into smaller files and upload each.`,
    )
  })

  it('limits each teacher’s uploads per hour (429 with Retry-After), apart from other teachers', async () => {
    const limited = testServices(testDb(), { ANALYSIS_UPLOADS_PER_HOUR: '2' })
    const limitedApp = apiTestApp(limited)
    const bytes = readFileSync(`${fixtures}/small-ar.xlsx`)
    const send = (headers: Record<string, string>) => {
      const form = new FormData()
      form.append('file', new Blob([new Uint8Array(bytes)]), 'report.xlsx')
      return limitedApp.request('/api/v1/analyses/absence', { method: 'POST', headers, body: form })
    }
    const one = await subscribedTeacher(testDb().db)
    const headersOne = await apiHeaders(testDb().db, limited.env.SESSION_SECRET, one.id, 'en')
    expect([(await send(headersOne)).status, (await send(headersOne)).status]).toEqual([201, 201])
    const third = await send(headersOne)
    expect(third.status).toBe(429)
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(((await third.json()) as Json).message).toMatch(/^Too many uploads in a short time/)
    const two = await subscribedTeacher(testDb().db)
    expect((await send(await apiHeaders(testDb().db, limited.env.SESSION_SECRET, two.id, 'en'))).status).toBe(201)
  })
})
