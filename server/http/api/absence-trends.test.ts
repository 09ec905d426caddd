import { execFileSync } from 'node:child_process'
import * as XLSX from '@e965/xlsx'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { analysisEntries } from '#app/platform/db/schema.ts'
import { apiTestApp } from '#tests/api-app.ts'
import { testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { apiHeaders, subscribedTeacher } from '#tests/subscriber.ts'

// Trends, comparisons and parent message templates through the API (issue 18), every answer
// checked against the OpenAPI document (apiTestApp). Three uploads of Noor's totals report for one
// school, a term's running totals: 20, 40 and 60 school days (24 August 2025, a Sunday, to the
// Thursdays 18 September, 16 October and 13 November: 4, 8 and 12 weeks). The figures below were
// worked out by hand (app/features/absence-trends/figures.test.ts has the same students).

let app: ReturnType<typeof apiTestApp>
let services: ReturnType<typeof testServices>
const testDb = setupTestDatabase(async (db) => {
  await seedPackages({ db: db.db })
  services = testServices(db)
  app = apiTestApp(services)
})

async function teacher(lang: 'ar' | 'en' = 'en') {
  const user = await subscribedTeacher(testDb().db)
  return { user, headers: await apiHeaders(testDb().db, services.env.SESSION_SECRET, user.id, lang) }
}

const G = 'الأول المتوسط'
type Row = [name: string, id: string, classroom: string, excused: number, unexcused: number, mobile?: string]

/** A totals report as Noor's CSV export: the school and the period above the header row. */
function totalsCsv(school: string, to: string, rows: Row[]): string {
  return [
    `اسم المدرسة,${school}`,
    `من تاريخ,2025-08-24,إلى تاريخ,${to}`,
    '',
    'اسم الطالب,رقم الهوية,الصف,الفصل,غياب بعذر,غياب بدون عذر,جوال ولي الأمر',
    ...rows.map(([name, id, classroom, e, u, mobile]) => [name, id, G, classroom, e, u, mobile ?? ''].join(',')),
  ].join('\r\n')
}

const sara = 'سارة علي أحمد'
const noura = 'نورة خالد سعد'
const reem = 'ريم سعود فهد'
const hind = 'هند عمر ناصر'
const uploadsOf: Row[][] = [
  [
    [sara, '1100000001', '1', 0, 2],
    [noura, '1100000002', '1', 0, 1],
    [reem, '1100000003', '1', 2, 0],
    [hind, '1100000004', '2', 0, 10],
  ],
  [
    [sara, '1100000001', '1', 1, 4],
    [noura, '1100000002', '1', 0, 1],
    [reem, '1100000003', '1', 2, 3],
    [hind, '1100000004', '2', 0, 10],
  ],
  [
    [sara, '1100000001', '1', 1, 6, '055 123 4567'],
    [reem, '1100000003', '2', 5, 3],
    [hind, '1100000004', '2', 0, 11],
  ],
]
const ends = ['2025-09-18', '2025-10-16', '2025-11-13']

async function upload(headers: Record<string, string>, csv: string): Promise<string> {
  const form = new FormData()
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'report.csv')
  const res = await app.request('/api/v1/analyses/absence', { method: 'POST', headers, body: form })
  expect(res.status).toBe(201)
  return ((await res.json()) as { data: { id: string } }).data.id
}

/** The three uploads, the last first (the timeline must follow the periods, not the upload order). */
async function threeUploads(headers: Record<string, string>) {
  const u3 = await upload(headers, totalsCsv('متوسطة النور', ends[2]!, uploadsOf[2]!))
  const u1 = await upload(headers, totalsCsv('متوسطة النور', ends[0]!, uploadsOf[0]!))
  const u2 = await upload(headers, totalsCsv('متوسطة النور', ends[1]!, uploadsOf[1]!))
  return { u1, u2, u3 }
}

const json = async <T>(res: Response) => ((await res.json()) as { data: T }).data

describe('absence trends in the API', () => {
  it('lays the school’s uploads along their periods, per classroom, and follows a student across them', async () => {
    const { headers } = await teacher()
    const { u1, u2, u3 } = await threeUploads(headers)
    // Another school's analysis is another timeline.
    await upload(headers, totalsCsv('ابتدائية الفجر', ends[0]!, [[sara, '1100000001', '1', 0, 0]]))

    const res = await app.request('/api/v1/absence/trends', { headers })
    expect(res.status).toBe(200)
    const trends = await json<{
      schools: { school: string | null; analyses: number }[]
      school: string
      uploads: { id: string; to: string; attendanceRate: number; unexcused: number; students: number }[]
      classrooms: { classroom: string; points: ({ attendanceRate: number; unexcused: number } | null)[] }[]
      students: null
    }>(res)
    // The newest analysis (by its period) is متوسطة النور's: shown by default.
    expect(trends.school).toBe('متوسطة النور')
    expect(trends.schools).toEqual([
      { school: 'ابتدائية الفجر', analyses: 1 },
      { school: 'متوسطة النور', analyses: 3 },
    ])
    // School: 65 of 80 present (81.25%), 139 of 160 (86.875 → 86.88), 154 of 180 (85.56); 13, 18, 20 unexcused days.
    expect(trends.uploads.map((u) => [u.id, u.to, u.attendanceRate, u.unexcused, u.students])).toEqual([
      [u1, '2025-09-18', 81.25, 13, 4],
      [u2, '2025-10-16', 86.88, 18, 4],
      [u3, '2025-11-13', 85.56, 20, 3],
    ])
    expect(trends.classrooms).toEqual([
      {
        grade: G,
        classroom: '1',
        points: [
          { attendanceRate: 91.67, unexcused: 3 },
          { attendanceRate: 90.83, unexcused: 8 },
          { attendanceRate: 88.33, unexcused: 6 },
        ],
      },
      {
        grade: G,
        classroom: '2',
        points: [
          { attendanceRate: 50, unexcused: 10 },
          { attendanceRate: 75, unexcused: 10 },
          { attendanceRate: 84.17, unexcused: 14 },
        ],
      },
    ])
    expect(trends.students).toBeNull()

    // Reem by name (three words): the same student by her ID, in classroom 2 at the end.
    const found = await json<{ students: { name: string; classroom: string; points: unknown[] }[] }>(
      await app.request(`/api/v1/absence/trends?school=${encodeURIComponent('متوسطة النور')}&q=${encodeURIComponent('ريم سعود فهد')}`, {
        headers,
      }),
    )
    expect(found.students).toEqual([
      {
        name: reem,
        studentId: '1100000003',
        grade: G,
        classroom: '2',
        points: [
          { attendanceRate: 90, unexcused: 0, grade: G, classroom: '1' },
          { attendanceRate: 87.5, unexcused: 3, grade: G, classroom: '1' },
          { attendanceRate: 86.67, unexcused: 3, grade: G, classroom: '2' },
        ],
      },
    ])
    // Noura left: no point in the third.
    const left = await json<{ students: { points: unknown[] }[] }>(
      await app.request(`/api/v1/absence/trends?q=${encodeURIComponent(noura)}`, { headers }),
    )
    expect(left.students[0]?.points[2]).toBeNull()
    // Two words are refused as the report's search refuses them.
    const short = await app.request(`/api/v1/absence/trends?q=${encodeURIComponent('ريم سعود')}`, { headers })
    expect(short.status).toBe(422)
    // The other school, by name.
    const other = await json<{ uploads: unknown[] }>(
      await app.request(`/api/v1/absence/trends?school=${encodeURIComponent('ابتدائية الفجر')}`, { headers }),
    )
    expect(other.uploads).toHaveLength(1)
  })

  it('compares two uploads: classrooms, the largest rises, the students new to a step', async () => {
    const { headers } = await teacher()
    const { u2, u3 } = await threeUploads(headers)
    const res = await app.request(`/api/v1/absence/compare?a=${u2}&b=${u3}`, { headers })
    expect(res.status).toBe(200)
    const c = await json<{
      classrooms: unknown[]
      roseMost: { name: string; change: { absent: number; unexcused: number }; previousClassroom: unknown }[]
      newToStep: unknown[]
      students: unknown
    }>(res)
    expect(c.classrooms).toEqual([
      {
        grade: G,
        classroom: '1',
        a: { attendanceRate: 90.83, unexcused: 8 },
        b: { attendanceRate: 88.33, unexcused: 6 },
        change: { attendanceRate: -2.5, unexcused: -2 },
      },
      {
        grade: G,
        classroom: '2',
        a: { attendanceRate: 75, unexcused: 10 },
        b: { attendanceRate: 84.17, unexcused: 14 },
        change: { attendanceRate: 9.17, unexcused: 4 },
      },
    ])
    expect(c.roseMost.map((r) => [r.name, r.change.absent, r.change.unexcused])).toEqual([
      [reem, 3, 0],
      [sara, 2, 2],
      [hind, 1, 1],
    ])
    expect(c.roseMost[0]?.previousClassroom).toEqual({ grade: G, classroom: '1' })
    expect(c.newToStep).toEqual([
      {
        name: sara,
        studentId: '1100000001',
        grade: G,
        classroom: '1',
        step: 1,
        days: 5,
        document: 'secondWarning',
        stepName: null,
        unexcused: 6,
        previousUnexcused: 4,
        previousStep: 0,
      },
    ])
    expect(c.students).toEqual({ matched: 3, joined: 0, left: 1 })
  })

  it('answers 404 for another teacher’s analysis, on either side, and for a missing one', async () => {
    const mine = await teacher()
    const theirs = await teacher()
    const { u1, u2 } = await threeUploads(mine.headers)
    const own = await upload(theirs.headers, totalsCsv('متوسطة النور', ends[0]!, uploadsOf[0]!))
    const statuses: Record<string, number> = {}
    for (const query of [`a=${u1}&b=${u2}`, `a=${own}&b=${u2}`, `a=${u1}&b=not-an-id`, `a=${u1}`])
      statuses[query] = (await app.request(`/api/v1/absence/compare?${query}`, { headers: theirs.headers })).status
    expect(Object.values(statuses)).toEqual([404, 404, 404, 404])
    // Her trends hold only her own analysis.
    const trends = await json<{ uploads: { id: string }[] }>(await app.request('/api/v1/absence/trends', { headers: theirs.headers }))
    expect(trends.uploads.map((u) => u.id)).toEqual([own])
  })

  it('keeps the guardian’s number with that student’s record only, and gives it in that student’s search answer', async () => {
    const { headers } = await teacher()
    const { u3 } = await threeUploads(headers)
    const whole = await (await app.request(`/api/v1/analyses/${u3}`, { headers })).text()
    expect(whole).not.toContain('551234567')
    const list = await (await app.request('/api/v1/analyses', { headers })).text()
    expect(list).not.toContain('551234567')
    const found = await json<{ guardianMobile?: string }[]>(
      await app.request(`/api/v1/analyses/${u3}/students?q=${encodeURIComponent(sara)}`, { headers }),
    )
    expect(found[0]?.guardianMobile).toBe('966551234567')
    const other = await json<{ guardianMobile?: string }[]>(
      await app.request(`/api/v1/analyses/${u3}/students?q=${encodeURIComponent(hind)}`, { headers }),
    )
    expect(other[0]).not.toHaveProperty('guardianMobile')
    // The exports read back: the workbook's every sheet as text (Sara's row is there, her guardian's
    // number is not), the PDF as text.
    const exportOf = async (format: string) =>
      new Uint8Array(await (await app.request(`/api/v1/analyses/${u3}/export.${format}`, { headers })).arrayBuffer())
    const book = XLSX.read(await exportOf('xlsx'))
    const sheets = book.SheetNames.map((name) => XLSX.utils.sheet_to_csv(book.Sheets[name]!)).join('\n')
    expect(sheets).toContain(sara)
    expect(sheets).not.toContain('551234567')
    const pdfText = execFileSync('/usr/bin/pdftotext', ['-layout', '-', '-'], { input: await exportOf('pdf') }).toString('utf8')
    expect(pdfText.length).toBeGreaterThan(100)
    expect(pdfText).not.toContain('551234567')
    // Deleted with the analysis.
    expect((await app.request(`/api/v1/analyses/${u3}`, { method: 'DELETE', headers })).status).toBe(200)
    const left = await testDb().db.select({ data: analysisEntries.data }).from(analysisEntries).where(eq(analysisEntries.analysisId, u3))
    expect(left).toEqual([])
  })
})

describe('parent message templates in the API', () => {
  const put = (headers: Record<string, string>, body: unknown) =>
    app.request('/api/v1/settings/message-templates', {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })

  it('gives the defaults, refuses an unknown placeholder, saves a change for this teacher only', async () => {
    const { headers } = await teacher('ar')
    const other = await teacher('en')
    const defaults = await json<Record<string, string>>(await app.request('/api/v1/settings/message-templates', { headers }))
    expect(Object.keys(defaults)).toHaveLength(12)
    expect(defaults.ar_same_day).toContain('{اسم الطالب}')
    expect(defaults.en_first_warning).toContain('the school will follow up')

    const refused = await put(headers, { ...defaults, ar_first_warning: 'ولي أمر {name}' })
    expect(refused.status).toBe(422)
    expect(((await refused.json()) as { errors: Record<string, string[]> }).errors).toEqual({
      ar_first_warning: [
        'في النص موضع غير معروف بين قوسين؛ المواضع المعروفة: {اسم الطالب} و{الصف والفصل} و{عدد الأيام} و{التواريخ} و{اسم المدرسة}، أو أسماؤها بالإنجليزية.',
      ],
    })
    expect((await put(headers, { ar_first_warning: 'x' })).status).toBe(422)

    const saved = await put(headers, { ...defaults, en_same_day: '  {student} is absent today ({dates}). {school}  ' })
    expect(saved.status).toBe(200)
    const body = (await saved.json()) as { message: string; data: Record<string, string> }
    expect(body.message).toBe('حُفظت نصوص رسائل أولياء الأمور.')
    expect(body.data.en_same_day).toBe('{student} is absent today ({dates}). {school}')
    const again = await json<Record<string, string>>(await app.request('/api/v1/settings/message-templates', { headers }))
    expect(again.en_same_day).toBe('{student} is absent today ({dates}). {school}')
    const theirs = await json<Record<string, string>>(await app.request('/api/v1/settings/message-templates', { headers: other.headers }))
    expect(theirs.en_same_day).toBe(defaults.en_same_day)
  })
})
