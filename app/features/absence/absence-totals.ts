import {
  AnalysisError,
  cellText,
  cleanText,
  dayOfGregorian,
  isBlankCell,
  normalizeText,
  parseDateText,
  refuseMostlySkipped,
  refusalReasonLimit,
  Roster,
  schoolDateOfDay,
  idsInScientificNotation,
  type Classroom,
  type ColumnSpec,
  type RecognisedLayout,
  type SkippedRow,
} from '#app/features/analyses/index.ts'
import type { CellValue } from '#app/platform/xlsx/types.ts'
import {
  AbsenceGroups,
  skip,
  studentColumns,
  Tally,
  type AbsenceAnalysis,
  type AbsenceMeta,
  type AbsencePeriod,
  type AbsenceTotalsRecords,
  type CountedStudent,
  type TotalsRow,
} from './absence-figures.ts'
import { normaliseGuardianMobile } from './guardian-mobile.ts'

/**
 * Noor's absence report: one row per student with the period's totals (excused days, unexcused
 * days, lateness, period absences) and no dates (docs/noor-layouts.md, "Per-student totals").
 * The figures need the school days D of the period: a student's records are D, present days
 * D − excused − unexcused. The rows are kept as read, so the report is recomputed for another D.
 */

export const totalsColumns = {
  ...studentColumns,
  excused: { headers: ['غياب بعذر', 'الغياب بعذر', 'أيام الغياب بعذر', 'Excused days', 'Excused absences', 'Excused'], required: true },
  unexcused: {
    headers: [
      'غياب بدون عذر',
      'الغياب بدون عذر',
      'أيام الغياب بدون عذر',
      'الغياب بدون عذر مقبول',
      'Unexcused days',
      'Unexcused absences',
      'Unexcused',
    ],
    required: true,
  },
  late: { headers: ['تأخر', 'التأخر', 'عدد مرات التأخر', 'التأخر الصباحي', 'Late arrivals', 'Lateness', 'Late'], required: false },
  period: { headers: ['غياب حصص', 'غياب الحصص', 'Period absences'], required: false },
} as const satisfies Record<string, ColumnSpec>

type Thresholds = readonly [number, number, number]

/** The most school days a period may have: a school year is about 180. */
export const maxSchoolDays = 366

/** Sundays to Thursdays from one day to another, both included. */
export function countSchoolDays(fromDay: number, toDay: number): number {
  let days = 0
  for (let day = fromDay; day <= toDay; day++) if (schoolDateOfDay(day).weekday <= 4) days++
  return days
}

/** A non-negative whole count; a blank cell is 0; null when unreadable. */
function readCount(value: CellValue | undefined): number | null {
  if (isBlankCell(value)) return 0
  const number =
    typeof value === 'number' ? value : typeof value === 'string' ? Number(normalizeText(value).replace(/\.0+$/, '')) : Number.NaN
  return Number.isInteger(number) && number >= 0 ? number : null
}

function periodOf(from: string | undefined, to: string | undefined): AbsencePeriod | null {
  if (from === undefined || to === undefined) return null
  const fromText = writtenDate(from)
  const toText = writtenDate(to)
  const start = parseDateText(fromText)
  const end = parseDateText(toText)
  if (!start || !end || dayOfIso(end.date) < dayOfIso(start.date)) return null
  return { from: fromText, to: toText, fromDate: start.date, toDate: end.date }
}

function writtenDate(text: string): string {
  return cleanText(text)
    .replace(/\s*(?:ه|هـ|م)\.?$/u, '')
    .trim()
}

function dayOfIso(iso: string): number {
  const [y, m, d] = iso.split('-').map(Number)
  return dayOfGregorian(y as number, m as number, d as number) as number
}

/** Reads a totals file's rows (see analyseAbsence) and computes its report for its school days. */
export function analyseTotals(
  recognised: RecognisedLayout,
  options: { thresholds: Thresholds; schoolDays?: number; sheetName: string | null | undefined },
): AbsenceAnalysis {
  const idsIgnored = idsInScientificNotation(recognised.tables)
  const rows: TotalsRow[] = []
  const skipped: SkippedRow[] = []
  const seen = new Map<string, number>()
  const codes = new Set<string>()
  let period: AbsencePeriod | null = null
  let dataRows = 0
  let headerLanguage: 'ar' | 'en' = 'ar'
  let meta: AbsenceMeta = {}

  for (const { sheet, table } of recognised.tables) {
    const { columns, title } = table
    headerLanguage = table.headerLanguage
    period ??= periodOf(title.from, title.to)
    if (meta.school === undefined && title.school !== undefined) meta = { ...meta, school: title.school }
    if (meta.term === undefined && title.term !== undefined) meta = { ...meta, term: title.term }
    const roster = new Roster(
      { student: columns.student as number, grade: columns.grade, classroom: columns.classroom, studentId: columns.studentId },
      { ignoreIds: idsIgnored },
    )
    const defaults = { grade: title.grade, classroom: title.classroom }
    dataRows += table.rows.length
    const where = sheet === null ? {} : { sheet }

    for (const { row, cells } of table.rows) {
      const placed = roster.place(cells, defaults)
      if (typeof placed === 'string') {
        skipped.push(skip(sheet, row, placed))
        continue
      }
      const counts: number[] = []
      let unreadable: CellValue | undefined
      for (const key of ['excused', 'unexcused', 'late', 'period'] as const) {
        const at = columns[key]
        const count = at === undefined ? 0 : readCount(cells[at])
        if (count === null) {
          unreadable = cells[at as number]
          break
        }
        counts.push(count)
      }
      if (unreadable !== undefined) {
        skipped.push(skip(sheet, row, 'unreadableCount', { value: cleanText(cellText(unreadable)) }))
        continue
      }
      const firstRow = seen.get(placed.studentKey)
      if (firstRow !== undefined) {
        skipped.push(skip(sheet, row, 'duplicate', { firstRow }))
        continue
      }
      seen.set(placed.studentKey, row)
      const text = (at: number | undefined, fallback: string | undefined) =>
        at !== undefined && !isBlankCell(cells[at]) ? cleanText(cellText(cells[at])) : (fallback ?? '')
      const section = text(columns.section, placed.section ?? title.section)
      const guardianMobile = columns.guardianMobile === undefined ? null : normaliseGuardianMobile(cells[columns.guardianMobile])
      rows.push({
        ...where,
        row,
        name: placed.name,
        studentId: placed.studentId,
        grade: placed.classroom.grade,
        classroom: placed.classroom.classroom,
        section,
        system: text(columns.system, title.system),
        excused: counts[0] as number,
        unexcused: counts[1] as number,
        late: counts[2] as number,
        periodAbsences: counts[3] as number,
        ...(guardianMobile && { guardianMobile }),
      })
    }
    for (const code of roster.gradeCodes) codes.add(code)
  }

  refuseMostlySkipped(skipped, dataRows, 'absence')

  const schoolDays = options.schoolDays ?? (period ? countSchoolDays(dayOfIso(period.fromDate), dayOfIso(period.toDate)) : undefined)
  if (schoolDays === undefined) throw new AnalysisError('absence.errors.schoolDaysNeeded', { values: { max: maxSchoolDays } })
  checkSchoolDays(schoolDays)
  // The rows whose days exceed D are skipped too: a file mostly so is refused like any other.
  const overDays = rows
    .filter((row) => row.excused + row.unexcused > schoolDays)
    .map((row) => skip(row.sheet ?? null, row.row, 'exceedsSchoolDays', { days: schoolDays }))
  refuseMostlySkipped([...skipped, ...overDays], dataRows, 'absence')

  const records: AbsenceTotalsRecords = {
    layout: 'absence-totals',
    rows,
    skipped,
    recognised: {
      layout: 'absence-totals',
      sheets: recognised.tables.length,
      sheetsSkipped: recognised.sheetsSkipped,
      idsIgnored,
      period,
      ...(codes.size > 0 && { gradeCodes: [...codes] }),
    },
    headerLanguage,
    sheets: recognised.tables.map(({ sheet }) => sheet ?? ''),
  }
  const analysis = recomputeTotals(records, schoolDays, options.thresholds)
  if (period) meta = { ...meta, from: period.from, to: period.to }
  if (options.sheetName != null) meta = { ...meta, sheetName: options.sheetName }
  return { ...analysis, meta, records }
}

/** Refuses a number of school days that is not a whole number from 1 to 366. */
export function checkSchoolDays(days: number): void {
  if (!Number.isInteger(days) || days < 1 || days > maxSchoolDays)
    throw new AnalysisError('absence.errors.schoolDaysInvalid', { values: { max: maxSchoolDays } })
}

interface TotalsStudent extends CountedStudent {
  readonly row: TotalsRow
}

/**
 * The report and students of a totals file's rows for D school days: a row whose excused and
 * unexcused days exceed D is skipped with that reason.
 */
export function recomputeTotals(
  records: AbsenceTotalsRecords,
  schoolDays: number,
  thresholds: Thresholds,
): Omit<AbsenceAnalysis, 'meta'> & { records: AbsenceTotalsRecords } {
  const groups = new AbsenceGroups()
  const roster = new Roster()
  const students: TotalsStudent[] = []
  const skipped: SkippedRow[] = [...records.skipped]
  let periodAbsences = 0
  for (const row of records.rows) {
    if (row.excused + row.unexcused > schoolDays) {
      skipped.push(skip(row.sheet ?? null, row.row, 'exceedsSchoolDays', { days: schoolDays }))
      continue
    }
    const classroom: Classroom = roster.classroomOf(row.grade, row.classroom)
    const student: TotalsStudent = {
      name: row.name,
      studentId: row.studentId,
      classroom,
      section: groups.sections.groupOf(row.section || null),
      system: groups.systems.groupOf(row.system || null),
      tally: new Tally(),
      row,
      guardianMobile: row.guardianMobile ?? null,
    }
    groups.count(student, {
      records: schoolDays,
      present: schoolDays - row.excused - row.unexcused,
      excused: row.excused,
      unexcused: row.unexcused,
      late: row.late,
    })
    periodAbsences += row.periodAbsences
    students.push(student)
  }
  // Every row over D: no figure can be computed (the page keeps the stored days and says why).
  if (students.length === 0)
    throw new AnalysisError('absence.errors.tooManySkipped', {
      values: { skipped: skipped.length, rows: skipped.length },
      skipped: skipped.slice(0, refusalReasonLimit),
    })
  // The skipped rows in file order, whatever their reason.
  const sheetOrder = new Map(records.sheets.map((name, i) => [name, i]))
  skipped.sort((a, b) => (sheetOrder.get(a.sheet ?? '') ?? 0) - (sheetOrder.get(b.sheet ?? '') ?? 0) || a.row - b.row)
  const finished = groups.finish(students, records.headerLanguage, thresholds)
  const { records: total, ...overallRest } = groups.overall.figures()
  return {
    report: {
      recognised: { ...records.recognised, classrooms: groups.classrooms.size, students: students.length, schoolDays },
      summary: { records: total, students: students.length, days: schoolDays, ...overallRest },
      bySection: finished.bySection,
      byClassroom: finished.byClassroom,
      bySystem: finished.bySystem,
      periodAbsences,
      skipped,
    },
    students: finished.students.map(({ figures }) => figures),
    records,
  }
}
