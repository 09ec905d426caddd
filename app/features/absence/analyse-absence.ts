import type { CellValue, SheetRow } from '#app/platform/xlsx/types.ts'
import {
  AnalysisError,
  cellText,
  cleanText,
  isBlankCell,
  lacksGradeOrClassroom,
  idsInScientificNotation,
  normalizeLabel,
  parseDateCell,
  recogniseLayout,
  refuseMostlySkipped,
  refusalReasonLimit,
  Roster,
  schoolNameOf,
  schoolDateOfDay,
  sheetsOf,
  type AnalysisInput,
  type ColumnSpec,
  type LayoutSpec,
  type SheetTable,
  type SkippedRow,
  type TableSpec,
} from '#app/features/analyses/index.ts'
import {
  AbsenceGroups,
  checkThresholds,
  defaultWarningThresholds,
  skip,
  studentColumns,
  Tally,
  type AbsenceAnalysis,
  type AbsenceMeta,
  type AbsenceRecognised,
  type AbsenceReport,
  type AbsenceType,
  type AttendanceStatus,
  type CountedStudent,
  type WeekdayFigures,
} from './absence-figures.ts'
import { analyseTotals, totalsColumns } from './absence-totals.ts'
import { normaliseGuardianMobile } from './guardian-mobile.ts'

export * from './absence-figures.ts'
export { analyseTotals, checkSchoolDays, countSchoolDays, maxSchoolDays, recomputeTotals, totalsColumns } from './absence-totals.ts'

/**
 * The absence analysis (docs/noor-layouts.md). A file is read in one of two
 * layouts: daily records (one row per student per school day, the sample's layout and Noor's
 * daily report) or per-student totals (Noor's absence report: excused and unexcused days and
 * lateness for the period). Pure: a workbook's grid in, figures out, refusals as AnalysisError
 * with message keys.
 */

export const absenceColumns = {
  ...studentColumns,
  date: { headers: ['التاريخ', 'تاريخ الغياب', 'Date'], required: true },
  day: { headers: ['اليوم', 'Day name', 'Weekday'], required: false },
  status: { headers: ['الحالة', 'نوع الغياب', 'Status'], required: true },
} as const satisfies Record<string, ColumnSpec>

export type AbsenceColumn = keyof typeof absenceColumns

/**
 * Title-block labels: a label matches the whole cell (so `من` is not found inside `بمنطقة`).
 * Noor writes one classroom per sheet, with the grade and classroom here instead of columns.
 */
export const absenceTitleLabels = {
  school: ['اسم المدرسة', 'School'],
  from: ['من تاريخ', 'من', 'From', 'From date'],
  to: ['إلى تاريخ', 'إلى', 'الى تاريخ', 'الى', 'To', 'To date'],
  term: ['الفصل الدراسي', 'Term'],
  grade: ['الصف', 'Grade'],
  classroom: ['الفصل', 'رقم الفصل', 'Class', 'Classroom'],
  section: ['القسم', 'المسار', 'Section', 'Track'],
  system: ['النظام الدراسي', 'نظام الدراسة', 'Education system'],
} as const

export type AbsenceTitleField = keyof typeof absenceTitleLabels

const dailyLayout: LayoutSpec = {
  name: 'absence-daily',
  table: { columns: absenceColumns, titleLabels: absenceTitleLabels } satisfies TableSpec<AbsenceColumn, AbsenceTitleField>,
  lacks: lacksGradeOrClassroom,
  named: ['grade', 'classroom'],
}

const totalsLayout: LayoutSpec = {
  name: 'absence-totals',
  table: { columns: totalsColumns, titleLabels: absenceTitleLabels },
  lacks: lacksGradeOrClassroom,
}

/** The layouts an absence file may be in, the sample's first. */
export const absenceLayouts: readonly LayoutSpec[] = [dailyLayout, totalsLayout]

/** How many skip reasons a refusal carries (shared by the analyses). */
export { refusalReasonLimit }

export interface AnalyseAbsenceOptions {
  /** The sheet the rows come from, for the report's title (one sheet's rows only). */
  readonly sheetName?: string
  /** Unexcused days for warning levels 1, 2 and 3, ascending (3, 5, 10). */
  readonly warningThresholds?: readonly [number, number, number]
  /** Totals files: the school days of the period (else from the title block's period). */
  readonly schoolDays?: number
}

// ---------------------------------------------------------------------------------------------

/** What a status cell says, in the order of docs/noor-layouts.md; null for a status not known. */
export type StatusReading = AttendanceStatus | 'period'

const statusCache = new Map<string, StatusReading | null>()
const lateWords = ['تاخر', 'متاخر', 'late'] as const
const periodWords = ['حصه', 'حصة', 'حصص', 'period'] as const
const unexcusedWords = ['بدون عذر', 'بغير عذر', 'غير مبرر', 'unexcused'] as const
const excusedWords = ['عذر', 'excused'] as const
const absentWords = new Set(['غائب', 'غياب', 'الغياب', 'غ', 'absent'])
const presentWords = ['حاضر', 'حضور', 'present'] as const

function computeStatus(text: string): StatusReading | null {
  const s = normalizeLabel(text)
  if (s === '') return 'present'
  const has = (words: readonly string[]) => words.some((word) => s.includes(word))
  // Lateness first: `تأخر بدون عذر` is a late arrival, not an unexcused absence.
  if (has(lateWords)) return 'late'
  if (has(periodWords)) return 'period'
  if (has(unexcusedWords)) return 'unexcused'
  if (has(excusedWords)) return 'excused'
  if (absentWords.has(s)) return 'unexcused' // Noor's default for a bare "absent"
  if (has(presentWords)) return 'present'
  return null
}

/** A status cell as the rules read it; null for a status they do not know. */
export function readStatus(value: CellValue | undefined): StatusReading | null {
  if (isBlankCell(value)) return 'present'
  const text = cellText(value)
  let status = statusCache.get(text)
  if (status === undefined) {
    status = computeStatus(text)
    if (statusCache.size > 10_000) statusCache.clear()
    statusCache.set(text, status)
  }
  return status
}

/** A status cell as a day's attendance (a period absence is a present day); null when not known. */
export function classifyStatus(value: CellValue | undefined): AttendanceStatus | null {
  const status = readStatus(value)
  return status === 'period' ? 'present' : status
}

interface DailyStudent extends CountedStudent {
  guardianMobile: string | null
  /** Day → the row that recorded it (a second row for the day is a duplicate). */
  readonly rowOfDay: Map<number, number>
  readonly absences: { day: number; type: AbsenceType }[]
}

/** The title block of the first sheet that has one, as the report's meta. */
export function absenceMeta(tables: readonly SheetTable[], sheetName: string | null | undefined): AbsenceMeta {
  const pick = (key: 'school' | 'from' | 'to' | 'term') => tables.map(({ table }) => table.title[key]).find((value) => value !== undefined)
  const school = pick('school')
  const from = pick('from')
  const to = pick('to')
  const term = pick('term')
  return {
    ...(school !== undefined && { school }),
    ...(from !== undefined && { from: dateAsWritten(from) }),
    ...(to !== undefined && { to: dateAsWritten(to) }),
    ...(term !== undefined && { term }),
    ...(sheetName != null && { sheetName }),
  }
}

/** A title-block date without the era letter Noor prints after it (`1447/03/01 هـ`). */
export function dateAsWritten(text: string): string {
  return cleanText(text)
    .replace(/\s*(?:ه|هـ|م)\.?$/u, '')
    .trim()
}

/** Analyses a file's sheets (or one sheet's rows). Throws AnalysisError when the file is refused. */
export function analyseAbsence(input: AnalysisInput, options: AnalyseAbsenceOptions = {}): AbsenceAnalysis {
  const thresholds = options.warningThresholds ?? defaultWarningThresholds
  checkThresholds(thresholds)
  const sheets = sheetsOf(input, options.sheetName)
  const recognised = recogniseLayout(sheets, absenceLayouts, 'absence')
  const dataRows = recognised.tables.reduce((sum, { table }) => sum + table.rows.length, 0)
  if (dataRows === 0) throw new AnalysisError('absence.errors.noDataRows')
  const sheetName = sheets.length === 1 ? (sheets[0]?.name ?? options.sheetName) : recognised.tables[0]?.sheet
  const analysis =
    recognised.layout === 'absence-totals'
      ? analyseTotals(recognised, { ...options, thresholds, sheetName })
      : analyseDaily(recognised.tables, recognised.sheetsSkipped, thresholds, sheetName)
  if (analysis.meta.school !== undefined) return analysis
  const school = schoolNameOf(sheets)
  return school === undefined ? analysis : { ...analysis, meta: { school, ...analysis.meta } }
}

function analyseDaily(
  tables: readonly SheetTable[],
  sheetsSkipped: number,
  thresholds: readonly [number, number, number],
  sheetName: string | null | undefined,
): AbsenceAnalysis {
  const idsIgnored = idsInScientificNotation(tables)
  const groups = new AbsenceGroups()
  const weekdays: (Tally | undefined)[] = []
  const dates = new Map<number, Tally>()
  const students = new Map<string, DailyStudent>()
  const skipped: SkippedRow[] = []
  let periodAbsences = 0
  let dataRows = 0
  let headerLanguage: 'ar' | 'en' = 'ar'
  const rosterCodes = new Set<string>()

  for (const { sheet, table } of tables) {
    const { columns, title } = table
    headerLanguage = table.headerLanguage
    const dateAt = columns.date as number
    const statusAt = columns.status as number
    const sectionAt = columns.section
    const systemAt = columns.system
    const mobileAt = columns.guardianMobile
    const roster = new Roster(
      { student: columns.student as number, grade: columns.grade, classroom: columns.classroom, studentId: columns.studentId },
      { ignoreIds: idsIgnored },
    )
    const defaults = { grade: title.grade, classroom: title.classroom }
    dataRows += table.rows.length

    for (const { row, cells } of table.rows) {
      const placed = roster.place(cells, defaults)
      if (typeof placed === 'string') {
        skipped.push(skip(sheet, row, placed))
        continue
      }
      const dateCell = cells[dateAt] ?? null
      const date = parseDateCell(dateCell)
      if (!date) {
        skipped.push(skip(sheet, row, 'unreadableDate', { value: cleanText(cellText(dateCell)) }))
        continue
      }
      const statusCell = cells[statusAt]
      const reading = readStatus(statusCell)
      if (!reading) {
        skipped.push(skip(sheet, row, 'unknownStatus', { value: cleanText(cellText(statusCell)) }))
        continue
      }

      let student = students.get(placed.studentKey)
      const firstRow = student?.rowOfDay.get(date.day)
      if (firstRow !== undefined) {
        skipped.push(skip(sheet, row, 'duplicate', { firstRow }))
        continue
      }
      if (!student) {
        student = {
          name: placed.name,
          studentId: placed.studentId,
          classroom: placed.classroom,
          section: groups.sections.groupOf(sectionCell(cells, sectionAt, placed.section, title.section)),
          system: groups.systems.groupOf(systemAt === undefined || isBlankCell(cells[systemAt]) ? (title.system ?? null) : cells[systemAt]),
          tally: new Tally(),
          rowOfDay: new Map(),
          absences: [],
          guardianMobile: null,
        }
        students.set(placed.studentKey, student)
      }
      student.rowOfDay.set(date.day, row)
      // The first number given for the student (a daily file repeats it on every row).
      if (student.guardianMobile === null && mobileAt !== undefined) student.guardianMobile = normaliseGuardianMobile(cells[mobileAt])

      const status: AttendanceStatus = reading === 'period' ? 'present' : reading
      if (reading === 'period') periodAbsences++
      groups.count(student, status)
      let weekdayTally = weekdays[date.weekday]
      if (!weekdayTally) {
        weekdayTally = new Tally()
        weekdays[date.weekday] = weekdayTally
      }
      weekdayTally.add(status)
      let dateTally = dates.get(date.day)
      if (!dateTally) {
        dateTally = new Tally()
        dates.set(date.day, dateTally)
      }
      dateTally.add(status)
      if (status === 'excused' || status === 'unexcused') student.absences.push({ day: date.day, type: status })
    }
    for (const code of roster.gradeCodes) rosterCodes.add(code)
  }

  refuseMostlySkipped(skipped, dataRows, 'absence')

  const finished = groups.finish(students.values(), headerLanguage, thresholds)
  const byWeekday: WeekdayFigures[] = []
  weekdays.forEach((tally, weekday) => {
    if (tally) byWeekday.push({ weekday, ...tally.figures() })
  })
  const { records, ...overallRest } = groups.overall.figures()
  const recognised: AbsenceRecognised = {
    layout: 'absence-daily',
    sheets: tables.length,
    sheetsSkipped,
    classrooms: groups.classrooms.size,
    students: students.size,
    idsIgnored,
    ...(rosterCodes.size > 0 && { gradeCodes: [...rosterCodes] }),
  }
  const report: AbsenceReport = {
    recognised,
    summary: { records, students: students.size, days: dates.size, ...overallRest },
    bySection: finished.bySection,
    byClassroom: finished.byClassroom,
    bySystem: finished.bySystem,
    byWeekday,
    byDate: [...dates.entries()]
      .sort(([a], [b]) => a - b)
      .map(([day, tally]) => {
        const { date, hijri } = schoolDateOfDay(day)
        return { date, hijri, ...tally.figures() }
      }),
    periodAbsences,
    skipped,
  }

  return {
    meta: absenceMeta(tables, sheetName),
    report,
    students: finished.students.map(({ student, figures }) => ({
      ...figures,
      absences: student.absences
        .sort((a, b) => a.day - b.day)
        .map(({ day, type }) => {
          const { date, hijri, weekday } = schoolDateOfDay(day)
          return { date, hijri, weekday, type }
        }),
    })),
  }
}

/** A row's section: its column, else the part after `_` in its grade cell, else the sheet's title block. */
export function sectionCell(
  cells: readonly CellValue[],
  at: number | undefined,
  fromGrade: string | undefined,
  fromTitle: string | undefined,
): CellValue {
  if (at !== undefined && !isBlankCell(cells[at])) return cells[at] ?? null
  return fromGrade ?? fromTitle ?? null
}

export type { SheetRow }
