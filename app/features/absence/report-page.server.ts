import { AnalysisError, analysisEntriesByName, analysisEntryData } from '#app/features/analyses/index.server.ts'
import { DomainError, isDomainError } from '#app/lib/errors.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { defaultWarningThresholds, type AbsenceAnalysis, type StudentFigures } from './analyse-absence.ts'
import { asksOtherDays, hasEntries, loadAbsence, STUDENTS, type StoredAbsence } from './export.server.ts'
import type { StudentSearch, WarnedStudent } from './report-view.tsx'
import { searchKey, searchStudents } from './search-students.ts'
import { tiersOfAnalysis, tiersOfEntries } from './tier-settings.server.ts'
import { tierOf, type AbsenceTiers, type TierThresholds } from './tiers.ts'
import type { LadderStep } from '#app/features/follow-up/index.ts'
import { countSteps, studentStep, type AbsenceSteps } from './steps.ts'
import { stepsOfEntries } from './steps.server.ts'

export type AbsenceReportPageOptions = {
  db: Db
  stored: StoredAbsence
  /** The name searched for, if any. */
  q: string | null
  schoolDays?: number | null | undefined
  thresholds: TierThresholds
  /** The teacher's ladder of follow-up steps (docs/follow-up.md). */
  ladder: readonly LadderStep[]
}

/**
 * What the report page shows of a saved absence analysis: the report, the students with a
 * warning (not every student: the page carries only what it shows), and a search if asked.
 * At the stored school days it reads only those students (the warned, and the ones found);
 * other school days recompute the whole report from the stored rows, as the exports do.
 */
export async function absenceReportPage({ db, stored, q, schoolDays, thresholds, ladder }: AbsenceReportPageOptions) {
  let schoolDaysError: string | null = null
  let whole: AbsenceAnalysis | null = null
  if (asksOtherDays(stored, schoolDays) || !hasEntries(stored.records)) {
    try {
      whole = await loadAbsence({ db, stored, schoolDays })
    } catch (error) {
      // School days so few that no student's totals fit: the stored days stand, and the page says why.
      if (!(error instanceof AnalysisError) || !schoolDays) throw error
      schoolDaysError = 'analyses.recognised.schoolDaysTooFew'
      if (!hasEntries(stored.records)) whole = await loadAbsence({ db, stored })
    }
  }
  const report = whole?.report ?? stored.report
  const students = whole?.students
  let search: StudentSearch = null
  if (q !== null) {
    try {
      const found = students ? searchStudents(students, q) : await findStudents(db, stored, q)
      search = { q, students: found.map((s) => studentView(s, thresholds, ladder)) }
    } catch (error) {
      if (!isDomainError(error)) throw error
      search = { q, error: error.messageKey }
    }
  }
  // The warned students and those at a step of the teacher's ladder (which may start below 3 days).
  const firstStep = ladder[0]?.days ?? Number.POSITIVE_INFINITY
  const withWarning = students
    ? students.filter((s) => s.warningLevel > 0 || s.unexcused >= firstStep)
    : ((await analysisEntryData({ db, analysisId: stored.id, part: STUDENTS, warned: true, unexcusedFrom: firstStep })) as StudentFigures[])
  const warned: WarnedStudent[] = withWarning
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
  const tiers = whole ? tiersOfAnalysis(whole, thresholds) : await absenceTiers({ db, stored, thresholds })
  const steps = whole ? countSteps(whole.students, whole.report.byClassroom, ladder) : await absenceSteps({ db, stored, ladder })
  return { report, warned, thresholds: [...defaultWarningThresholds], tiers, steps, search, schoolDaysError }
}

export type AbsenceTiersOptions = { db: Db; stored: StoredAbsence; thresholds: TierThresholds }

/**
 * The tiers of a saved analysis at its stored school days, with the thresholds given (the
 * teacher's, when the report is read): counted by the database when its students are entries,
 * else from the students kept in its row.
 */
export async function absenceTiers({ db, stored, thresholds }: AbsenceTiersOptions): Promise<AbsenceTiers> {
  if (hasEntries(stored.records)) return tiersOfEntries({ db, analysisId: stored.id, part: STUDENTS, report: stored.report, thresholds })
  return tiersOfAnalysis(await loadAbsence({ db, stored }), thresholds)
}

export type AbsenceStepsOptions = { db: Db; stored: StoredAbsence; ladder: readonly LadderStep[] }

/** The follow-up steps of a saved analysis at its stored school days, on the ladder given (the teacher's, when read). */
export async function absenceSteps({ db, stored, ladder }: AbsenceStepsOptions): Promise<AbsenceSteps> {
  if (hasEntries(stored.records)) return stepsOfEntries({ db, analysisId: stored.id, part: STUDENTS, report: stored.report, ladder })
  const whole = await loadAbsence({ db, stored })
  return countSteps(whole.students, whole.report.byClassroom, ladder)
}

/**
 * The students of a saved analysis matching a full name (at its stored school days): through
 * the name index when its students are entries, else among the records kept in its row.
 */
async function findStudents(db: Db, stored: StoredAbsence, q: string): Promise<StudentFigures[]> {
  if (!hasEntries(stored.records)) return searchStudents((await loadAbsence({ db, stored })).students, q)
  const found = (await analysisEntriesByName({ db, analysisId: stored.id, part: STUDENTS, key: searchKey(q) })) as StudentFigures[]
  if (found.length === 0) throw new DomainError(404, 'absence.search.notFound')
  return found
}

export type SearchAbsenceStudentsOptions = {
  db: Db
  stored: StoredAbsence
  q: string
  thresholds: TierThresholds
  ladder: readonly LadderStep[]
}

/** GET analyses/{id}/students?q=: the students matching a full name, in docs/absence.md's shape. */
export async function searchAbsenceStudents({ db, stored, q, thresholds, ladder }: SearchAbsenceStudentsOptions) {
  let found: StudentFigures[]
  try {
    found = await findStudents(db, stored, q)
  } catch (error) {
    // A query too short is a validation failure of `q` (422, docs/api.md), with the product's message.
    if (isDomainError(error) && error.messageKey === 'absence.search.tooShort')
      throw new DomainError(422, error.messageKey, { q: [error.messageKey] })
    throw error
  }
  return found.map((s) => ({ ...studentView(s, thresholds, ladder), studentId: s.studentId, system: s.system }))
}

/** A found student as the page shows it (and the API adds the ID and system to). */
function studentView(s: StudentFigures, thresholds: TierThresholds, ladder: readonly LadderStep[]) {
  return {
    name: s.name,
    grade: s.grade,
    classroom: s.classroom,
    section: s.section,
    records: s.records,
    present: s.present,
    excused: s.excused,
    unexcused: s.unexcused,
    late: s.late,
    absenceRate: s.absenceRate,
    warningLevel: s.warningLevel,
    tier: tierOf(s, thresholds),
    step: studentStep(s.unexcused, ladder),
    ...(s.absences && { absences: s.absences }),
    // The teacher's own student: the number is what the parent message's WhatsApp link needs.
    ...(s.guardianMobile && { guardianMobile: s.guardianMobile }),
  }
}
