import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { analyses, analysisEntries, users } from '#app/platform/db/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import {
  analysisEntriesByName,
  analysisEntryData,
  deleteAnalysis,
  ENTRY_BATCH,
  findAnalysis,
  listAnalyses,
  renameAnalysis,
  saveAnalysis,
  sweepUnfinishedAnalyses,
  type AnalysisEntry,
} from './store.server.ts'

const testDb = setupTestDatabase()

let n = 0
async function teacher() {
  const [user] = await testDb()
    .db.insert(users)
    .values({
      username: `store ${++n}`,
      email: `store${n}-${Date.now()}@example.sa`,
      phone: '+966551234567',
      passwordHash: 'x',
      emailVerifiedAt: new Date(),
    })
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
    const first = await saveAnalysis({ db, input: input(a.id, 'الأسبوع الأول') })
    const second = await saveAnalysis({ db, input: input(a.id, '  الأسبوع\nالثاني  ') })
    await saveAnalysis({ db, input: input(b.id, 'someone else') })

    const mine = await listAnalyses({ db, userId: a.id })
    expect(mine.map((x) => x.title)).toEqual(['الأسبوع الثاني', 'الأسبوع الأول'])
    expect(mine[0]).not.toHaveProperty('report')
    expect((await findAnalysis({ db, userId: a.id, id: first.id }))?.report).toEqual({ summary: { records: 60 } })

    // Another teacher, a malformed id: not found, nothing changed.
    expect(await findAnalysis({ db, userId: b.id, id: first.id })).toBeNull()
    expect(await findAnalysis({ db, userId: a.id, id: 'not-a-uuid' })).toBeNull()
    expect(await renameAnalysis({ db, userId: b.id, id: first.id, title: 'taken' })).toBe(false)
    expect(await deleteAnalysis({ db, userId: b.id, id: first.id })).toBe(false)

    expect(await renameAnalysis({ db, userId: a.id, id: first.id, title: 'x'.repeat(500) })).toBe(true)
    expect((await findAnalysis({ db, userId: a.id, id: first.id }))?.title).toHaveLength(200)
    expect(await deleteAnalysis({ db, userId: a.id, id: second.id })).toBe(true)
    expect(await listAnalyses({ db, userId: a.id })).toHaveLength(1)
  })

  it('goes with the teacher’s account', async () => {
    const db = testDb().db
    const a = await teacher()
    await saveAnalysis({ db, input: input(a.id, 'to be deleted') })
    await db.delete(users).where(eq(users.id, a.id))
    expect(await db.select().from(analyses).where(eq(analyses.userId, a.id))).toEqual([])
  })

  it('keeps each list of entries in order across batches, and reads the warned ones and names by whole-word prefix', async () => {
    const db = testDb().db
    const a = await teacher()
    const count = ENTRY_BATCH * 2 + 7
    const entries: AnalysisEntry[] = Array.from({ length: count }, (_v, i) => ({
      part: 0,
      nameKey: `طالب ${i} الاسم`,
      warningLevel: i % 100 === 0 ? 2 : 0,
      data: { i },
    }))
    // A second list between them, and names with LIKE's own characters.
    entries.splice(10, 0, { part: 1, data: { row: 'a' } }, { part: 1, data: { row: 'b' } })
    entries.push(
      { part: 0, nameKey: 'عبد_الله 50% محمد', data: { i: 'underscore' } },
      { part: 0, nameKey: 'عبدxالله 50x محمد', data: { i: 'x' } },
    )
    const saved = await saveAnalysis({ db, input: input(a.id, 'كبير'), entries })

    const all = (await analysisEntryData({ db, analysisId: saved.id, part: 0 })) as Array<{ i: number | string }>
    expect(all.map((e) => e.i)).toEqual([...Array.from({ length: count }, (_v, i) => i), 'underscore', 'x'])
    expect(await analysisEntryData({ db, analysisId: saved.id, part: 1 })).toEqual([{ row: 'a' }, { row: 'b' }])
    expect(
      ((await analysisEntryData({ db, analysisId: saved.id, part: 0, warned: true })) as Array<{ i: number }>).map((e) => e.i),
    ).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000])
    // Whole words: `طالب 1` finds 1 and not 10–19 (`طالب 10 …`); the full key finds itself.
    expect(await analysisEntriesByName({ db, analysisId: saved.id, part: 0, key: 'طالب 1' })).toEqual([{ i: 1 }])
    expect(await analysisEntriesByName({ db, analysisId: saved.id, part: 0, key: 'طالب 1 الاسم' })).toEqual([{ i: 1 }])
    expect(await analysisEntriesByName({ db, analysisId: saved.id, part: 0, key: 'طالب' })).toHaveLength(count)
    // `_` and `%` are letters of the name, not wildcards.
    expect(await analysisEntriesByName({ db, analysisId: saved.id, part: 0, key: 'عبد_الله 50%' })).toEqual([{ i: 'underscore' }])
    expect(await analysisEntriesByName({ db, analysisId: saved.id, part: 0, key: 'عبد%' })).toEqual([])
    expect(await analysisEntriesByName({ db, analysisId: saved.id, part: 1, key: 'طالب 1' })).toEqual([])

    // Deleted with the analysis.
    await deleteAnalysis({ db, userId: a.id, id: saved.id })
    expect(await db.select().from(analysisEntries).where(eq(analysisEntries.analysisId, saved.id))).toEqual([])
  })

  it('never shows an analysis whose entries are not all written: a failed batch deletes it, a crashed upload is swept', async () => {
    const db = testDb().db
    const a = await teacher()
    function* failing(): Generator<AnalysisEntry> {
      for (let i = 0; i < ENTRY_BATCH + 1; i++) yield { part: 0, nameKey: `n ${i}`, data: { i } }
      throw new Error('the worker went away')
    }
    await expect(saveAnalysis({ db, input: input(a.id, 'half'), entries: failing() })).rejects.toThrow('the worker went away')
    expect(await db.select().from(analyses).where(eq(analyses.userId, a.id))).toEqual([])

    // A process that died between batches leaves an unfinished row: not listed, not found, swept once old.
    const [left] = await db
      .insert(analyses)
      .values({ ...input(a.id, 'left behind'), complete: false })
      .returning()
    await db.insert(analysisEntries).values({ analysisId: left!.id, part: 0, position: 0, nameKey: 'x', data: {} })
    expect(await listAnalyses({ db, userId: a.id })).toEqual([])
    expect(await findAnalysis({ db, userId: a.id, id: left!.id })).toBeNull()
    expect(await sweepUnfinishedAnalyses({ db, olderThanMs: 60 * 60 * 1000 })).toBe(0)
    expect(await sweepUnfinishedAnalyses({ db, olderThanMs: 60 * 60 * 1000, now: new Date(Date.now() + 2 * 60 * 60 * 1000) })).toBe(1)
    expect(await db.select().from(analysisEntries).where(eq(analysisEntries.analysisId, left!.id))).toEqual([])
  })
})
