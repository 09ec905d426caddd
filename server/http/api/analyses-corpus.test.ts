import { describe, expect, it } from 'vitest'
import { badWorkbooks as corpus } from '#tests/support/bad-workbooks.ts'
import { testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { apiHeaders, subscribedTeacher } from '#tests/subscriber.ts'
import { apiTestApp } from '#tests/api-app.ts'

// The bad-file corpus of issue #5 through both upload endpoints (absence and grades), as a
// teacher's client would send it: each file gets the right status and message, never a 500.
// The reader's own tests (app/platform/xlsx) check the same files for speed and memory.

let app: ReturnType<typeof apiTestApp>
let services: ReturnType<typeof testServices>
const testDb = setupTestDatabase(async (db) => {
  services = testServices(db, { ANALYSIS_UPLOADS_PER_HOUR: '1000' })
  app = apiTestApp(services)
})

describe('the bad-file corpus through the upload endpoints', () => {
  for (const kind of ['absence', 'grades'] as const) {
    it(`${kind}: every bad file gets its message and status, none a 500, and nothing is saved`, async () => {
      const user = await subscribedTeacher(testDb().db)
      const headers = await apiHeaders(testDb().db, services.env.SESSION_SECRET, user.id, 'en')
      const answers: Array<{ name: string; status: number; message: string }> = []
      for (const item of corpus) {
        const form = new FormData()
        form.append('file', new Blob([new Uint8Array(item.file())]), 'report.xlsx')
        const res = await app.request(`/api/v1/analyses/${kind}`, { method: 'POST', headers, body: form })
        answers.push({ name: item.name, status: res.status, message: String(((await res.json()) as { message?: unknown }).message) })
      }
      for (const [i, item] of corpus.entries()) {
        expect({ name: item.name, status: answers[i]?.status }).toEqual({ name: item.name, status: item.status })
        expect(answers[i]?.message).toMatch(item.message)
      }
      const list = (await (await app.request('/api/v1/analyses', { headers })).json()) as { data: unknown[] }
      expect(list.data).toEqual([])
    })
  }
})
