import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { findAnalysis } from '#app/features/analyses/index.server.ts'
import { ladderPresets } from '#app/features/follow-up/index.ts'
import { saveLadder, stepDocumentsSummary } from '#app/features/follow-up/index.server.ts'
import { loader } from '#app/routes/step-letters.tsx'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { apiTestApp } from '#tests/api-app.ts'
import { testContext, testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { subscribedTeacher } from '#tests/exams.ts'
import { readWorkbookRows } from '#tests/workbook-rows.ts'

// A step's letters through the API (every answer checked against the OpenAPI document) and the
// page's download route, from an upload of our own: 26 school days from Sunday 7 September 2025,
// and students whose unexcused days were chosen around the standard ladder's boundaries (3, 5,
// 10, 15, 25). Worked out by hand:
//   step 1 (3–4 days): Adel 3 and Badr 4 (First intermediate 1), Zaid 3 (First intermediate 2)
//   step 2 (5–9 days): Hadi 5 (Second intermediate 1)
//   step 5 (25+):      Majed 25 (Second intermediate 1)
//   no step:           Fahd 2; Nasser 2 unexcused and 3 excused (excused days do not count)

const schoolDays = (() => {
  const days: string[] = []
  for (let d = Date.UTC(2025, 8, 7); days.length < 26; d += 86_400_000) {
    const weekday = new Date(d).getUTCDay()
    if (weekday <= 4) days.push(new Date(d).toISOString().slice(0, 10))
  }
  return days
})()

const roster = [
  { name: 'Zaid Ali Saad', id: '1100000001', grade: 'First intermediate', classroom: '2', unexcused: 3, excused: 0 },
  { name: 'Badr Omar Fahd', id: '1100000002', grade: 'First intermediate', classroom: '1', unexcused: 4, excused: 0 },
  { name: 'Adel Saad Nasser', id: '1100000003', grade: 'First intermediate', classroom: '1', unexcused: 3, excused: 0 },
  { name: 'Hadi Sami Ali', id: '1100000004', grade: 'Second intermediate', classroom: '1', unexcused: 5, excused: 0 },
  { name: 'Fahd Nawaf Saleh', id: '1100000005', grade: 'First intermediate', classroom: '1', unexcused: 2, excused: 0 },
  { name: 'Majed Hamad Salem', id: '1100000006', grade: 'Second intermediate', classroom: '1', unexcused: 25, excused: 0 },
  { name: 'Nasser Yasser Adel', id: '1100000007', grade: 'First intermediate', classroom: '2', unexcused: 2, excused: 3 },
]

/** The daily layout as CSV: every student every school day, unexcused days first, then excused. */
function dailyCsv(): Uint8Array {
  const lines = ['Student name,Student ID,Grade,Classroom,Date,Status']
  for (const s of roster)
    schoolDays.forEach((day, i) => {
      const status = i < s.unexcused ? 'Unexcused' : i < s.unexcused + s.excused ? 'Excused' : 'Present'
      lines.push([s.name, s.id, s.grade, s.classroom, day, status].join(','))
    })
  return new TextEncoder().encode(`${lines.join('\n')}\n`)
}

let app: ReturnType<typeof apiTestApp>
let services: ReturnType<typeof testServices>
const testDb = setupTestDatabase(async (db) => {
  await seedPackages({ db: db.db })
  services = testServices(db)
  app = apiTestApp(services)
})

async function teacherWithUpload() {
  const ctx = testContext(testDb(), { env: services.env, files: services.files })
  const who = await subscribedTeacher(ctx)
  const headers = { authorization: `Bearer ${who.token}`, 'accept-language': 'en' }
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(dailyCsv())]), 'absence.csv')
  const res = await app.request('/api/v1/analyses/absence', { method: 'POST', headers, body: form })
  expect(res.status).toBe(201)
  const id = ((await res.json()) as { data: { id: string } }).data.id
  return { ...who, ctx, headers, id }
}

const pdftotext = (pdf: Uint8Array) =>
  execFileSync('/usr/bin/pdftotext', ['-layout', '-', '-'], { input: pdf })
    .toString('utf8')
    .replace(/[\u202A-\u202E]/g, '')
const pageCount = (pdf: Uint8Array) =>
  Number(
    /^Pages:\s+(\d+)/m.exec(execFileSync('/usr/bin/pdfinfo', ['-'], { input: pdf, stdio: ['pipe', 'pipe', 'ignore'] }).toString())?.[1],
  )
const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer())

describe('step letters in the API', () => {
  it('prints one letter a student at the step, in classroom then name order, in the language asked for', async () => {
    const { headers, id } = await teacherWithUpload()
    const school = { school_name: 'King Fahd Intermediate', education_office: 'Riyadh Education', principal_name: 'Saad Alotaibi' }
    const put = { method: 'PUT', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(school) }
    expect((await app.request('/api/v1/auth/profile/school', put)).status).toBe(200)
    const res = await app.request(`/api/v1/analyses/${id}/steps/1/letters.pdf`, { headers })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/pdf')
    const pdf = await bytesOf(res)
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-')
    expect(pageCount(pdf)).toBe(3)
    const text = pdftotext(pdf)
    const pages = text.split('\f').filter((p) => p.trim())
    expect(pages.map((p) => roster.find((s) => p.includes(s.name))?.name)).toEqual(['Adel Saad Nasser', 'Badr Omar Fahd', 'Zaid Ali Saad'])
    expect(pages[0]).toContain('First absence warning')
    // Adel's three unexcused days: Sunday 7, Monday 8 and Tuesday 9 September 2025 (15–17 Rabiʻ I 1447).
    expect(pages[0]).toMatch(/Sunday\s+15 Rabiʻ I 1447 AH\s+7 September 2025/)
    expect(pages[0]).toMatch(/Tuesday\s+17 Rabiʻ I 1447 AH\s+9 September 2025/)
    expect(pages[0]).not.toContain('10 September 2025')
    expect(pages[0]).toContain('The guardian declined to sign')
    // The letterhead and the principal's line from the school details, on every page.
    for (const page of pages) for (const detail of Object.values(school)) expect(page).toContain(detail)

    // Arabic on request: the same students, the Arabic title.
    const ar = await bytesOf(await app.request(`/api/v1/analyses/${id}/steps/1/letters.pdf?lang=ar`, { headers }))
    expect(pageCount(ar)).toBe(3)
    expect(pdftotext(ar)).toContain('إنذار أول بالغياب')

    // One classroom; the next steps (5 days: Hadi; 25 days: Majed).
    const one = await app.request(`/api/v1/analyses/${id}/steps/1/letters.pdf?classroom=${encodeURIComponent('First intermediate / 1')}`, {
      headers,
    })
    expect(pageCount(await bytesOf(one))).toBe(2)
    const second = pdftotext(await bytesOf(await app.request(`/api/v1/analyses/${id}/steps/2/letters.pdf`, { headers })))
    expect(second).toContain('Hadi Sami Ali')
    expect(second).toContain('Second absence warning')
    const fifth = await bytesOf(await app.request(`/api/v1/analyses/${id}/steps/5/letters.pdf`, { headers }))
    expect(pageCount(fifth)).toBe(1)
    expect(pdftotext(fifth)).toContain('Majed Hamad Salem')
  })

  it('follows the teacher’s own ladder: on the short preset (10, 15, 20) only Majed (25 days) has a letter, the referral', async () => {
    const { ctx, user, headers, id } = await teacherWithUpload()
    await saveLadder({ db: ctx.db, userId: user.id, steps: ladderPresets.short })
    for (const step of [1, 2]) expect((await app.request(`/api/v1/analyses/${id}/steps/${step}/letters.pdf`, { headers })).status).toBe(404)
    const third = await bytesOf(await app.request(`/api/v1/analyses/${id}/steps/3/letters.pdf`, { headers }))
    expect(pageCount(third)).toBe(1)
    expect(pdftotext(third)).toContain('Referral of a student to the student counsellor')
    expect(pdftotext(third)).toContain('Majed Hamad Salem')
    expect((await app.request(`/api/v1/analyses/${id}/steps/4/letters.pdf`, { headers })).status).toBe(404)
  })

  it('lists the same students in a workbook', async () => {
    const { headers, id } = await teacherWithUpload()
    const res = await app.request(`/api/v1/analyses/${id}/steps/1/letters.xlsx`, { headers })
    expect(res.status).toBe(200)
    const { rows } = readWorkbookRows(await bytesOf(res), [])
    expect(rows).toHaveLength(4)
    expect(rows[0]?.cells.slice(0, 6)).toEqual(['No.', 'Student’s name', 'ID number', 'Grade', 'Classroom', 'Days absent without excuse'])
    expect(rows.slice(1).map((r) => [r.cells[0], r.cells[1], r.cells[2], r.cells[4], r.cells[5]])).toEqual([
      [1, 'Adel Saad Nasser', '1100000003', '1', 3],
      [2, 'Badr Omar Fahd', '1100000002', '1', 4],
      [3, 'Zaid Ali Saad', '1100000001', '2', 3],
    ])
    expect(String(rows[1]?.cells[6])).toContain('7 September 2025')
  })

  it('answers 404 for another teacher’s analysis, a step the ladder lacks and a step without students', async () => {
    const { id } = await teacherWithUpload()
    const other = await teacherWithUpload()
    const paths = [
      `/api/v1/analyses/${id}/steps/1/letters.pdf`,
      `/api/v1/analyses/${id}/steps/1/letters.xlsx`,
      `/api/v1/analyses/${other.id}/steps/6/letters.pdf`,
      `/api/v1/analyses/${other.id}/steps/0/letters.pdf`,
      `/api/v1/analyses/${other.id}/steps/3/letters.pdf`,
    ]
    const statuses: Record<string, number> = {}
    for (const path of paths) statuses[path] = (await app.request(path, { headers: other.headers })).status
    expect(statuses).toEqual(Object.fromEntries(paths.map((path) => [path, 404])))
    expect((await app.request(`/api/v1/analyses/${id}/steps/1/letters.pdf`)).status).toBe(401)
  })

  it('counts each download against the hourly exports', async () => {
    const limited = testServices(testDb(), { EXPORTS_PER_HOUR: '2', SESSION_SECRET: services.env.SESSION_SECRET })
    const limitedApp = apiTestApp(limited)
    const { headers, id } = await teacherWithUpload()
    expect((await limitedApp.request(`/api/v1/analyses/${id}/steps/1/letters.xlsx`, { headers })).status).toBe(200)
    expect((await limitedApp.request(`/api/v1/analyses/${id}/steps/2/letters.xlsx`, { headers })).status).toBe(200)
    const refused = await limitedApp.request(`/api/v1/analyses/${id}/steps/1/letters.pdf`, { headers })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})

describe('stepDocumentsSummary', () => {
  it('counts the students of every step and names their classrooms, as the report’s block lists them', async () => {
    const { ctx, user, id } = await teacherWithUpload()
    const stored = await findAnalysis({ db: ctx.db, userId: user.id, id })
    if (stored?.kind !== 'absence') throw new Error('no absence analysis')
    const steps = await stepDocumentsSummary({ db: ctx.db, userId: user.id, stored })
    expect(steps.map((s) => [s.number, s.days, s.document, s.students, s.classrooms])).toEqual([
      [1, 3, 'firstWarning', 3, ['First intermediate / 1', 'First intermediate / 2']],
      [2, 5, 'secondWarning', 1, ['Second intermediate / 1']],
      [3, 10, 'guardianPledge', 0, []],
      [4, 15, 'counsellorReferral', 0, []],
      [5, 25, 'enrolmentChange', 1, ['Second intermediate / 1']],
    ])
  })
})

describe('the page’s download route', () => {
  const call = (ctx: ReturnType<typeof testContext>, cookie: string, path: string, analysisId: string, step: string) =>
    loader({
      request: new Request(`http://localhost${path}`, { headers: { cookie } }),
      params: { lang: 'ar', analysisId, step },
      context: ctx,
    } as never)

  it('downloads the step’s letters in Arabic, English with ?lang=en, and 404 for another teacher', async () => {
    const { ctx, cookie, id } = await teacherWithUpload()
    const pdf = (await call(ctx, cookie, `/ar/analyses/${id}/steps/1/letters.pdf`, id, '1')) as Response
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    const bytes = await bytesOf(pdf)
    expect(pageCount(bytes)).toBe(3)
    expect(pdftotext(bytes)).toContain('إنذار أول بالغياب')
    const en = (await call(ctx, cookie, `/ar/analyses/${id}/steps/2/letters.pdf?lang=en`, id, '2')) as Response
    expect(pdftotext(await bytesOf(en))).toContain('Second absence warning')
    const xlsx = (await call(ctx, cookie, `/ar/analyses/${id}/steps/1/letters.xlsx`, id, '1')) as Response
    expect(readWorkbookRows(await bytesOf(xlsx), []).rows).toHaveLength(4)

    const other = await teacherWithUpload()
    await expect(call(ctx, other.cookie, `/ar/analyses/${id}/steps/1/letters.pdf`, id, '1')).rejects.toMatchObject({
      init: { status: 404 },
    })
    await expect(call(ctx, cookie, `/ar/analyses/${id}/steps/x/letters.pdf`, id, 'x')).rejects.toMatchObject({ init: { status: 404 } })
  })
})
