import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { followUpLadders, followUpRegister, users } from '#app/platform/db/schema.ts'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { apiTestApp } from '#tests/api-app.ts'
import { testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { absenceWorkbook, firstSunday, hind, noura, reem, sara, threeUploads } from '#tests/follow-up-workbooks.ts'
import { apiHeaders, subscribedTeacher } from '#tests/subscriber.ts'

// The ladder and the follow-up register through the API (issue 18, docs/follow-up.md), every
// answer checked against the OpenAPI document (apiTestApp). Three uploads of one class a month
// apart (tests/follow-up-workbooks.ts); the expected steps and counts worked out by hand there.

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

type Headers = Record<string, string>
const json = async <T>(res: Response) => (await res.json()) as T
const send = (headers: Headers, method: string, path: string, body?: unknown) =>
  app.request(`/api/v1${path}`, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  })

async function upload(headers: Headers, index: number): Promise<string> {
  const u = threeUploads[index]!
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(absenceWorkbook(u.students, firstSunday, u.days))]), `${u.title}.xlsx`)
  const res = await app.request('/api/v1/analyses/absence', { method: 'POST', headers, body: form })
  expect(res.status).toBe(201)
  return (await json<{ data: { id: string } }>(res)).data.id
}

type Outstanding = { student: string; name: string; step: number; classroom: string; unexcused: number }
type Entry = { id: string; student_name: string; step: number; status: string; notes: string; classroom: string }
type Register = {
  school_year: number
  by_classroom: { grade: string; classroom: string; reached: number; issued: number; outstanding: number }[]
  outstanding: Outstanding[]
  issued: Entry[]
}
const register = async (headers: Headers) => (await json<{ data: Register }>(await send(headers, 'GET', '/follow-up/register'))).data
const owed = (r: Register) => r.outstanding.map((s) => [s.name, s.step]).sort()
const refOf = (r: Register, name: string) => r.outstanding.find((s) => s.name === name)?.student ?? ''
const grade = 'الأول المتوسط'

describe('the follow-up register through the API', () => {
  it('follows three uploads: steps in the analysis, documents recorded, students moving up, a classroom change, a student who left', async () => {
    const { headers } = await teacher()
    const october = await upload(headers, 0)

    // The analysis answers each classroom's students per step (standard ladder): سارة 3 → step 1,
    // ريم 5 → step 2, هند 25 → step 5, نورة 2 → none.
    const analysis = (await json<{ data: { steps: unknown } }>(await send(headers, 'GET', `/analyses/${october}`))).data
    expect(analysis.steps).toMatchObject({
      summary: { atStep: [1, 1, 0, 0, 1], reached: 3, students: 4 },
      byClassroom: [{ grade, classroom: '1', atStep: [1, 1, 0, 0, 1], reached: 3, students: 4 }],
    })
    const found = await send(headers, 'GET', `/analyses/${october}/students?q=${encodeURIComponent(sara.name)}`)
    expect((await json<{ data: unknown[] }>(found)).data).toEqual([
      expect.objectContaining({ unexcused: 3, warningLevel: 1, step: { number: 1, days: 3, name: null, document: 'firstWarning' } }),
    ])

    let r = await register(headers)
    expect(r.school_year).toBe(2025)
    expect(owed(r)).toEqual(
      [
        [reem.name, 2],
        [sara.name, 1],
        [hind.name, 5],
      ].sort(),
    )
    expect(r.by_classroom).toEqual([{ grade, classroom: '1', reached: 3, issued: 0, outstanding: 3 }])

    // Record سارة's first warning as signed and ريم's second warning as declined.
    const issue = (name: string, step: number, status: string) =>
      send(headers, 'POST', '/follow-up/register', {
        student: refOf(r, name),
        step,
        school_year: 2025,
        issued_on: '2025-10-20',
        issued_by: 'أ. منى',
        status,
        notes: '',
      })
    const signed = await issue(sara.name, 1, 'signed')
    expect(signed.status).toBe(201)
    expect((await json<{ data: Entry }>(signed)).data).toMatchObject({ student_name: sara.name, step: 1, status: 'signed', classroom: '1' })
    expect((await issue(reem.name, 2, 'declined')).status).toBe(201)
    // A step not reached, and the same step twice, are refused.
    const notReached = await issue(hind.name, 6, 'signed')
    expect(notReached.status).toBe(422)
    expect((await issue(sara.name, 1, 'awaiting')).status).toBe(409)

    r = await register(headers)
    expect(owed(r)).toEqual([[hind.name, 5]])
    expect(r.by_classroom).toEqual([{ grade, classroom: '1', reached: 3, issued: 2, outstanding: 1 }])

    // November: سارة moves up to step 2 (owed again); ريم, in classroom 2 now, keeps her step 2 (recorded).
    await upload(headers, 1)
    r = await register(headers)
    expect(owed(r)).toEqual(
      [
        [sara.name, 2],
        [hind.name, 5],
      ].sort(),
    )
    expect(r.by_classroom).toEqual([
      { grade, classroom: '1', reached: 2, issued: 2, outstanding: 2 },
      { grade, classroom: '2', reached: 1, issued: 0, outstanding: 0 },
    ])

    // December: نورة reaches step 1 (exactly 3 days), ريم step 3.
    await upload(headers, 2)
    r = await register(headers)
    expect(owed(r)).toEqual(
      [
        [sara.name, 2],
        [noura.name, 1],
        [reem.name, 3],
        [hind.name, 5],
      ].sort(),
    )

    // A status changed, notes added.
    const reemEntry = r.issued.find((e) => e.student_name === reem.name)!
    const changed = await send(headers, 'PATCH', `/follow-up/register/${reemEntry.id}`, { status: 'signed', notes: 'وقّع بعد اتصال' })
    expect(changed.status).toBe(200)
    expect((await json<{ data: Entry }>(changed)).data).toMatchObject({ status: 'signed', notes: 'وقّع بعد اتصال' })
    expect((await send(headers, 'PATCH', `/follow-up/register/${reemEntry.id}`, { status: 'lost' })).status).toBe(422)

    // Deleting the October analysis loses no entry; هند, in no other analysis, is no longer listed.
    expect((await send(headers, 'DELETE', `/analyses/${october}`)).status).toBe(200)
    r = await register(headers)
    expect(r.issued.map((e) => [e.student_name, e.step, e.status]).sort()).toEqual(
      [
        [sara.name, 1, 'signed'],
        [reem.name, 2, 'signed'],
      ].sort(),
    )
    expect(owed(r)).toEqual(
      [
        [sara.name, 2],
        [noura.name, 1],
        [reem.name, 3],
      ].sort(),
    )

    // Deleting an entry makes the student owed it again.
    const saraEntry = r.issued.find((e) => e.student_name === sara.name)!
    expect((await send(headers, 'DELETE', `/follow-up/register/${saraEntry.id}`)).status).toBe(200)
    expect((await register(headers)).issued).toHaveLength(1)

    for (const format of ['xlsx', 'pdf'] as const) {
      const res = await send(headers, 'GET', `/follow-up/register/export.${format}?school_year=2025`)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toContain(format === 'pdf' ? 'pdf' : 'spreadsheet')
    }
  })

  it('keeps each teacher’s ladder: the standard preset first, the short one by name, edited steps checked', async () => {
    const { headers } = await teacher('ar')
    const id = await upload(headers, 0)
    expect(await json(await send(headers, 'GET', '/settings/absence-ladder'))).toEqual({
      message: '',
      data: {
        preset: 'standard',
        steps: [
          { days: 3, name: null, document: 'firstWarning' },
          { days: 5, name: null, document: 'secondWarning' },
          { days: 10, name: null, document: 'guardianPledge' },
          { days: 15, name: null, document: 'counsellorReferral' },
          { days: 25, name: null, document: 'enrolmentChange' },
        ],
      },
    })
    const short = await send(headers, 'PUT', '/settings/absence-ladder', { preset: 'short' })
    expect(short.status).toBe(200)
    expect(await json(short)).toMatchObject({ message: 'حُفظ سلّم الإجراءات.', data: { preset: 'short' } })
    // On the short ladder (10, 15, 20) only هند's 25 days reach a step: the third.
    const analysis = (await json<{ data: { steps: unknown } }>(await send(headers, 'GET', `/analyses/${id}`))).data
    expect(analysis.steps).toMatchObject({ summary: { atStep: [0, 0, 1], reached: 1, students: 4 } })

    const refused = await send(headers, 'PUT', '/settings/absence-ladder', {
      steps: [
        { days: 5, name: 'تنبيه', document: 'firstWarning' },
        { days: 5, name: null, document: 'secondWarning' },
      ],
    })
    expect(refused.status).toBe(422)
    expect(((await json<{ errors: unknown }>(refused)).errors as Record<string, string[]>).steps).toEqual([
      'يجب أن تكون أيام كل خطوة أكثر من أيام الخطوة التي قبلها.',
    ])
    expect((await send(headers, 'PUT', '/settings/absence-ladder', { preset: 'short', steps: [] })).status).toBe(422)
    expect((await send(headers, 'PUT', '/settings/absence-ladder', { steps: [{ days: 0, document: 'firstWarning' }] })).status).toBe(422)

    // Two days is a step of an edited ladder: نورة (2) and سارة (3) on step 1, ريم (5) on step 2.
    const edited = await send(headers, 'PUT', '/settings/absence-ladder', {
      steps: [
        { days: 2, name: 'تنبيه', document: 'firstWarning' },
        { days: 4, name: null, document: 'guardianPledge' },
      ],
    })
    expect(await json(edited)).toMatchObject({
      data: {
        preset: null,
        steps: [
          { days: 2, name: 'تنبيه' },
          { days: 4, name: null },
        ],
      },
    })
    const onEdited = (await json<{ data: { steps: unknown } }>(await send(headers, 'GET', `/analyses/${id}`))).data
    expect(onEdited.steps).toMatchObject({ summary: { atStep: [2, 2], reached: 4 } })
  })

  it('another teacher reads and changes none of it (404), and the register goes with the account', async () => {
    const owner = await teacher()
    const id = await upload(owner.headers, 0)
    const r = await register(owner.headers)
    const recorded = await send(owner.headers, 'POST', '/follow-up/register', {
      student: refOf(r, sara.name),
      step: 1,
      school_year: 2025,
      issued_on: '2025-10-20',
      issued_by: 'Mona',
    })
    expect(recorded.status).toBe(201)
    const entry = (await json<{ data: Entry }>(recorded)).data

    const other = await teacher()
    expect(await register(other.headers)).toMatchObject({ outstanding: [], issued: [], by_classroom: [] })
    expect((await send(other.headers, 'PATCH', `/follow-up/register/${entry.id}`, { status: 'declined' })).status).toBe(404)
    expect((await send(other.headers, 'DELETE', `/follow-up/register/${entry.id}`)).status).toBe(404)
    const stolen = await send(other.headers, 'POST', '/follow-up/register', {
      student: refOf(r, hind.name),
      step: 5,
      school_year: 2025,
      issued_on: '2025-10-20',
      issued_by: 'X',
    })
    expect(stolen.status).toBe(404)
    expect((await send(other.headers, 'GET', `/analyses/${id}`)).status).toBe(404)
    expect((await send(owner.headers, 'GET', '/follow-up/register')).status).toBe(200)
    expect((await app.request('/api/v1/follow-up/register')).status).toBe(401)

    const db = testDb().db
    await db.insert(followUpLadders).values({ userId: owner.user.id, steps: [{ days: 4, name: null, document: 'firstWarning' }] })
    await db.delete(users).where(eq(users.id, owner.user.id))
    expect(await db.select().from(followUpRegister).where(eq(followUpRegister.userId, owner.user.id))).toEqual([])
    expect(await db.select().from(followUpLadders).where(eq(followUpLadders.userId, owner.user.id))).toEqual([])
  })
})
