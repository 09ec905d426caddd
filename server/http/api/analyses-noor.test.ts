import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { comparable, noorFixtures } from '#tests/noor-fixtures.ts'
import { apiHeaders, subscribedTeacher } from '#tests/subscriber.ts'
import { apiTestApp } from '#tests/api-app.ts'

// Noor's own exports through the upload endpoints, as a teacher's client sends them: every
// figure and the `recognised` object of each fixture, `school_days` where the fixture is
// uploaded with it, and the refusal that asks for it when a totals file gives no period.

let app: ReturnType<typeof apiTestApp>
let services: ReturnType<typeof testServices>
const testDb = setupTestDatabase(async (db) => {
  services = testServices(db, { ANALYSIS_UPLOADS_PER_HOUR: '1000' })
  app = apiTestApp(services)
})

async function headers() {
  const user = await subscribedTeacher(testDb().db)
  return apiHeaders(testDb().db, services.env.SESSION_SECRET, user.id, 'en')
}

function upload(kind: 'absence' | 'grades', auth: Record<string, string>, file: string, name: string, schoolDays?: number | string) {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(readFileSync(file))]), name)
  if (schoolDays !== undefined) form.append('school_days', String(schoolDays))
  return app.request(`/api/v1/analyses/${kind}`, { method: 'POST', headers: auth, body: form })
}

type Data = Record<string, unknown> & { id: string; bandSubjects?: unknown[]; subjects?: unknown[] }

describe("Noor's files through the upload endpoints", () => {
  for (const kind of ['absence', 'grades'] as const) {
    for (const fixture of noorFixtures(kind)) {
      it(`${fixture.file}: every figure and the recognised object, through POST /api/v1/analyses/${kind}`, async () => {
        const auth = await headers()
        const res = await upload(kind, auth, fixture.path, fixture.file, fixture.schoolDays)
        expect(res.status).toBe(201)
        const { data } = (await res.json()) as { data: Data }
        // A band summary's subjects are in the fixtures' `subjects`.
        const shown = kind === 'grades' && data.bandSubjects ? { ...data, subjects: data.bandSubjects } : data
        const { actual, expected } = comparable(
          shown,
          Object.fromEntries(Object.entries(fixture.expected).filter(([key]) => key !== 'students')),
          ['byClassroom'],
        )
        expect(actual).toEqual(expected)
      })
    }
  }

  it('absence-totals.csv without school_days: 422 asking for them; with a bad value: 422 naming the range', async () => {
    const auth = await headers()
    const csv = noorFixtures('absence').find((f) => f.file === 'absence-totals.csv')
    expect.assert(csv)
    const missing = await upload('absence', auth, csv.path, csv.file)
    expect(missing.status).toBe(422)
    expect(((await missing.json()) as { message: string }).message).toMatch(/number of school days/)
    const bad = await upload('absence', auth, csv.path, csv.file, 'forty')
    expect(bad.status).toBe(422)
    expect(((await bad.json()) as { message: string }).message).toMatch(/whole number from 1 to 366/)
    const list = (await (await app.request('/api/v1/analyses', { headers: auth })).json()) as { data: unknown[] }
    expect(list.data).toEqual([])
  })

  it('absence-totals-ar.xlsx: GET with school_days recomputes the figures from the stored totals', async () => {
    const auth = await headers()
    const totals = noorFixtures('absence').find((f) => f.file === 'absence-totals-ar.xlsx')
    expect.assert(totals)
    const { data } = (await (await upload('absence', auth, totals.path, totals.file)).json()) as {
      data: Data & { summary: { days: number; records: number; students: number } }
    }
    expect(data.summary.days).toBe(33)
    const res = await app.request(`/api/v1/analyses/${data.id}?school_days=40`, { headers: auth })
    const again = ((await res.json()) as { data: typeof data }).data
    expect(again.summary.days).toBe(40)
    expect(again.summary.students).toBe(36)
    expect(again.summary.records).toBe(40 * 36)
    const search = (await (
      await app.request(`/api/v1/analyses/${data.id}/students?q=${encodeURIComponent('محمد ماجد عبدالعزيز')}`, { headers: auth })
    ).json()) as { data?: unknown[] }
    expect(search.data ?? []).toEqual([])
  })
})
