import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { byJson, project, shapeOf, type Json } from '#tests/expected-json.ts'
import { apiHeaders, subscribedTeacher } from '#tests/subscriber.ts'
import { apiTestApp } from '#tests/api-app.ts'

let app: ReturnType<typeof apiTestApp>
let services: ReturnType<typeof testServices>
const testDb = setupTestDatabase(async (db) => {
  services = testServices(db)
  app = apiTestApp(services)
})

const fixtures = resolve(import.meta.dirname, '../../../app/features/grades/fixtures')

async function teacher(lang: 'ar' | 'en' = 'en') {
  const user = await subscribedTeacher(testDb().db)
  return { user, headers: await apiHeaders(testDb().db, services.env.SESSION_SECRET, user.id, lang) }
}

function upload(headers: Record<string, string>, bytes: Uint8Array, bands?: string) {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(bytes)]), 'grades.xlsx')
  if (bands !== undefined) form.append('bands', bands)
  return app.request('/api/v1/analyses/grades', { method: 'POST', headers, body: form })
}

type Subject = { subject: string; byClassroom: unknown[] } & Record<string, unknown>

describe('/api/v1/analyses/grades', () => {
  for (const name of ['small-ar', 'english-two-subjects']) {
    it(`${name}: the uploaded fixture gives exactly the expected figures`, async () => {
      const { headers } = await teacher('en')
      const expected = JSON.parse(readFileSync(`${fixtures}/${name}.expected.json`, 'utf8')) as { subjects: Subject[]; skipped: Json }
      const res = await upload(headers, readFileSync(`${fixtures}/${name}.xlsx`))
      expect(res.status).toBe(201)
      const { data } = (await res.json()) as { data: { id: string; kind: string; subjects: Subject[]; skipped: unknown; bands: unknown } }
      expect(data.kind).toBe('grades')
      expect(data.bands).toEqual([
        { key: 'excellent', min: 90 },
        { key: 'veryGood', min: 80 },
        { key: 'good', min: 70 },
        { key: 'acceptable', min: 50 },
        { key: 'weak', min: 0 },
      ])
      // Skipped rows also name their sheet now; the fixture states their row and reason.
      expect(project(data.skipped, shapeOf(expected.skipped))).toEqual(expected.skipped)
      expect(data.subjects.map((s) => s.subject)).toEqual(expected.subjects.map((s) => s.subject))
      for (const [i, want] of expected.subjects.entries()) {
        const got = data.subjects[i] as Subject
        const { byClassroom, ...rest } = want
        expect(project(got, shapeOf(rest as Json))).toEqual(rest)
        // Classrooms in school order (docs/grades.md follows docs/absence.md); compared as a set of rows.
        expect(byJson(project(got.byClassroom, shapeOf(byClassroom as Json)))).toEqual(byJson(byClassroom))
      }
    })
  }

  it('takes the elementary preset or bands of the teacher’s own, and refuses bad bands with the reason', async () => {
    const { headers } = await teacher('en')
    const bytes = readFileSync(`${fixtures}/small-ar.xlsx`)
    const elementary = (await (await upload(headers, bytes, 'elementary')).json()) as { data: { bands: { key: string }[] } }
    expect(elementary.data.bands.map((b) => b.key)).toEqual(['outstanding', 'advanced', 'proficient', 'notPassed'])
    const custom = await upload(
      headers,
      bytes,
      JSON.stringify([
        { key: 'Top', min: 75 },
        { key: 'Rest', min: 0 },
      ]),
    )
    expect(custom.status).toBe(201)
    const bad = await upload(
      headers,
      bytes,
      JSON.stringify([
        { key: 'Top', min: 75 },
        { key: 'Rest', min: 10 },
      ]),
    )
    expect(bad.status).toBe(422)
    expect(await bad.json()).toEqual({ message: 'The last band must start at 0.', errors: { bands: ['The last band must start at 0.'] } })
  })

  it('serves the grades analysis through the other analysis endpoints, and not another teacher’s', async () => {
    const owner = await teacher('ar')
    const other = await teacher('ar')
    const { data } = (await (await upload(owner.headers, readFileSync(`${fixtures}/small-ar.xlsx`))).json()) as { data: { id: string } }
    expect((await app.request(`/api/v1/analyses/${data.id}`, { headers: owner.headers })).status).toBe(200)
    expect((await app.request(`/api/v1/analyses/${data.id}`, { headers: other.headers })).status).toBe(404)
    const xlsx = await app.request(`/api/v1/analyses/${data.id}/export.xlsx`, { headers: owner.headers })
    expect(xlsx.status).toBe(200)
    const pdf = await app.request(`/api/v1/analyses/${data.id}/export.pdf`, { headers: owner.headers })
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-')
    expect((await app.request(`/api/v1/analyses/${data.id}/export.pdf`, { headers: other.headers })).status).toBe(404)
    const list = ((await (await app.request('/api/v1/analyses', { headers: owner.headers })).json()) as { data: { kind: string }[] }).data
    expect(list.map((a) => a.kind)).toEqual(['grades'])
  })
})
