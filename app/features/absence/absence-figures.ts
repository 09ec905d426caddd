import type { CellValue } from '#app/platform/xlsx/types.ts'
import {
  cellText,
  cleanText,
  compareClassrooms,
  hasArabic,
  isBlankCell,
  nameSortKey,
  normalizeLabel,
  percent,
  type Classroom,
  type ColumnSpec,
  type LayoutName,
  type MessageRef,
  type SkippedRow,
} from '#app/features/analyses/index.ts'
import { guardianMobileColumn } from './guardian-mobile.ts'

/**
 * What both absence layouts count (docs/noor-layouts.md, "Absence"): tallies of records per group (overall,
 * section, classroom, education system) and per student, the warning levels, and the report's
 * shape. A daily file adds one record per school day; a totals file adds a student's whole
 * period at once.
 */

/** The columns that say who a student is and where, in both layouts. */
export const studentColumns = {
  student: { headers: ['اسم الطالب', 'الاسم', 'Student name', 'Student'], required: true },
  studentId: {
    headers: ['رقم الهوية', 'رقم الطالب', 'السجل المدني', 'السجل المدني / الإقامة', 'الرقم الأكاديمي', 'National ID', 'Student ID', 'ID'],
    required: false,
  },
  // Not required in the header row: Noor writes one classroom per sheet, in its title block.
  grade: { headers: ['الصف', 'رقم الصف', 'المرحلة', 'Grade'], required: false },
  classroom: { headers: ['الفصل', 'رقم الفصل', 'الشعبة', 'Class', 'Classroom'], required: false },
  section: { headers: ['القسم', 'المسار', 'Section', 'Track'], required: false },
  system: { headers: ['النظام الدراسي', 'نظام الدراسة', 'Education system', 'System'], required: false },
  guardianMobile: guardianMobileColumn,
} as const satisfies Record<string, ColumnSpec>

/**
 * Section and education system when the column is missing or the cell is empty. The default
 * takes the language of the column's own values (Arabic when any is Arabic), so an empty cell
 * joins the rows that spell it out; without any values, the language of the headers.
 */
export const defaultSection = { ar: 'عام', en: 'General' } as const
export const defaultSystem = { ar: 'نهاري', en: 'Day' } as const

/** Unexcused days from which warning levels 1, 2 and 3 apply. */
export const defaultWarningThresholds = [3, 5, 10] as const

export type AttendanceStatus = 'present' | 'late' | 'excused' | 'unexcused'
export type AbsenceType = 'excused' | 'unexcused'
/** 0 = none; 1, 2, 3 = unexcused days at or over the first, second, third threshold. */
export type WarningLevel = 0 | 1 | 2 | 3
/** The message key naming each warning level (index = level). */
export const warningLevelKeys = [
  'absence.warning.none',
  'absence.warning.first',
  'absence.warning.second',
  'absence.warning.third',
] as const
/** The message key naming each type of absence. */
export const absenceTypeKeys = { excused: 'absence.types.excused', unexcused: 'absence.types.unexcused' } as const satisfies Record<
  AbsenceType,
  string
>

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

/** `days`: school days with records (daily), or the school days of the period (totals). */
export type AbsenceSummary = { readonly records: number; readonly students: number; readonly days: number } & GroupFigures
export type SectionFigures = { readonly section: string } & GroupFigures
export type ClassroomFigures = { readonly grade: string; readonly classroom: string } & GroupFigures
export type SystemFigures = { readonly system: string } & GroupFigures
export type WeekdayFigures = { readonly weekday: number } & GroupFigures
export type DateFigures = { readonly date: string; readonly hijri: string } & GroupFigures

/** A period as the file wrote it and as Gregorian ISO dates. */
export interface AbsencePeriod {
  readonly from: string
  readonly to: string
  readonly fromDate: string
  readonly toDate: string
}

/** What was recognised in the file, shown first on the report. */
export interface AbsenceRecognised {
  readonly layout: Extract<LayoutName, 'absence-daily' | 'absence-totals'>
  /** Sheets read, and sheets that held no table of the layout (cover, School Info). */
  readonly sheets: number
  readonly sheetsSkipped: number
  readonly classrooms: number
  readonly students: number
  /** The file's IDs were in scientific notation: students are told apart by name and classroom. */
  readonly idsIgnored: boolean
  /** Totals: the school days the figures use, and the period the file gives (null without one). */
  readonly schoolDays?: number
  readonly period?: AbsencePeriod | null
  /** Grades written as Noor's codes, kept as written. */
  readonly gradeCodes?: readonly string[]
}

/** The API's `data` of an absence analysis, without id, kind, title and createdAt. */
export interface AbsenceReport {
  readonly recognised?: AbsenceRecognised
  readonly summary: AbsenceSummary
  readonly bySection: readonly SectionFigures[]
  readonly byClassroom: readonly ClassroomFigures[]
  readonly bySystem: readonly SystemFigures[]
  /** Daily records only: a totals file has no days. */
  readonly byWeekday?: readonly WeekdayFigures[]
  readonly byDate?: readonly DateFigures[]
  /** Period absences (present for the day, absent from a lesson), counted apart. */
  readonly periodAbsences?: number
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
  /** Null when the sheet has no ID column, the row's ID cell was empty or the file's IDs are ignored. */
  readonly studentId: string | null
  readonly grade: string
  readonly classroom: string
  readonly section: string
  readonly system: string
  /** 100·(excused + unexcused)/records, two decimals. */
  readonly absenceRate: number
  readonly warningLevel: WarningLevel
  /** Daily records only: excused and unexcused days, oldest first (late days are present days). */
  readonly absences?: readonly StudentAbsence[]
  /**
   * The guardian's mobile (`9665…`), when the file had the column (guardian-mobile.ts): kept with
   * this record only, for the parent message's WhatsApp link; never exported or logged.
   */
  readonly guardianMobile?: string
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
  /** Totals files: the rows as read, to recompute the report for another number of school days. */
  readonly records?: AbsenceTotalsRecords
}

/** One student's row of a totals file, as read (kept to recompute the report for another number of school days). */
export interface TotalsRow {
  /** The sheet's name (none for a CSV file) and the row as Excel shows it. */
  readonly sheet?: string
  readonly row: number
  readonly name: string
  readonly studentId: string | null
  readonly grade: string
  readonly classroom: string
  readonly section: string
  readonly system: string
  readonly excused: number
  readonly unexcused: number
  readonly late: number
  readonly periodAbsences: number
  /** The guardian's mobile, when the file had the column (see StudentFigures). */
  readonly guardianMobile?: string
}

/**
 * What an absence analysis keeps in its row when its records are entries of their own
 * (analysis_entries): the students as part 0 and, for a totals file, its rows as read as part 1;
 * `totals` holds the rest of what a totals report is recomputed from.
 */
export interface AbsenceEntriesRecords {
  readonly entries: 'students-and-rows'
  readonly totals: Omit<AbsenceTotalsRecords, 'rows'> | null
}

/** What a totals analysis stores as its records: everything its report is computed from. */
export interface AbsenceTotalsRecords {
  readonly layout: 'absence-totals'
  readonly rows: readonly TotalsRow[]
  /** Rows skipped whatever the school days (no name, unreadable counts, duplicates). */
  readonly skipped: readonly SkippedRow[]
  readonly recognised: Omit<AbsenceRecognised, 'classrooms' | 'students' | 'schoolDays'>
  readonly headerLanguage: 'ar' | 'en'
  /** The data sheets' names in file order ('' for a CSV file), to list skipped rows in file order. */
  readonly sheets: readonly string[]
}

// ---------------------------------------------------------------------------------------------

export class Tally {
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

  merge(other: Counts): void {
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

export interface LabelGroup {
  readonly label: string
  readonly tally: Tally
}

/**
 * Groups by a label column (section, education system), in order of first appearance. Empty
 * cells go to a default group whose label is decided at the end (see defaultSection).
 */
export class LabelGroups {
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
  resolve(
    defaults: { ar: string; en: string },
    headerLanguage: 'ar' | 'en',
  ): { groups: LabelGroup[]; labelOf: (group: LabelGroup) => string } {
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

export function skip(sheet: string | null, row: number, key: string, values?: MessageRef['values']): SkippedRow {
  return { ...(sheet !== null && { sheet }), row, reason: values ? { key: `absence.skip.${key}`, values } : { key: `absence.skip.${key}` } }
}

export function warningLevelOf(unexcused: number, [first, second, third]: readonly [number, number, number]): WarningLevel {
  return unexcused >= third ? 3 : unexcused >= second ? 2 : unexcused >= first ? 1 : 0
}

export function checkThresholds(thresholds: readonly [number, number, number]): void {
  const [a, b, c] = thresholds
  if (!thresholds.every((n) => Number.isInteger(n) && n > 0) || !(a < b && b < c))
    throw new RangeError(`warning thresholds must be positive ascending integers, not ${thresholds.join(', ')}`)
}

/** A student being counted: their groups and their own tally. */
export interface CountedStudent {
  readonly name: string
  readonly studentId: string | null
  readonly classroom: Classroom
  readonly section: LabelGroup
  readonly system: LabelGroup
  readonly tally: Tally
  /** The guardian's mobile, when the file had the column. */
  readonly guardianMobile?: string | null
}

/** The groups every absence report has, filled student by student. */
export class AbsenceGroups {
  readonly overall = new Tally()
  readonly sections = new LabelGroups()
  readonly systems = new LabelGroups()
  /** Made only for accepted rows: a group never ends up empty. */
  readonly classrooms = new Map<Classroom, Tally>()

  classroomTally(classroom: Classroom): Tally {
    let tally = this.classrooms.get(classroom)
    if (!tally) {
      tally = new Tally()
      this.classrooms.set(classroom, tally)
    }
    return tally
  }

  /** Adds one day's status, or a whole period's counts, to every group of the student. */
  count(student: CountedStudent, what: AttendanceStatus | Counts): void {
    for (const tally of [
      this.overall,
      this.classroomTally(student.classroom),
      student.section.tally,
      student.system.tally,
      student.tally,
    ]) {
      if (typeof what === 'string') tally.add(what)
      else tally.merge(what)
    }
  }

  /** The group lists of the report and a function giving each student's figures, students sorted by name. */
  finish<S extends CountedStudent>(
    students: Iterable<S>,
    headerLanguage: 'ar' | 'en',
    thresholds: readonly [number, number, number],
  ): {
    bySection: SectionFigures[]
    byClassroom: ClassroomFigures[]
    bySystem: SystemFigures[]
    students: Array<{ student: S; figures: StudentFigures }>
  } {
    const sectionGroups = this.sections.resolve(defaultSection, headerLanguage)
    const systemGroups = this.systems.resolve(defaultSystem, headerLanguage)
    const classroomList = [...this.classrooms.keys()].sort(compareClassrooms)
    const sorted = [...students].map((student) => ({ student, key: nameSortKey(student.name) }))
    sorted.sort(
      (a, b) =>
        (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) ||
        compareClassrooms(a.student.classroom, b.student.classroom) ||
        (a.student.studentId ?? '').localeCompare(b.student.studentId ?? ''),
    )
    return {
      bySection: sectionGroups.groups.map((group) => ({ section: group.label, ...group.tally.figures() })),
      byClassroom: classroomList.map((classroom) => ({
        grade: classroom.grade,
        classroom: classroom.classroom,
        ...(this.classrooms.get(classroom) as Tally).figures(),
      })),
      bySystem: systemGroups.groups.map((group) => ({ system: group.label, ...group.tally.figures() })),
      students: sorted.map(({ student }) => {
        const { tally } = student
        return {
          student,
          figures: {
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
            ...(student.guardianMobile && { guardianMobile: student.guardianMobile }),
          },
        }
      }),
    }
  }
}
