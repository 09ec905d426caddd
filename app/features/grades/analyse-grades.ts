import {
  cellText,
  cleanText,
  compareClassrooms,
  decimalPlaces,
  isBlankCell,
  normalizeLabel,
  normalizeText,
  refuseMostlySkipped,
  requireTable,
  Roster,
  roundHalfAway,
  type Classroom,
  type ColumnSpec,
  type LocatedTable,
  type MessageRef,
  type SkippedRow,
  type TableSpec,
} from '#app/features/analyses/index.ts'
import type { CellValue, SheetRow } from '#app/server/xlsx/types.ts'
import { resolveBands, type BandPresetName, type GradeBand } from './bands.ts'
import { maxScoreDecimals, ScoreGroup, scoreFigures, type ScoreFigures, type SubjectScale } from './grade-figures.ts'

/**
 * The grades analysis of grades.md: one data row is one student's score in one subject; each
 * subject is analysed on its own, overall and per classroom. Pure: rows in, records and figures
 * out, refusals as AnalysisError with message keys. The figures are computed from the records
 * only, so a saved analysis can be recomputed with other bands (recomputeGrades).
 */

export const gradesColumns = {
  student: { headers: ['اسم الطالب', 'الاسم', 'Student name', 'Student'], required: true },
  studentId: { headers: ['رقم الهوية', 'رقم الطالب', 'National ID', 'ID'], required: false },
  grade: { headers: ['الصف', 'رقم الصف', 'Grade'], required: true },
  classroom: { headers: ['الفصل', 'رقم الفصل', 'الشعبة', 'Class', 'Classroom'], required: true },
  subject: { headers: ['المادة', 'Subject'], required: false },
  score: { headers: ['الدرجة', 'الدرجة المستحقة', 'Score', 'Mark'], required: true },
  max: { headers: ['الدرجة العظمى', 'النهاية العظمى', 'Max score', 'Out of'], required: false },
} as const satisfies Record<string, ColumnSpec>

export type GradesColumn = keyof typeof gradesColumns

export const gradesTitleLabels = {
  school: ['اسم المدرسة', 'School'],
  subject: ['المادة', 'Subject'],
  exam: ['الاختبار', 'Exam'],
  term: ['الفصل الدراسي', 'Term'],
  max: ['الدرجة العظمى', 'Max score'],
} as const

export type GradesTitleField = keyof typeof gradesTitleLabels

const gradesTable: TableSpec<GradesColumn, GradesTitleField> = { columns: gradesColumns, titleLabels: gradesTitleLabels }

/** The sheet read from a grades workbook (else its first sheet). */
export const gradesSheetNames = ['الدرجات', 'Grades'] as const
/** The max score when neither the row nor the title block gives one. */
export const defaultMaxScore = 100
/** A max score above this is taken for a typing error. */
export const maxMaxScore = 100_000
/** The subject when neither the row nor the title block names one. */
export const noSubject = '—'
/** Score cells that mean the student missed the exam (after normalisation; an empty cell too). */
export const absentMarkers = ['غائب', 'غ', 'absent'] as const

/** One student's result in a subject, as stored: the score, or null when absent. */
export interface GradeRecord {
  readonly name: string
  /** Null when the sheet has no ID column or the row's ID cell was empty. */
  readonly studentId: string | null
  readonly grade: string
  readonly classroom: string
  readonly score: number | null
}

export interface SubjectRecords {
  readonly subject: string
  readonly max: number
  /** In the order of the file. */
  readonly students: readonly GradeRecord[]
}

/** Everything the report is computed from: recomputeGrades(records, bands) gives the report again. */
export interface GradeRecords {
  /** In order of first appearance. */
  readonly subjects: readonly SubjectRecords[]
  readonly skipped: readonly SkippedRow[]
}

export type ClassroomScoreFigures = { readonly grade: string; readonly classroom: string } & ScoreFigures

export interface SubjectReport {
  readonly subject: string
  readonly max: number
  readonly summary: ScoreFigures
  /** Classrooms in school order. */
  readonly byClassroom: readonly ClassroomScoreFigures[]
}

/** The API's `data` of a grades analysis, without id, kind, title and createdAt. */
export interface GradesReport {
  readonly bands: readonly GradeBand[]
  readonly subjects: readonly SubjectReport[]
  readonly skipped: readonly SkippedRow[]
}

/** The title block as written (the max score read as a number) and the sheet's name. */
export interface GradesMeta {
  readonly school?: string
  readonly subject?: string
  readonly exam?: string
  readonly term?: string
  readonly maxScore?: number
  readonly sheetName?: string
}

export interface GradesAnalysis {
  readonly meta: GradesMeta
  readonly report: GradesReport
  readonly records: GradeRecords
}

export interface AnalyseGradesOptions {
  /** The bands, or a preset's name; the default preset unless told. */
  readonly bands?: readonly GradeBand[] | BandPresetName
  /** The sheet the rows come from, for the report's title. */
  readonly sheetName?: string
}

// ---------------------------------------------------------------------------------------------

/** A score or max cell: a number, `absent`, or null when it cannot be read. */
type Reading = number | 'absent' | null

const absentLabels = new Set<string>(absentMarkers)
const numberForm = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/
const readings = new Map<string, Reading>()

function computeReading(text: string): Reading {
  const label = normalizeLabel(text)
  if (label === '' || absentLabels.has(label)) return 'absent'
  // Arabic-Indic digits are Latin by now; the Arabic decimal separator and minus sign are not.
  const plain = normalizeText(text).replace(/\u066B/g, '.').replace(/\u2212/g, '-').replace(/ /g, '')
  return numberForm.test(plain) ? keepDecimals(Number(plain)) : null
}

function keepDecimals(value: number): number {
  return decimalPlaces(value) > maxScoreDecimals ? roundHalfAway(value, maxScoreDecimals) : value || 0
}

/** A score or max cell as grades.md reads it: decimals with `.` or `٫`, Arabic-Indic digits, absent markers. */
export function readScore(value: CellValue | undefined): Reading {
  if (isBlankCell(value)) return 'absent'
  if (typeof value === 'number') return keepDecimals(value)
  if (typeof value !== 'string') return null // a date or a boolean is no score
  let reading = readings.get(value)
  if (reading === undefined) {
    reading = computeReading(value)
    if (readings.size > 10_000) readings.clear()
    readings.set(value, reading)
  }
  return reading
}

/** A max score, or null when it is none (absent, unreadable, 0 or less, or implausibly large). */
function readMax(value: CellValue | undefined): number | null {
  const reading = readScore(value)
  return typeof reading === 'number' && reading > 0 && reading <= maxMaxScore ? reading : null
}

interface SubjectEntry {
  readonly label: string
  /** The max of the first scored row; the subject's other scored rows must have the same. */
  max: number | null
  /** The max when every row is absent: the first absent row's, else the title's, else 100. */
  readonly fallbackMax: number
  readonly students: GradeRecord[]
  /** Student → the row that gave their result (a second row is a duplicate). */
  readonly rowOfStudent: Map<string, number>
}

function skip(row: number, key: string, values?: MessageRef['values']): SkippedRow {
  return { row, reason: values ? { key: `grades.skip.${key}`, values } : { key: `grades.skip.${key}` } }
}

const shown = (value: CellValue | undefined) => cleanText(cellText(value))

/** Reads a sheet's rows into records (grades.md, "Table"); the skipped rows with their reasons. */
function readRecords(table: LocatedTable<GradesColumn, GradesTitleField>): GradeRecords {
  const { columns, title } = table
  const scoreAt = columns.score as number
  const subjectAt = columns.subject
  const maxAt = columns.max
  const roster = new Roster({ student: columns.student as number, grade: columns.grade as number, classroom: columns.classroom as number, studentId: columns.studentId })
  const titleSubject = title.subject ?? noSubject
  const titleMax = title.max

  const subjects = new Map<string, SubjectEntry>()
  const skipped: SkippedRow[] = []

  for (const { row, cells } of table.rows) {
    const placed = roster.place(cells)
    if (typeof placed === 'string') {
      skipped.push(skip(row, placed))
      continue
    }
    const scoreCell = cells[scoreAt]
    const score = readScore(scoreCell)
    if (score === null) {
      skipped.push(skip(row, 'unreadableScore', { value: shown(scoreCell) }))
      continue
    }
    if (score !== 'absent' && score < 0) {
      skipped.push(skip(row, 'negativeScore', { value: shown(scoreCell) }))
      continue
    }

    // The row's max: its own cell, else the title block's, else 100.
    const maxCell = maxAt === undefined ? null : cells[maxAt]
    const maxSource: CellValue | undefined = isBlankCell(maxCell) ? (titleMax ?? null) : maxCell
    const max = maxSource === null ? defaultMaxScore : readMax(maxSource)
    const subjectCell = subjectAt === undefined ? null : cells[subjectAt]
    const subjectText = isBlankCell(subjectCell) ? titleSubject : cellText(subjectCell)
    const subjectKey = normalizeLabel(subjectText)
    let subject = subjects.get(subjectKey)

    if (score !== 'absent') {
      // An absent row's max is of no use: only a scored row is checked against it.
      if (max === null) {
        skipped.push(skip(row, 'unreadableMax', { value: shown(maxSource) }))
        continue
      }
      if (score > max) {
        skipped.push(skip(row, 'scoreAboveMax', { value: score, max }))
        continue
      }
      if (subject?.max != null && subject.max !== max) {
        skipped.push(skip(row, 'otherMax', { value: max, max: subject.max }))
        continue
      }
    }
    const firstRow = subject?.rowOfStudent.get(placed.studentKey)
    if (firstRow !== undefined) {
      skipped.push(skip(row, 'duplicate', { firstRow }))
      continue
    }

    if (!subject) {
      subject = {
        label: cleanText(subjectText),
        max: null,
        fallbackMax: max ?? (titleMax === undefined ? null : readMax(titleMax)) ?? defaultMaxScore,
        students: [],
        rowOfStudent: new Map(),
      }
      subjects.set(subjectKey, subject)
    }
    if (score !== 'absent') subject.max ??= max
    subject.rowOfStudent.set(placed.studentKey, row)
    subject.students.push(record(placed.name, placed.studentId, placed.classroom, score === 'absent' ? null : score))
  }

  return {
    subjects: [...subjects.values()].map(({ label, max, fallbackMax, students }) => ({ subject: label, max: max ?? fallbackMax, students })),
    skipped,
  }
}

function record(name: string, studentId: string | null, classroom: Classroom, score: number | null): GradeRecord {
  return { name, studentId, grade: classroom.grade, classroom: classroom.classroom, score }
}

function subjectReport(subject: SubjectRecords, bands: readonly GradeBand[], roster: Roster): SubjectReport {
  let places = decimalPlaces(subject.max)
  for (const { score } of subject.students) if (score !== null) places = Math.max(places, decimalPlaces(score))
  const scale = Math.min(places, maxScoreDecimals)
  const factor = 10 ** scale
  const subjectScale: SubjectScale = { scale, maxUnits: Math.round(subject.max * factor), bands }

  const summary = new ScoreGroup()
  const classrooms = new Map<Classroom, ScoreGroup>()
  subject.students.forEach((student, order) => {
    const classroom = roster.classroomOf(student.grade, student.classroom)
    let group = classrooms.get(classroom)
    if (!group) {
      group = new ScoreGroup()
      classrooms.set(classroom, group)
    }
    if (student.score === null) {
      summary.absent++
      group.absent++
      return
    }
    const entry = { units: Math.round(student.score * factor), name: student.name, order }
    summary.scored.push(entry)
    group.scored.push(entry)
  })

  return {
    subject: subject.subject,
    max: subject.max,
    summary: scoreFigures(summary, subjectScale),
    byClassroom: [...classrooms.keys()]
      .sort(compareClassrooms)
      .map((classroom) => ({ grade: classroom.grade, classroom: classroom.classroom, ...scoreFigures(classrooms.get(classroom) as ScoreGroup, subjectScale) })),
  }
}

/**
 * The report of stored records with the given bands (a preset's name, or the teacher's own: see
 * parseBands), without the workbook: the page changes the band thresholds this way. Invalid
 * bands are a DomainError (400) with the reason's key.
 */
export function recomputeGrades(records: GradeRecords, bands?: readonly GradeBand[] | BandPresetName): GradesReport {
  const resolved = resolveBands(bands)
  const roster = new Roster()
  return {
    bands: resolved.map(({ key, min }) => ({ key, min })),
    subjects: records.subjects.map((subject) => subjectReport(subject, resolved, roster)),
    skipped: records.skipped,
  }
}

/** Analyses a sheet's rows (grades.md). Throws AnalysisError when the file is refused. */
export function analyseGrades(rows: readonly SheetRow[], options: AnalyseGradesOptions = {}): GradesAnalysis {
  const bands = resolveBands(options.bands)
  const table = requireTable(rows, gradesTable, 'grades')
  const records = readRecords(table)
  refuseMostlySkipped(records.skipped, table.rows.length, 'grades')

  const { title } = table
  const titleMax = title.max === undefined ? null : readMax(title.max)
  const meta: GradesMeta = {
    ...(title.school !== undefined && { school: title.school }),
    ...(title.subject !== undefined && { subject: title.subject }),
    ...(title.exam !== undefined && { exam: title.exam }),
    ...(title.term !== undefined && { term: title.term }),
    ...(titleMax !== null && { maxScore: titleMax }),
    ...(options.sheetName !== undefined && { sheetName: options.sheetName }),
  }
  return { meta, report: recomputeGrades(records, bands), records }
}
