import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { analyseAbsence, type AbsenceAnalysis } from '#app/features/absence/index.ts'
import { absenceStorage } from '#app/features/absence/index.server.ts'
import { deleteAnalysis, saveAnalysis } from '#app/features/analyses/index.server.ts'
import { users } from '#app/platform/db/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { absenceWorkbook, firstSunday, threeUploads } from '#tests/follow-up-workbooks.ts'
import { readWorkbookRows } from '#tests/workbook-rows.ts'
import { findFollowUpRegister, recordIssue, studentRef } from './register.server.ts'

// The register keeps its own copy of what was issued (docs/follow-up.md): whatever documents a
// teacher recorded, and in whatever order her analyses are then deleted (kept as entries or, as
// analyses saved before entries were, in their row), every entry stays exactly as recorded.

const testDb = setupTestDatabase()

const analyses: AbsenceAnalysis[] = threeUploads.map((u) => {
  const { rows } = readWorkbookRows(absenceWorkbook(u.students, firstSunday, u.days), ['الغياب'])
  return analyseAbsence(rows)
})

let n = 0
async function teacherId(): Promise<string> {
  const [user] = await testDb()
    .db.insert(users)
    .values({ username: `register ${++n}`, email: `register${n}-${Date.now()}@example.sa`, phone: '+966551234567', passwordHash: 'x' })
    .returning()
  return user!.id
}

async function save(userId: string, analysis: AbsenceAnalysis, isInItsRow: boolean, title: string): Promise<string> {
  const db = testDb().db
  const base = { userId, kind: 'absence' as const, title, meta: {}, headline: {}, report: analysis.report }
  const { records, entries } = absenceStorage(analysis)
  const saved = isInItsRow
    ? await saveAnalysis({ db, input: { ...base, records: analysis.students } })
    : await saveAnalysis({ db, input: { ...base, records }, entries })
  return saved.id
}

describe('the follow-up register and deleted analyses', () => {
  it('reads the three uploads as the hand-made figures say (the property below starts from them)', async () => {
    const db = testDb().db
    const userId = await teacherId()
    for (const [i, analysis] of analyses.entries()) await save(userId, analysis, i === 1, threeUploads[i]!.title)
    const view = await findFollowUpRegister({ db, userId })
    expect(view.outstanding.map((s) => [s.name, s.step, s.classroom])).toEqual([
      ['سارة علي محمد', 2, '1'],
      ['نورة سعد خالد', 1, '1'],
      ['هند عمر سالم', 5, '1'],
      ['ريم فهد ناصر', 3, '2'],
    ])
  })

  it('never loses an issued document, whatever was issued and in whatever order the analyses are deleted', async () => {
    const db = testDb().db
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 4, maxLength: 4 }),
        fc.shuffledSubarray([0, 1, 2], { minLength: 3, maxLength: 3 }),
        async (inItsRow, isIssued, stepWanted, order) => {
          const userId = await teacherId()
          const ids: string[] = []
          for (const [i, analysis] of analyses.entries())
            ids.push(await save(userId, analysis, inItsRow[i] ?? false, threeUploads[i]!.title))
          const before = await findFollowUpRegister({ db, userId })
          // Record a document for some of the students owed one, at their step or a lower one.
          const recorded = []
          for (const [i, s] of before.outstanding.entries()) {
            if (!isIssued[i]) continue
            const step = Math.min(stepWanted[i] ?? 1, s.step)
            recorded.push(
              await recordIssue({
                db,
                userId,
                issue: {
                  student: studentRef(s.key),
                  step,
                  school_year: before.schoolYear,
                  issued_on: '2025-12-14',
                  issued_by: 'أ. منى',
                  status: i % 2 ? 'signed' : 'declined',
                  notes: `${i}`,
                },
              }),
            )
          }
          const byId = (list: readonly { id: string }[]) => list.toSorted((a, b) => a.id.localeCompare(b.id))
          for (const index of order) {
            expect(await deleteAnalysis({ db, userId, id: ids[index]! })).toBe(true)
            const after = await findFollowUpRegister({ db, userId, schoolYear: before.schoolYear })
            expect(byId(after.issued)).toEqual(byId(recorded))
          }
          // With every analysis gone, nobody is owed a document, and every entry is still there.
          const empty = await findFollowUpRegister({ db, userId, schoolYear: before.schoolYear })
          expect(empty.outstanding).toEqual([])
          expect(empty.issued).toHaveLength(recorded.length)
        },
      ),
      { numRuns: 12 },
    )
  })
})
