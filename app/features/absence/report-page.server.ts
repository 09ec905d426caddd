import { AnalysisError } from '#app/features/analyses/index.ts'
import { DomainError, isDomainError } from '#app/lib/errors.ts'
import { defaultWarningThresholds, type StudentFigures } from './analyse-absence.ts'
import { storedAbsence } from './export.server.ts'
import type { StudentSearch, WarnedStudent } from './report-view.tsx'
import { searchStudents } from './search-students.ts'

/**
 * What the report page shows of a saved absence analysis: the report, the students with a
 * warning (not every student: the page carries only what it shows), and a search if asked.
 */
type Stored = Parameters<typeof storedAbsence>[0]

export function absenceReportPage(stored: Stored, q: string | null, schoolDays?: number | null) {
  let schoolDaysError: string | null = null
  let analysis: ReturnType<typeof storedAbsence>
  try {
    analysis = storedAbsence(stored, schoolDays)
  } catch (error) {
    // School days so few that no student's totals fit: the stored days stand, and the page says why.
    if (!(error instanceof AnalysisError) || !schoolDays) throw error
    schoolDaysError = 'analyses.recognised.schoolDaysTooFew'
    analysis = storedAbsence(stored)
  }
  const { report, students } = analysis
  let search: StudentSearch = null
  if (q !== null) {
    try {
      search = {
        q,
        students: searchStudents(students, q).map(studentView),
      }
    } catch (error) {
      if (!isDomainError(error)) throw error
      search = { q, error: error.messageKey }
    }
  }
  const warned: WarnedStudent[] = students
    .filter((s) => s.warningLevel > 0)
    .toSorted((a, b) => b.unexcused - a.unexcused || a.name.localeCompare(b.name, 'ar'))
    .map((s) => ({ name: s.name, grade: s.grade, classroom: s.classroom, unexcused: s.unexcused, absenceRate: s.absenceRate, warningLevel: s.warningLevel }))
  return { report, warned, thresholds: [...defaultWarningThresholds], search, schoolDaysError }
}

/** GET analyses/{id}/students?q=: the students matching a full name, in absence.md's shape. */
export function searchAbsenceStudents(stored: Stored, q: string) {
  const { students } = storedAbsence(stored)
  let found: StudentFigures[]
  try {
    found = searchStudents(students, q)
  } catch (error) {
    // A query too short is a validation failure of `q` (422, api.md), with the product's message.
    if (isDomainError(error) && error.messageKey === 'absence.search.tooShort') throw new DomainError(422, error.messageKey, { q: [error.messageKey] })
    throw error
  }
  return found.map((s) => ({ ...studentView(s), studentId: s.studentId, system: s.system }))
}

/** A found student as the page shows it (and the API adds the ID and system to). */
function studentView(s: StudentFigures) {
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
    ...(s.absences && { absences: s.absences }),
  }
}
