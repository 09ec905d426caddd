import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { apiTestApp } from '#tests/api-app.ts'
import { testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { apiHeaders, subscribedTeacher } from '#tests/subscriber.ts'

// Absence tiers through the API (issue 18): the analysis answer's tier counts, each found
// student's tier, and the teacher's thresholds (settings/absence-tiers), every answer checked
// against the OpenAPI document (apiTestApp). The expected counts were worked out by hand from
// the fixture's students (english-hijri-shuffled.expected.json: ten school days each, so shares
// of 0, 10, 20, 30 and 50% — right on the default boundaries).

let app: ReturnType<typeof apiTestApp>
let services: ReturnType<typeof testServices>
const testDb = setupTestDatabase(async (db) => {
  await seedPackages({ db: db.db })
  services = testServices(db)
  app = apiTestApp(services)
})

const fixture = resolve(import.meta.dirname, '../../../app/features/absence/fixtures/english-hijri-shuffled.xlsx')

async function teacher(lang: 'ar' | 'en' = 'en') {
  const user = await subscribedTeacher(testDb().db)
  return { user, headers: await apiHeaders(testDb().db, services.env.SESSION_SECRET, user.id, lang) }
}

async function uploadFixture(headers: Record<string, string>): Promise<string> {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(readFileSync(fixture))]), 'report.xlsx')
  const res = await app.request('/api/v1/analyses/absence', { method: 'POST', headers, body: form })
  expect(res.status).toBe(201)
  return ((await res.json()) as { data: { id: string } }).data.id
}

const put = (headers: Record<string, string>, body: unknown) =>
  app.request('/api/v1/settings/absence-tiers', {
    method: 'PUT',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

type Tiers = { thresholds: unknown; summary: Record<string, number>; byClassroom: Record<string, unknown>[] }
const tiersOf = async (headers: Record<string, string>, id: string) =>
  ((await (await app.request(`/api/v1/analyses/${id}`, { headers })).json()) as { data: { tiers: Tiers } }).data.tiers
const tally = (satisfactory: number, atRisk: number, chronic: number, severe: number) => ({
  students: satisfactory + atRisk + chronic + severe,
  satisfactory,
  atRisk,
  chronic,
  severe,
  noTier: 0,
})
const first1 = { grade: 'الأول المتوسط', classroom: '1' }
const first2 = { grade: 'الأول المتوسط', classroom: '2' }
const second1 = { grade: 'الثاني المتوسط', classroom: '1' }
const third1 = { grade: 'الثالث المتوسط', classroom: '1' }

async function studentTier(headers: Record<string, string>, id: string, name: string) {
  const res = await app.request(`/api/v1/analyses/${id}/students?q=${encodeURIComponent(name)}`, { headers })
  expect(res.status).toBe(200)
  const [student] = ((await res.json()) as { data: { tier: string | null; absenceRate: number }[] }).data
  return student?.tier
}

describe('absence tiers in the API', () => {
  it('counts the tiers of the upload with the default thresholds, per classroom in school order, and gives each found student a tier', async () => {
    const { headers } = await teacher()
    const id = await uploadFixture(headers)
    expect(await tiersOf(headers, id)).toEqual({
      thresholds: { atRisk: 5, chronic: 10, severe: 20 },
      // 0, 20, 10, 0, 30, 50% · 50 and 30 and 20% are severe, 10% chronic.
      summary: tally(7, 0, 7, 10),
      byClassroom: [
        { ...first1, ...tally(2, 0, 1, 3) },
        { ...first2, ...tally(1, 0, 2, 3) },
        { ...second1, ...tally(2, 0, 2, 2) },
        { ...third1, ...tally(2, 0, 2, 2) },
      ],
    })
    // 1 excused of 10 days: exactly 10%, chronic; 2 unexcused of 10: exactly 20%, severe; none: satisfactory.
    expect(await studentTier(headers, id, 'بندر عبدالرحمن خالد')).toBe('chronic')
    expect(await studentTier(headers, id, 'تركي يوسف سعود')).toBe('severe')
    expect(await studentTier(headers, id, 'أحمد زياد ماجد')).toBe('satisfactory')
  })

  it('keeps each teacher’s thresholds: defaults first, refused unless ascending, then used by every answer at once', async () => {
    const { headers } = await teacher('ar')
    const id = await uploadFixture(headers)
    const got = await app.request('/api/v1/settings/absence-tiers', { headers })
    expect(await got.json()).toEqual({ message: '', data: { at_risk: 5, chronic: 10, severe: 20 } })

    const refused = await put(headers, { at_risk: 10, chronic: 10, severe: 120 })
    expect(refused.status).toBe(422)
    expect(((await refused.json()) as { errors: Record<string, string[]> }).errors).toEqual({
      chronic: ['يجب أن يكون كل حد أكبر من الحد الذي قبله.'],
      severe: ['النسبة أكبر من 0 ولا تتجاوز 100.'],
    })
    expect((await put(headers, { at_risk: 5 })).status).toBe(422)

    const saved = await put(headers, { at_risk: 10, chronic: 20, severe: 30 })
    expect(saved.status).toBe(200)
    expect(await saved.json()).toEqual({ message: 'حُفظت حدود فئات الغياب.', data: { at_risk: 10, chronic: 20, severe: 30 } })

    // 10% is now at risk, 20% chronic, 30% and 50% severe.
    expect(await tiersOf(headers, id)).toEqual({
      thresholds: { atRisk: 10, chronic: 20, severe: 30 },
      summary: tally(7, 7, 6, 4),
      byClassroom: [
        { ...first1, ...tally(2, 1, 1, 2) },
        { ...first2, ...tally(1, 2, 2, 1) },
        { ...second1, ...tally(2, 2, 1, 1) },
        { ...third1, ...tally(2, 2, 2, 0) },
      ],
    })
    expect(await studentTier(headers, id, 'بندر عبدالرحمن خالد')).toBe('atRisk')
    expect(await studentTier(headers, id, 'تركي يوسف سعود')).toBe('chronic')

    // Decimal boundaries as text, Arabic digits included.
    const typed = await put(headers, { at_risk: '٧٫٥', chronic: '12.25', severe: 100 })
    expect(await typed.json()).toEqual({ message: 'حُفظت حدود فئات الغياب.', data: { at_risk: 7.5, chronic: 12.25, severe: 100 } })
  })

  it('another teacher reads none of it: her own defaults, and 404 for the first teacher’s analysis, its students and its exports', async () => {
    const owner = await teacher()
    const id = await uploadFixture(owner.headers)
    expect((await put(owner.headers, { at_risk: 1, chronic: 2, severe: 3 })).status).toBe(200)

    const other = await teacher()
    expect(await (await app.request('/api/v1/settings/absence-tiers', { headers: other.headers })).json()).toEqual({
      message: '',
      data: { at_risk: 5, chronic: 10, severe: 20 },
    })
    for (const path of [
      `/analyses/${id}`,
      `/analyses/${id}/students?q=${encodeURIComponent('تركي يوسف سعود')}`,
      `/analyses/${id}/export.xlsx`,
      `/analyses/${id}/export.pdf`,
    ]) {
      const res = await app.request(`/api/v1${path}`, { headers: other.headers })
      expect({ path, status: res.status }).toEqual({ path, status: 404 })
    }
  })

  it('needs a token for the thresholds', async () => {
    expect((await app.request('/api/v1/settings/absence-tiers')).status).toBe(401)
    expect((await put({}, { at_risk: 5, chronic: 10, severe: 20 })).status).toBe(401)
  })
})
