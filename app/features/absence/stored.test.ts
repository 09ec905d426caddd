import { describe, expect, it } from 'vitest'
import { findAnalysis, saveAnalysis } from '#app/features/analyses/index.server.ts'
import { defaultLadder, ladderPresets, type LadderStep } from '#app/features/follow-up/index.ts'
import { users } from '#app/platform/db/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { fixtureGrid, noorFixtures } from '#tests/noor-fixtures.ts'
import { analyseAbsence, type AbsenceAnalysis } from './analyse-absence.ts'
import { absenceStorage, loadAbsence, type StoredAbsence } from './export.server.ts'
import { absenceReportPage, searchAbsenceStudents } from './report-page.server.ts'
import { searchStudents } from './search-students.ts'
import { countSteps, studentStep } from './steps.ts'
import { countTiers, defaultTierThresholds, tierOf, type TierThresholds } from './tiers.ts'

// A saved absence analysis keeps its students (and a totals file's rows) as entries of their
// own, so the page reads only the students it shows. What the page, the search and the exports
// get must be what the whole analysis gives, and an analysis saved before entries existed (its
// records in its row) must read the same.

const testDb = setupTestDatabase()
const fixtures = noorFixtures('absence')

let n = 0
async function teacherId() {
  const [user] = await testDb()
    .db.insert(users)
    .values({
      username: `stored ${++n}`,
      email: `stored${n}-${Date.now()}@example.sa`,
      phone: '+966551234567',
      passwordHash: 'x',
      emailVerifiedAt: new Date(),
    })
    .returning()
  return user!.id
}

async function save(analysis: AbsenceAnalysis, how: 'entries' | 'in its row'): Promise<StoredAbsence> {
  const db = testDb().db
  const userId = await teacherId()
  const base = { userId, kind: 'absence' as const, title: how, meta: {}, headline: {}, report: analysis.report }
  const { records, entries } = absenceStorage(analysis)
  const saved =
    how === 'entries'
      ? await saveAnalysis({ db, input: { ...base, records }, entries })
      : await saveAnalysis({ db, input: { ...base, records: analysis.records ?? analysis.students } })
  const stored = await findAnalysis({ db, userId, id: saved.id })
  if (stored?.kind !== 'absence') throw new Error('not saved')
  return stored
}

/** The warned list as the page orders it, from every student. */
const warnedOf = (
  students: AbsenceAnalysis['students'],
  thresholds: TierThresholds = defaultTierThresholds,
  ladder: readonly LadderStep[] = defaultLadder,
) =>
  students
    .filter((s) => s.warningLevel > 0 || s.unexcused >= (ladder[0]?.days ?? Infinity))
    .toSorted((a, b) => b.unexcused - a.unexcused || a.name.localeCompare(b.name, 'ar'))
    .map((s) => ({
      name: s.name,
      grade: s.grade,
      classroom: s.classroom,
      unexcused: s.unexcused,
      absenceRate: s.absenceRate,
      warningLevel: s.warningLevel,
      tier: tierOf(s, thresholds),
      step: studentStep(s.unexcused, ladder),
    }))

/** A ladder from one unexcused day: the page lists students below the first warning too. */
const fromOneDay: readonly LadderStep[] = [
  { days: 1, name: 'تنبيه', document: 'firstWarning' },
  { days: 4, name: null, document: 'guardianPledge' },
]

/** Thresholds low enough that the fixtures' students spread over every tier. */
const low: TierThresholds = { atRisk: 1.5, chronic: 3, severe: 6.25 }

describe('a saved absence analysis', () => {
  it('has Noor fixtures of both layouts to check with', () => {
    expect(fixtures.map((f) => f.file).sort()).toEqual(['absence-daily-noor.xls', 'absence-totals-ar.xlsx', 'absence-totals.csv'])
  })

  for (const fixture of fixtures) {
    it(`${fixture.file}: the page, the search and the export read the same from entries as from the whole analysis, and as an analysis kept in its row`, async () => {
      const db = testDb().db
      const analysis = analyseAbsence(fixtureGrid(fixture.path), fixture.schoolDays === undefined ? {} : { schoolDays: fixture.schoolDays })
      const student = analysis.students.find((s) => s.warningLevel > 0) ?? analysis.students[0]!
      const term = student.name.split(' ').slice(0, 3).join(' ')
      const expectedFound = searchStudents(analysis.students, term)
      expect(expectedFound.length).toBeGreaterThan(0)

      for (const how of ['entries', 'in its row'] as const) {
        const stored = await save(analysis, how)
        const page = await absenceReportPage({
          db,
          stored,
          q: term,
          schoolDays: null,
          thresholds: defaultTierThresholds,
          ladder: defaultLadder,
        })
        expect(page.report).toEqual(analysis.report)
        expect(page.warned).toEqual(warnedOf(analysis.students))
        expect(page.search && 'students' in page.search ? page.search.students.map((s) => s.name) : page.search).toEqual(
          expectedFound.map((s) => s.name),
        )
        expect(
          (await searchAbsenceStudents({ db, stored, q: term, thresholds: defaultTierThresholds, ladder: defaultLadder })).map(
            (s) => s.studentId,
          ),
        ).toEqual(expectedFound.map((s) => s.studentId))
        expect(
          (
            await absenceReportPage({
              db,
              stored,
              q: 'لا أحد بهذا الاسم',
              schoolDays: null,
              thresholds: defaultTierThresholds,
              ladder: defaultLadder,
            })
          ).search,
        ).toEqual({
          q: 'لا أحد بهذا الاسم',
          error: 'absence.search.notFound',
        })
        // The tiers the database counts (entries) are the tiers of every student counted one by one.
        for (const thresholds of [defaultTierThresholds, low]) {
          const tiers = (await absenceReportPage({ db, stored, q: null, schoolDays: null, thresholds, ladder: defaultLadder })).tiers
          expect(tiers).toEqual(countTiers(analysis.students, analysis.report.byClassroom, thresholds))
          expect(tiers.summary.students).toBe(analysis.students.length)
        }
        const found = await searchAbsenceStudents({ db, stored, q: term, thresholds: low, ladder: defaultLadder })
        expect(found.map((s) => s.tier)).toEqual(expectedFound.map((s) => tierOf(s, low)))
        // The steps the database groups (entries) are the steps of every student placed one by one, on any ladder.
        for (const ladder of [defaultLadder, ladderPresets.short, fromOneDay]) {
          const onLadder = await absenceReportPage({ db, stored, q: null, schoolDays: null, thresholds: defaultTierThresholds, ladder })
          expect(onLadder.steps).toEqual(countSteps(analysis.students, analysis.report.byClassroom, ladder))
          expect(onLadder.warned).toEqual(warnedOf(analysis.students, defaultTierThresholds, ladder))
          expect((await searchAbsenceStudents({ db, stored, q: term, thresholds: low, ladder })).map((s) => s.step)).toEqual(
            expectedFound.map((s) => studentStep(s.unexcused, ladder)),
          )
        }
        expect((await loadAbsence({ db, stored })).students).toEqual(analysis.students)
      }
    })
  }

  for (const fixture of fixtures.filter((f) => f.file.includes('totals'))) {
    it(`${fixture.file}: recomputed for other school days from its stored rows, as analysing the file for them gives`, async () => {
      const db = testDb().db
      const analysis = analyseAbsence(fixtureGrid(fixture.path), fixture.schoolDays === undefined ? {} : { schoolDays: fixture.schoolDays })
      expect(analysis.records?.rows.length).toBeGreaterThan(0)
      const days = (analysis.report.recognised?.schoolDays ?? 0) + 5
      const other = analyseAbsence(fixtureGrid(fixture.path), { schoolDays: days })
      const term = analysis.students[0]!.name.split(' ').slice(0, 3).join(' ')
      for (const how of ['entries', 'in its row'] as const) {
        const stored = await save(analysis, how)
        const recomputed = await loadAbsence({ db, stored, schoolDays: days })
        expect(recomputed.report).toEqual(other.report)
        expect(recomputed.students).toEqual(other.students)
        const page = await absenceReportPage({ db, stored, q: term, schoolDays: days, thresholds: low, ladder: defaultLadder })
        expect(page.report).toEqual(other.report)
        expect(page.warned).toEqual(warnedOf(other.students, low))
        expect(page.tiers).toEqual(countTiers(other.students, other.report.byClassroom, low))
        expect(page.steps).toEqual(countSteps(other.students, other.report.byClassroom, defaultLadder))
        expect(page.search).toEqual({
          q: term,
          students: expect.arrayContaining([expect.objectContaining({ name: analysis.students[0]!.name })]),
        })
      }
    })
  }
})
