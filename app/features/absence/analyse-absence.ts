import type { CellValue, SheetRow } from '#app/server/xlsx/types.ts'
import {
  cellText,
  cleanText,
  compareClassrooms,
  hasArabic,
  isBlankCell,
  nameSortKey,
  normalizeLabel,
  parseDateCell,
  percent,
  refuseMostlySkipped,
  refusalReasonLimit,
  requireTable,
  Roster,
  schoolDateOfDay,
  type Classroom,
  type ColumnSpec,
  type MessageRef,
  type SkippedRow,
  type TableSpec,
} from '#app/features/analyses/index.ts'

/**
 * The absence analysis of absence.md: one data row is one student on one school day; the
 * figures are counted per group (overall, section, classroom, education system, weekday, date)
 * and per student. Pure: rows in, figures out, refusals as AnalysisError with message keys.
 */

export const absenceColumns = {
  student: { headers: ['اسم الطالب', 'الاسم', 'Student name', 'Student'], required: true },
  studentId: { headers: ['رقم الهوية', 'رقم الطالب', 'السجل المدني', 'National ID', 'ID'], required: false },
  grade: { headers: ['الصف', 'رقم الصف', 'المرحلة', 'Grade'], required: true },
  classroom: { headers: ['الفصل', 'رقم الفصل', 'الشعبة', 'Class', 'Classroom'], required: true },
  section: { headers: ['القسم', 'المسار', 'Section', 'Track'], required: false },
  system: { headers: ['النظام الدراسي', 'نظام الدراسة', 'Education system', 'System'], required: false },
  date: { headers: ['التاريخ', 'تاريخ الغياب', 'Date'], required: true },
  day: { headers: ['اليوم', 'Day name', 'Weekday'], required: false },
  status: { headers: ['الحالة', 'نوع الغياب', 'Status'], required: true },
} as const satisfies Record<string, ColumnSpec>

export type AbsenceColumn = keyof typeof absenceColumns

export const absenceTitleLabels = {
  school: ['اسم المدرسة', 'School'],
  from: ['من تاريخ', 'From'],
  to: ['إلى تاريخ', 'To'],
  term: ['الفصل الدراسي', 'Term'],
} as const

export type AbsenceTitleField = keyof typeof absenceTitleLabels

const absenceTable: TableSpec<AbsenceColumn, AbsenceTitleField> = { columns: absenceColumns, titleLabels: absenceTitleLabels }

/**
 * Section and education system when the column is missing or the cell is empty. The default
 * takes the language of the column's own values (Arabic when any is Arabic), so an empty cell
 * joins the rows that spell it out; without any values, the language of the headers.
 */
export const defaultSection = { ar: 'عام', en: 'General' } as const
export const defaultSystem = { ar: 'نهاري', en: 'Day' } as const

/** Unexcused days from which warning levels 1, 2 and 3 apply. */
export const defaultWarningThresholds = [3, 5, 10] as const
/** How many skip reasons a refusal carries (shared by the analyses). */
export { refusalReasonLimit }

export type AttendanceStatus = 'present' | 'late' | 'excused' | 'unexcused'
export type AbsenceType = 'excused' | 'unexcused'
/** 0 = none; 1, 2, 3 = unexcused days at or over the first, second, third threshold. */
export type WarningLevel = 0 | 1 | 2 | 3
/** The message key naming each warning level (index = level). */
export const warningLevelKeys = ['absence.warning.none', 'absence.warning.first', 'absence.warning.second', 'absence.warning.third'] as const
/** The message key naming each type of absence. */
export const absenceTypeKeys = { excused: 'absence.types.excused', unexcused: 'absence.types.unexcused' } as const satisfies Record<AbsenceType, string>

export interface AnalyseAbsenceOptions {
  /** The sheet the rows come from, for the report's title. */
  readonly sheetName?: string
  /** Unexcused days for warning levels 1, 2 and 3, ascending (3, 5, 10). */
  readonly warningThresholds?: readonly [number, number, number]
}

export interface Counts {
  readonly records: number
  readonly present: number
  readonly excused: number
  readonly unexcused: number
  readonly late: number
}

/** Percentages of the records, two decimals, half away from zero. */
export interface Rates {
  readonly attendanceRate: number
  readonly excusedRate: number
  readonly unexcusedRate: number
  readonly lateRate: number
}

export type GroupFigures = Counts & Rates

export type AbsenceSummary = { readonly records: number; readonly students: number; readonly days: number } & GroupFigures
export type SectionFigures = { readonly section: string } & GroupFigures
export type ClassroomFigures = { readonly grade: string; readonly classroom: string } & GroupFigures
export type SystemFigures = { readonly system: string } & GroupFigures
export type WeekdayFigures = { readonly weekday: number } & GroupFigures
export type DateFigures = { readonly date: string; readonly hijri: string } & GroupFigures

/** The API's `data` of an absence analysis, without id, kind, title and createdAt. */
export interface AbsenceReport {
  readonly summary: AbsenceSummary
  readonly bySection: readonly SectionFigures[]
  readonly byClassroom: readonly ClassroomFigures[]
  readonly bySystem: readonly SystemFigures[]
  readonly byWeekday: readonly WeekdayFigures[]
  readonly byDate: readonly DateFigures[]
  readonly skipped: readonly SkippedRow[]
}

export interface StudentAbsence {
  readonly date: string
  readonly hijri: string
  readonly weekday: number
  readonly type: AbsenceType
}

export interface StudentFigures extends Counts {
  readonly name: string
  /** Null when the sheet has no ID column (or the row's ID cell was empty). */
  readonly studentId: string | null
  readonly grade: string
  readonly classroom: string
  readonly section: string
  readonly system: string
  /** 100·(excused + unexcused)/records, two decimals. */
  readonly absenceRate: number
  readonly warningLevel: WarningLevel
  /** Excused and unexcused days, oldest first (late days are present days). */
  readonly absences: readonly StudentAbsence[]
}

/** The title block, as written (nothing is computed from it), and the sheet's name. */
export interface AbsenceMeta {
  readonly school?: string
  readonly from?: string
  readonly to?: string
  readonly term?: string
  readonly sheetName?: string
}

export interface AbsenceAnalysis {
  readonly meta: AbsenceMeta
  readonly report: AbsenceReport
  /** Every student, by name. */
  readonly students: readonly StudentFigures[]
}

// ---------------------------------------------------------------------------------------------

const statusCache = new Map<string, AttendanceStatus | null>()

function computeStatus(text: string): AttendanceStatus | null {
  const s = normalizeLabel(text)
  if (s === '') return 'present'
  if (s.includes('بدون عذر') || s.includes('بغير عذر') || s.includes('غير مبرر') || s.includes('unexcused')) return 'unexcused'
  if (s.includes('عذر') || s.includes('excused')) return 'excused'
  if (s.includes('متاخر') || s.includes('تاخر') || s.includes('late')) return 'late'
  if (s.includes('حاضر') || s.includes('حضور') || s.includes('present')) return 'present'
  return null
}

/** A status cell as absence.md classifies it; null for a status it does not know. */
export function classifyStatus(value: CellValue | undefined): AttendanceStatus | null {
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

class Tally {
  records = 0
  present = 0
  excused = 0
  unexcused = 0
  late = 0

  add(status: AttendanceStatus): void {
    this.records++
    if (status === 'present') this.present++
    else if (status === 'late') {
      this.present++
      this.late++
    } else if (status === 'excused') this.excused++
    else this.unexcused++
  }

  merge(other: Tally): void {
    this.records += other.records
    this.present += other.present
    this.excused += other.excused
    this.unexcused += other.unexcused
    this.late += other.late
  }

  figures(): GroupFigures {
    const { records, present, excused, unexcused, late } = this
    return {
      records,
      present,
      excused,
      unexcused,
      late,
      attendanceRate: percent(present, records),
      excusedRate: percent(excused, records),
      unexcusedRate: percent(unexcused, records),
      lateRate: percent(late, records),
    }
  }
}

interface LabelGroup {
  readonly label: string
  readonly tally: Tally
}

/**
 * Groups by a label column (section, education system), in order of first appearance. Empty
 * cells go to a default group whose label is decided at the end (see defaultSection).
 */
class LabelGroups {
  private readonly byKey = new Map<string, LabelGroup>()
  private readonly byText = new Map<string, LabelGroup>()
  private readonly fallback: LabelGroup = { label: '', tally: new Tally() }
  private readonly order: LabelGroup[] = []
  private isFallbackUsed = false
  private hasArabicValue = false
  private hasValue = false

  groupOf(value: CellValue | undefined): LabelGroup {
    if (isBlankCell(value)) {
      if (!this.isFallbackUsed) {
        this.isFallbackUsed = true
        this.order.push(this.fallback)
      }
      return this.fallback
    }
    const text = cellText(value)
    let group = this.byText.get(text)
    if (!group) {
      const key = normalizeLabel(text)
      group = this.byKey.get(key)
      if (!group) {
        group = { label: cleanText(text), tally: new Tally() }
        this.byKey.set(key, group)
        this.order.push(group)
        this.hasValue = true
        if (hasArabic(text)) this.hasArabicValue = true
      }
      this.byText.set(text, group)
    }
    return group
  }

  /** The groups with the default resolved (merged into the group that spells it out, if any) and each group's final label. */
  resolve(defaults: { ar: string; en: string }, headerLanguage: 'ar' | 'en'): { groups: LabelGroup[]; labelOf: (group: LabelGroup) => string } {
    const language = this.hasArabicValue ? 'ar' : this.hasValue ? 'en' : headerLanguage
    const label = defaults[language]
    const spelled = this.byKey.get(normalizeLabel(label))
    const groups: LabelGroup[] = []
    let defaultGroup: LabelGroup = { label, tally: this.fallback.tally }
    if (spelled) {
      const merged = new Tally()
      merged.merge(spelled.tally)
      merged.merge(this.fallback.tally)
      defaultGroup = { label: spelled.label, tally: merged }
    }
    let placed = false
    for (const group of this.order) {
      const isDefault = group === this.fallback || group === spelled
      if (!isDefault) groups.push(group)
      else if (!placed && defaultGroup.tally.records > 0) {
        groups.push(defaultGroup)
        placed = true
      }
    }
    return { groups, labelOf: (group) => (group === this.fallback || group === spelled ? defaultGroup.label : group.label) }
  }
}

interface Student {
  readonly name: string
  readonly studentId: string | null
  readonly classroom: Classroom
  readonly section: LabelGroup
  readonly system: LabelGroup
  readonly tally: Tally
  /** Day → the row that recorded it (a second row for the day is a duplicate). */
  readonly rowOfDay: Map<number, number>
  readonly absences: { day: number; type: AbsenceType }[]
}

function skip(row: number, key: string, values?: MessageRef['values']): SkippedRow {
  return { row, reason: values ? { key: `absence.skip.${key}`, values } : { key: `absence.skip.${key}` } }
}

function warningLevelOf(unexcused: number, [first, second, third]: readonly [number, number, number]): WarningLevel {
  return unexcused >= third ? 3 : unexcused >= second ? 2 : unexcused >= first ? 1 : 0
}

function checkThresholds(thresholds: readonly [number, number, number]): void {
  const [a, b, c] = thresholds
  if (!thresholds.every((n) => Number.isInteger(n) && n > 0) || !(a < b && b < c))
    throw new RangeError(`warning thresholds must be positive ascending integers, not ${thresholds.join(', ')}`)
}

/** Analyses a sheet's rows (absence.md). Throws AnalysisError when the file is refused. */
export function analyseAbsence(rows: readonly SheetRow[], options: AnalyseAbsenceOptions = {}): AbsenceAnalysis {
  const thresholds = options.warningThresholds ?? defaultWarningThresholds
  checkThresholds(thresholds)

  const table = requireTable(rows, absenceTable, 'absence')
  const { columns } = table
  const dateAt = columns.date as number
  const statusAt = columns.status as number
  const sectionAt = columns.section
  const systemAt = columns.system
  const roster = new Roster({ student: columns.student as number, grade: columns.grade as number, classroom: columns.classroom as number, studentId: columns.studentId })

  const overall = new Tally()
  const sections = new LabelGroups()
  const systems = new LabelGroups()
  // Made only for accepted rows: a group never ends up empty.
  const classrooms = new Map<Classroom, Tally>()
  const weekdays: (Tally | undefined)[] = []
  const dates = new Map<number, Tally>()
  const students = new Map<string, Student>()
  const skipped: SkippedRow[] = []

  for (const { row, cells } of table.rows) {
    const placed = roster.place(cells)
    if (typeof placed === 'string') {
      skipped.push(skip(row, placed))
      continue
    }
    const dateCell = cells[dateAt] ?? null
    const date = parseDateCell(dateCell)
    if (!date) {
      skipped.push(skip(row, 'unreadableDate', { value: cleanText(cellText(dateCell)) }))
      continue
    }
    const statusCell = cells[statusAt]
    const status = classifyStatus(statusCell)
    if (!status) {
      skipped.push(skip(row, 'unknownStatus', { value: cleanText(cellText(statusCell)) }))
      continue
    }

    let student = students.get(placed.studentKey)
    const firstRow = student?.rowOfDay.get(date.day)
    if (firstRow !== undefined) {
      skipped.push(skip(row, 'duplicate', { firstRow }))
      continue
    }

    const { classroom } = placed
    let classroomTally = classrooms.get(classroom)
    if (!classroomTally) {
      classroomTally = new Tally()
      classrooms.set(classroom, classroomTally)
    }
    const section = sections.groupOf(sectionAt === undefined ? null : cells[sectionAt])
    const system = systems.groupOf(systemAt === undefined ? null : cells[systemAt])
    if (!student) {
      student = { name: placed.name, studentId: placed.studentId, classroom, section, system, tally: new Tally(), rowOfDay: new Map(), absences: [] }
      students.set(placed.studentKey, student)
    }
    student.rowOfDay.set(date.day, row)

    overall.add(status)
    classroomTally.add(status)
    section.tally.add(status)
    system.tally.add(status)
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
    student.tally.add(status)
    if (status === 'excused' || status === 'unexcused') student.absences.push({ day: date.day, type: status })
  }

  refuseMostlySkipped(skipped, table.rows.length, 'absence')

  const sectionGroups = sections.resolve(defaultSection, table.headerLanguage)
  const systemGroups = systems.resolve(defaultSystem, table.headerLanguage)

  const classroomList = [...classrooms.keys()].sort(compareClassrooms)
  const byWeekday: WeekdayFigures[] = []
  weekdays.forEach((tally, weekday) => {
    if (tally) byWeekday.push({ weekday, ...tally.figures() })
  })

  const { records, ...overallRest } = overall.figures()
  const report: AbsenceReport = {
    summary: { records, students: students.size, days: dates.size, ...overallRest },
    bySection: sectionGroups.groups.map((group) => ({ section: group.label, ...group.tally.figures() })),
    byClassroom: classroomList.map((classroom) => ({ grade: classroom.grade, classroom: classroom.classroom, ...(classrooms.get(classroom) as Tally).figures() })),
    bySystem: systemGroups.groups.map((group) => ({ system: group.label, ...group.tally.figures() })),
    byWeekday,
    byDate: [...dates.entries()]
      .sort(([a], [b]) => a - b)
      .map(([day, tally]) => {
        const { date, hijri } = schoolDateOfDay(day)
        return { date, hijri, ...tally.figures() }
      }),
    skipped,
  }

  const studentList = [...students.values()].map((student) => ({ student, key: nameSortKey(student.name) }))
  studentList.sort(
    (a, b) =>
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) ||
      compareClassrooms(a.student.classroom, b.student.classroom) ||
      (a.student.studentId ?? '').localeCompare(b.student.studentId ?? ''),
  )

  const { title } = table
  const meta: AbsenceMeta = {
    ...(title.school !== undefined && { school: title.school }),
    ...(title.from !== undefined && { from: title.from }),
    ...(title.to !== undefined && { to: title.to }),
    ...(title.term !== undefined && { term: title.term }),
    ...(options.sheetName !== undefined && { sheetName: options.sheetName }),
  }

  return {
    meta,
    report,
    students: studentList.map(({ student }) => {
      const { tally } = student
      return {
        name: student.name,
        studentId: student.studentId,
        grade: student.classroom.grade,
        classroom: student.classroom.classroom,
        section: sectionGroups.labelOf(student.section),
        system: systemGroups.labelOf(student.system),
        records: tally.records,
        present: tally.present,
        excused: tally.excused,
        unexcused: tally.unexcused,
        late: tally.late,
        absenceRate: percent(tally.excused + tally.unexcused, tally.records),
        warningLevel: warningLevelOf(tally.unexcused, thresholds),
        absences: student.absences
          .sort((a, b) => a.day - b.day)
          .map(({ day, type }) => {
            const { date, hijri, weekday } = schoolDateOfDay(day)
            return { date, hijri, weekday, type }
          }),
      }
    }),
  }
}
