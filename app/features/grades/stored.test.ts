import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { analysisEntryData, findAnalysis, saveAnalysis } from '#app/features/analyses/index.server.ts'
import { users } from '#app/platform/db/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { fixtureGrid, noorFixtures } from '#tests/noor-fixtures.ts'
import { readWorkbookRows } from '#tests/workbook-rows.ts'
import { analyseGrades, gradesSheetNames, recomputeGrades, type GradesAnalysis } from './analyse-grades.ts'
import { bandPresets } from './bands.ts'
import { gradesStorage, loadGradeRecords } from './export.server.ts'

// A saved grades analysis keeps each subject's students as entries of their own, written in
// batches and read only when the report is recomputed with other bands. Read back, they are the
// records the analysis gave, whether saved as entries or (before entries existed) in its row.

const testDb = setupTestDatabase()

const small = readWorkbookRows(path.resolve(import.meta.dirname, 'fixtures/small-ar.xlsx'), gradesSheetNames)
const files: Array<{ name: string; analysis: () => GradesAnalysis }> = [
  { name: 'small-ar.xlsx', analysis: () => analyseGrades(small.rows, { sheetName: small.sheetName }) },
  ...noorFixtures('grades').map((f) => ({ name: f.file, analysis: () => analyseGrades(fixtureGrid(f.path)) })),
]

let n = 0
async function teacherId() {
  const [user] = await testDb()
    .db.insert(users)
    .values({
      username: `grades stored ${++n}`,
      email: `grades-stored${n}-${Date.now()}@example.sa`,
      phone: '+966551234567',
      passwordHash: 'x',
      emailVerifiedAt: new Date(),
    })
    .returning()
  return user!.id
}

describe('a saved grades analysis', () => {
  for (const file of files) {
    it(`${file.name}: its records read back the same from entries as from its row, and recompute the same with other bands`, async () => {
      const db = testDb().db
      const analysis = file.analysis()
      const userId = await teacherId()
      const base = { userId, kind: 'grades' as const, title: file.name, meta: {}, headline: {}, report: analysis.report }
      const { records, entries } = gradesStorage(analysis)
      const asEntries = await saveAnalysis({ db, input: { ...base, records }, entries })
      const inRow = await saveAnalysis({ db, input: { ...base, records: analysis.records } })
      const students = analysis.records.subjects.reduce((sum, s) => sum + s.students.length, 0)

      for (const id of [asEntries.id, inRow.id]) {
        const stored = await findAnalysis({ db, userId, id })
        if (stored?.kind !== 'grades') throw new Error('not saved')
        const read = await loadGradeRecords({ db, stored })
        expect(read).toEqual(analysis.records)
        expect(recomputeGrades(read, bandPresets.elementary)).toEqual(recomputeGrades(analysis.records, bandPresets.elementary))
      }
      // The row itself holds no student: they are entries, one per student and subject.
      const stored = await findAnalysis({ db, userId, id: asEntries.id })
      expect(stored?.records).toMatchObject({
        entries: 'students',
        subjects: analysis.records.subjects.map((s) => ({ subject: s.subject, students: s.students.length })),
      })
      const counted = await Promise.all(
        analysis.records.subjects.map((_s, part) => analysisEntryData({ db, analysisId: asEntries.id, part })),
      )
      expect(counted.reduce((sum, list) => sum + list.length, 0)).toBe(students)
    })
  }
})
