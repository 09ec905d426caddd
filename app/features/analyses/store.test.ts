import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { analyses, users } from '#app/server/db/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { deleteAnalysis, findAnalysis, listAnalyses, renameAnalysis, saveAnalysis } from './store.server.ts'

const testDb = setupTestDatabase()

let n = 0
async function teacher() {
  const [user] = await testDb()
    .db.insert(users)
    .values({ username: `store ${++n}`, email: `store${n}-${Date.now()}@example.sa`, phone: '+966551234567', passwordHash: 'x', emailVerifiedAt: new Date() })
    .returning()
  return user!
}

const input = (userId: string, title: string) => ({
  userId,
  kind: 'absence' as const,
  title,
  meta: { school: 'مدرسة الأندلس' },
  headline: { attendanceRate: 93.33, records: 60 },
  report: { summary: { records: 60 } },
  records: [{ name: 'طالب', absences: [] }],
})

describe('saved analyses', () => {
  it('keeps a teacher’s analyses apart from another’s, newest first, and lets only the owner rename and delete', async () => {
    const db = testDb().db
    const [a, b] = [await teacher(), await teacher()]
    const first = await saveAnalysis(db, input(a.id, 'الأسبوع الأول'))
    const second = await saveAnalysis(db, input(a.id, '  الأسبوع\nالثاني  '))
    await saveAnalysis(db, input(b.id, 'someone else'))

    const mine = await listAnalyses(db, a.id)
    expect(mine.map((x) => x.title)).toEqual(['الأسبوع الثاني', 'الأسبوع الأول'])
    expect(mine[0]).not.toHaveProperty('report')
    expect((await findAnalysis(db, a.id, first.id))?.report).toEqual({ summary: { records: 60 } })

    // Another teacher, a malformed id: not found, nothing changed.
    expect(await findAnalysis(db, b.id, first.id)).toBeNull()
    expect(await findAnalysis(db, a.id, 'not-a-uuid')).toBeNull()
    expect(await renameAnalysis(db, b.id, first.id, 'taken')).toBe(false)
    expect(await deleteAnalysis(db, b.id, first.id)).toBe(false)

    expect(await renameAnalysis(db, a.id, first.id, 'x'.repeat(500))).toBe(true)
    expect((await findAnalysis(db, a.id, first.id))?.title).toHaveLength(200)
    expect(await deleteAnalysis(db, a.id, second.id)).toBe(true)
    expect(await listAnalyses(db, a.id)).toHaveLength(1)
  })

  it('goes with the teacher’s account', async () => {
    const db = testDb().db
    const a = await teacher()
    await saveAnalysis(db, input(a.id, 'to be deleted'))
    await db.delete(users).where(eq(users.id, a.id))
    expect(await db.select().from(analyses).where(eq(analyses.userId, a.id))).toEqual([])
  })
})
