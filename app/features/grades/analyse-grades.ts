import {
  AnalysisError,
  cellText,
  cleanText,
  compareClassrooms,
  decimalPlaces,
  isBlankCell,
  lacksGradeOrClassroom,
  normalizeLabel,
  normalizeText,
  percent,
  recogniseLayout,
  refuseMostlySkipped,
  Roster,
  roundHalfAway,
  schoolNameOf,
  sheetsOf,
  studentKeyOf,
  readStudentId,
  readGradeCell,
  isGradeCode,
  type AnalysisInput,
  type Classroom,
  type ColumnSpec,
  type LayoutName,
  type LayoutSpec,
  type MessageRef,
  type SheetTable,
  type SkippedRow,
  type TableSpec,
} from '#app/features/analyses/index.ts'
import type { CellValue } from '#app/platform/xlsx/types.ts'
import { resolveBands, type BandPresetName, type GradeBand } from './bands.ts'
import { maxScoreDecimals, ScoreGroup, scoreFigures, type ScoreFigures, type SubjectScale } from './grade-figures.ts'

/**
 * The grades analysis of docs/grades.md: one data row is one student's score in one subject; each
 * subject is analysed on its own, overall and per classroom. Pure: rows in, records and figures
 * out, refusals as AnalysisError with message keys. The figures are computed from the records
 * only, so a saved analysis can be recomputed with other bands (recomputeGrades).
 */

export const gradesColumns = {
  student: { headers: ['اسم الطالب', 'الاسم', 'Student name', 'Student'], required: true },
  studentId: {
    headers: ['رقم الهوية', 'رقم الطالب', 'السجل المدني', 'الرقم الأكاديمي', 'National ID', 'Student ID', 'ID'],
    required: false,
  },
  grade: { headers: ['الصف', 'رقم الصف', 'Grade'], required: false },
  classroom: { headers: ['الفصل', 'رقم الفصل', 'الشعبة', 'Class', 'Classroom'], required: false },
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
  grade: ['الصف', 'Grade'],
  classroom: ['الفصل', 'رقم الفصل', 'Class', 'Classroom'],
} as const

export type GradesTitleField = keyof typeof gradesTitleLabels

const rowsLayout: LayoutSpec = {
  name: 'grades-rows',
  table: { columns: gradesColumns, titleLabels: gradesTitleLabels } satisfies TableSpec<GradesColumn, GradesTitleField>,
  lacks: lacksGradeOrClassroom,
  named: ['grade', 'classroom'],
}

/** A report card (Noor's إشعار فترة / إشعار بدرجات الفصل / كشف درجات الفصل): one sheet per student. */
export const reportCardColumns = {
  subject: { headers: ['المادة', 'المواد الدراسية', 'اسم المادة', 'Subject', 'Subjects'], required: true },
  score: { headers: ['مجموع', 'المجموع', 'Total'], required: true },
  max: { headers: ['النهاية العظمى', 'الدرجة العظمى', 'Max score', 'Maximum', 'Out of'], required: false },
} as const satisfies Record<string, ColumnSpec>

export const reportCardTitleLabels = {
  school: ['اسم المدرسة', 'School'],
  student: ['اسم الطالب', 'الاسم', 'Student name', 'Student', 'Name'],
  studentId: ['رقم الهوية', 'السجل المدني', 'رقم الطالب', 'السجل المدني / الإقامة', 'National ID', 'Student ID', 'ID'],
  grade: ['الصف', 'Grade'],
  classroom: ['الفصل', 'رقم الفصل', 'Class', 'Classroom'],
} as const

const reportCardsLayout: LayoutSpec = {
  name: 'report-cards',
  table: { columns: reportCardColumns, titleLabels: reportCardTitleLabels },
  lacks: (table) => [
    ...(table.title.student ? [] : ['student']),
    ...(table.title.grade ? [] : ['grade']),
    ...(table.title.classroom || table.title.grade?.includes('/') ? [] : ['classroom']),
  ],
}

/** Noor's class aggregate (توزيع أعداد الطلاب على مستويات الأداء): students per band for each subject. */
export const bandSummaryColumns = {
  subject: { headers: ['المادة', 'المواد الدراسية', 'Subject'], required: true },
  excellent: { headers: ['ممتاز', 'Excellent'], required: true },
  veryGood: { headers: ['جيد جدا', 'Very good'], required: true },
  good: { headers: ['جيد', 'Good'], required: true },
  acceptable: { headers: ['مقبول', 'Acceptable'], required: true },
  weak: { headers: ['ضعيف', 'Weak'], required: true },
} as const satisfies Record<string, ColumnSpec>

const bandSummaryLayout: LayoutSpec = {
  name: 'band-summary',
  table: {
    columns: bandSummaryColumns,
    titleLabels: { grade: ['الصف', 'Grade'], classroom: ['الفصل', 'رقم الفصل', 'Class', 'Classroom'] },
  },
  lacks: (table) => [...(table.title.grade ? [] : ['grade']), ...(table.title.classroom ? [] : ['classroom'])],
}

/** The layouts a grades file may be in, the sample's first. */
export const gradesLayouts: readonly LayoutSpec[] = [rowsLayout, reportCardsLayout, bandSummaryLayout]

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

/** What was recognised in the file, shown first on the report. */
export interface GradesRecognised {
  readonly layout: Extract<LayoutName, 'grades-rows' | 'report-cards' | 'band-summary'>
  readonly sheets: number
  readonly sheetsSkipped: number
  readonly classrooms: number
  /** Null for a band summary, which names no student. */
  readonly students: number | null
  readonly gradeCodes?: readonly string[]
  /** Report cards without a maximum: the maximum assumed for each subject (60 or 100). */
  readonly assumedMaxima?: Readonly<Record<string, number>>
}

/** Everything the report is computed from: recomputeGrades(records, bands) gives the report again. */
export interface GradeRecords {
  /** In order of first appearance. */
  readonly subjects: readonly SubjectRecords[]
  readonly skipped: readonly SkippedRow[]
  readonly recognised?: GradesRecognised
  /** A band summary's counts (then `subjects` is empty): the report is these counts. */
  readonly bandSubjects?: readonly BandSubjectReport[]
}

/** The records in a grades analysis' row when its students are entries. */
export type GradesEntriesRecords = Omit<GradeRecords, 'subjects'> & {
  readonly entries: 'students'
  readonly subjects: ReadonlyArray<{ readonly subject: string; readonly max: number; readonly students: number }>
}

/** A band's count and its share of the group's students (two decimals). */
export interface BandCount {
  readonly key: string
  readonly count: number
  readonly percentage: number | null
}

/** A subject of a band summary: students per band, overall and per classroom; no scores. */
export interface BandSubjectReport {
  readonly subject: string
  readonly summary: { readonly students: number; readonly bands: readonly BandCount[] }
  readonly byClassroom: ReadonlyArray<{
    readonly grade: string
    readonly classroom: string
    readonly students: number
    readonly bands: readonly BandCount[]
  }>
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
  readonly recognised?: GradesRecognised
  readonly bands: readonly GradeBand[]
  readonly subjects: readonly SubjectReport[]
  /** A band summary's subjects (then `subjects` is empty): counts per band, no scores. */
  readonly bandSubjects?: readonly BandSubjectReport[]
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
  const plain = normalizeText(text)
    .replace(/\u066B/g, '.')
    .replace(/\u2212/g, '-')
    .replace(/ /g, '')
  return numberForm.test(plain) ? keepDecimals(Number(plain)) : null
}

function keepDecimals(value: number): number {
  return decimalPlaces(value) > maxScoreDecimals ? roundHalfAway(value, maxScoreDecimals) : value || 0
}

/** A score or max cell as docs/grades.md reads it: decimals with `.` or `٫`, Arabic-Indic digits, absent markers. */
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
  /** Whether any row gave the subject's maximum (report cards may give none). */
  hasMax: boolean
  /** The max of the first scored row; the subject's other scored rows must have the same. */
  max: number | null
  /** The max when every row is absent: the first absent row's, else the title's, else 100. */
  readonly fallbackMax: number
  readonly students: GradeRecord[]
  /** Student → the row that gave their result (a second row is a duplicate). */
  readonly rowOfStudent: Map<string, number>
}

function skip(sheet: string | null, row: number, key: string, values?: MessageRef['values']): SkippedRow {
  return { ...(sheet !== null && { sheet }), row, reason: values ? { key: `grades.skip.${key}`, values } : { key: `grades.skip.${key}` } }
}

const shown = (value: CellValue | undefined) => cleanText(cellText(value))

/** A score cell as read, or null when it is skipped (unreadable, or negative) with its reason. */
function checkedScore(cell: CellValue | undefined, sheet: string | null, row: number, skipped: SkippedRow[]): number | 'absent' | null {
  const score = readScore(cell)
  if (score === null) skipped.push(skip(sheet, row, 'unreadableScore', { value: shown(cell) }))
  else if (score !== 'absent' && score < 0) skipped.push(skip(sheet, row, 'negativeScore', { value: shown(cell) }))
  else return score
  return null
}

/** The subjects being read, by normalised name, and the rows skipped. */
class SubjectBook {
  readonly subjects = new Map<string, SubjectEntry>()
  readonly skipped: SkippedRow[] = []
  readonly students = new Set<string>()
  readonly classrooms = new Set<Classroom>()

  /**
   * One student's score in a subject, checked (docs/grades.md, "Cell values"): a score above its
   * maximum, a maximum other than the subject's, or a second score of the student is skipped.
   */
  add(
    sheet: string | null,
    row: number,
    subjectText: string,
    score: number | 'absent',
    max: number | null,
    fallbackMax: number | null,
    student: { name: string; studentId: string | null; studentKey: string; classroom: Classroom },
  ): void {
    const subjectKey = normalizeLabel(subjectText)
    let subject = this.subjects.get(subjectKey)
    if (score !== 'absent' && max !== null) {
      if (score > max) {
        this.skipped.push(skip(sheet, row, 'scoreAboveMax', { value: score, max }))
        return
      }
      if (subject?.max != null && subject.max !== max) {
        this.skipped.push(skip(sheet, row, 'otherMax', { value: max, max: subject.max }))
        return
      }
    }
    const firstRow = subject?.rowOfStudent.get(student.studentKey)
    if (firstRow !== undefined) {
      this.skipped.push(skip(sheet, row, 'duplicate', { firstRow }))
      return
    }
    if (!subject) {
      subject = {
        label: cleanText(subjectText),
        max: null,
        fallbackMax: max ?? fallbackMax ?? defaultMaxScore,
        students: [],
        rowOfStudent: new Map(),
        hasMax: false,
      }
      this.subjects.set(subjectKey, subject)
    }
    if (score !== 'absent' && max !== null) subject.max ??= max
    if (max !== null) subject.hasMax = true
    subject.rowOfStudent.set(student.studentKey, row)
    subject.students.push(record(student.name, student.studentId, student.classroom, score === 'absent' ? null : score))
    this.students.add(student.studentKey)
    this.classrooms.add(student.classroom)
  }

  records(recognised: Omit<GradesRecognised, 'classrooms' | 'students'>, assume: boolean): GradeRecords {
    const assumed: Record<string, number> = {}
    const subjects = [...this.subjects.values()].map(({ label, max, fallbackMax, students, hasMax }) => {
      if (!assume || hasMax) return { subject: label, max: max ?? fallbackMax, students }
      // No maximum anywhere: out of 60 when no score passes 60, else out of 100 (docs/noor-layouts.md).
      const highest = Math.max(0, ...students.map((s) => s.score ?? 0))
      const guessed = highest <= assumedLowMax ? assumedLowMax : defaultMaxScore
      assumed[label] = guessed
      return { subject: label, max: guessed, students }
    })
    return {
      subjects,
      skipped: this.skipped,
      recognised: {
        ...recognised,
        classrooms: this.classrooms.size,
        students: this.students.size,
        ...(Object.keys(assumed).length > 0 && { assumedMaxima: assumed }),
      },
    }
  }
}

/** The lower maximum a report card without maxima may have (middle-school subjects out of 60). */
export const assumedLowMax = 60

/** Reads the sample's rows (one score per row) of every sheet into records. */
function readRows(tables: readonly SheetTable[], book: SubjectBook, codes: Set<string>): number {
  const roster = new Roster()
  let dataRows = 0
  for (const { sheet, table } of tables) {
    const { columns, title } = table
    dataRows += table.rows.length
    const scoreAt = columns.score as number
    const subjectAt = columns.subject
    const maxAt = columns.max
    const sheetRoster = new Roster({
      student: columns.student as number,
      grade: columns.grade,
      classroom: columns.classroom,
      studentId: columns.studentId,
    })
    const defaults = { grade: title.grade, classroom: title.classroom }
    const titleSubject = title.subject ?? noSubject
    const titleMax = title.max

    for (const { row, cells } of table.rows) {
      const placed = sheetRoster.place(cells, defaults)
      if (typeof placed === 'string') {
        book.skipped.push(skip(sheet, row, placed))
        continue
      }
      const score = checkedScore(cells[scoreAt], sheet, row, book.skipped)
      if (score === null) continue
      // The row's max: its own cell, else the title block's, else 100.
      const maxCell = maxAt === undefined ? null : cells[maxAt]
      const maxSource: CellValue | undefined = isBlankCell(maxCell) ? (titleMax ?? null) : maxCell
      const max = maxSource === null ? defaultMaxScore : readMax(maxSource)
      if (score !== 'absent' && max === null) {
        book.skipped.push(skip(sheet, row, 'unreadableMax', { value: shown(maxSource) }))
        continue
      }
      const subjectCell = subjectAt === undefined ? null : cells[subjectAt]
      const subjectText = isBlankCell(subjectCell) ? titleSubject : cellText(subjectCell)
      // One classroom object per classroom across sheets.
      const classroom = roster.classroomOf(placed.classroom.grade, placed.classroom.classroom)
      book.add(sheet, row, subjectText, score, max, titleMax === undefined ? null : readMax(titleMax), { ...placed, classroom })
    }
    for (const code of sheetRoster.gradeCodes) codes.add(code)
  }
  return dataRows
}

/** Rows of a report card that are not subjects: conduct, attendance, totals, averages, ranks. */
const notSubjects = new Set([
  'السلوك',
  'المواظبه',
  'المواظبة',
  'النشاط',
  'الحضور',
  'الغياب',
  'المجموع',
  'مجموع الدرجات الموزونه',
  'مجموع الدرجات الموزونة',
  'المعدل',
  'التقدير العام',
  'النسبه المئويه',
  'النسبة المئوية',
  'behaviour',
  'behavior',
  'attendance',
  'total',
  'average',
  'percentage',
])
const notSubjectWords = ['غياب', 'تاخر', 'الترتيب', 'مجموع الدرجات', 'المعدل', 'rank']

function subjectName(text: string): string {
  return cleanText(text)
    .replace(/^\*+\s*/, '')
    .replace(/\s*[([][^)\]]*[)\]]\s*/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

function isSubject(name: string): boolean {
  const label = normalizeLabel(name)
  return label !== '' && !notSubjects.has(label) && !notSubjectWords.some((word) => label.includes(word))
}

/** The classroom a sheet's title block names (Noor writes one per sheet); a grade written as a code is noted. */
function sheetClassroom(title: Readonly<Partial<Record<string, string>>>, roster: Roster, codes: Set<string>): Classroom {
  const parsed = readGradeCell(title.grade ?? '')
  if (isGradeCode(parsed.grade)) codes.add(parsed.grade)
  return roster.classroomOf(parsed.grade, title.classroom ?? parsed.classroom ?? '')
}

/** Reads report cards (one sheet per student: the name in the title block, a row per subject). */
function readReportCards(tables: readonly SheetTable[], book: SubjectBook, codes: Set<string>): number {
  const roster = new Roster()
  let dataRows = 0
  for (const { sheet, table } of tables) {
    const { columns, title } = table
    const classroom = sheetClassroom(title, roster, codes)
    const name = cleanText(title.student as string)
    const studentId = readStudentId(title.studentId ?? null)
    const student = { name, studentId, studentKey: studentKeyOf(name, studentId, classroom), classroom }
    const scoreAt = columns.score as number
    const maxAt = columns.max
    for (const { row, cells } of table.rows) {
      const subjectText = subjectName(cellText(cells[columns.subject as number]))
      if (!isSubject(subjectText)) continue
      dataRows++
      const score = checkedScore(cells[scoreAt], sheet, row, book.skipped)
      if (score === null) continue
      const maxCell = maxAt === undefined ? null : cells[maxAt]
      const max = isBlankCell(maxCell) ? null : readMax(maxCell)
      if (!isBlankCell(maxCell) && max === null) {
        book.skipped.push(skip(sheet, row, 'unreadableMax', { value: shown(maxCell) }))
        continue
      }
      book.add(sheet, row, subjectText, score, max, null, student)
    }
  }
  return dataRows
}

const bandKeys = ['excellent', 'veryGood', 'good', 'acceptable', 'weak'] as const

/** Reads band summaries (one classroom per sheet: students per band for each subject). */
function readBandSummary(
  tables: readonly SheetTable[],
  skipped: SkippedRow[],
  codes: Set<string>,
): { subjects: BandSubjectReport[]; classrooms: number; dataRows: number } {
  const roster = new Roster()
  const subjects = new Map<string, { label: string; byClassroom: Map<Classroom, number[]>; rowOf: Map<Classroom, number> }>()
  const classrooms = new Set<Classroom>()
  let dataRows = 0
  for (const { sheet, table } of tables) {
    const { columns, title } = table
    const classroom = sheetClassroom(title, roster, codes)
    for (const { row, cells } of table.rows) {
      const subjectText = subjectName(cellText(cells[columns.subject as number]))
      if (!isSubject(subjectText)) continue
      dataRows++
      const counts = bandKeys.map((key) => {
        const reading = readScore(cells[columns[key] as number])
        return reading === 'absent' ? 0 : reading
      })
      if (counts.some((count) => count === null || !Number.isInteger(count) || (count as number) < 0)) {
        skipped.push(skip(sheet, row, 'unreadableCount', { value: counts.map((c) => c ?? '?').join(' · ') }))
        continue
      }
      const key = normalizeLabel(subjectText)
      let subject = subjects.get(key)
      if (!subject) {
        subject = { label: subjectText, byClassroom: new Map(), rowOf: new Map() }
        subjects.set(key, subject)
      }
      const firstRow = subject.rowOf.get(classroom)
      if (firstRow !== undefined) {
        skipped.push(skip(sheet, row, 'duplicate', { firstRow }))
        continue
      }
      subject.byClassroom.set(classroom, counts as number[])
      subject.rowOf.set(classroom, row)
      classrooms.add(classroom)
    }
  }
  const bandsOf = (counts: readonly number[]) => {
    const students = counts.reduce((a, b) => a + b, 0)
    // A subject nobody in the classroom took (every count 0) has counts but no shares.
    return {
      students,
      bands: bandKeys.map((key, i) => ({
        key,
        count: counts[i] as number,
        percentage: students === 0 ? null : percent(counts[i] as number, students),
      })),
    }
  }
  return {
    subjects: [...subjects.values()].map(({ label, byClassroom }) => {
      const total = bandKeys.map((_, i) => [...byClassroom.values()].reduce((sum, counts) => sum + (counts[i] as number), 0))
      return {
        subject: label,
        summary: bandsOf(total),
        byClassroom: [...byClassroom.keys()]
          .sort(compareClassrooms)
          .map((c) => ({ grade: c.grade, classroom: c.classroom, ...bandsOf(byClassroom.get(c) as number[]) })),
      }
    }),
    classrooms: classrooms.size,
    dataRows,
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
    byClassroom: [...classrooms.keys()].sort(compareClassrooms).map((classroom) => ({
      grade: classroom.grade,
      classroom: classroom.classroom,
      ...scoreFigures(classrooms.get(classroom) as ScoreGroup, subjectScale),
    })),
  }
}

/**
 * The report of stored records with the given bands (a preset's name, or the teacher's own: see
 * parseBands), without the workbook: the page changes the band thresholds this way. Invalid
 * bands are a DomainError (400) with the reason's key. A band summary's counts stand as they are.
 */
export function recomputeGrades(records: GradeRecords, bands?: readonly GradeBand[] | BandPresetName): GradesReport {
  const resolved = resolveBands(records.bandSubjects ? undefined : bands)
  const roster = new Roster()
  return {
    ...(records.recognised && { recognised: records.recognised }),
    bands: resolved.map(({ key, min }) => ({ key, min })),
    subjects: records.subjects.map((subject) => subjectReport(subject, resolved, roster)),
    ...(records.bandSubjects && { bandSubjects: records.bandSubjects }),
    skipped: records.skipped,
  }
}

/** Analyses a file's sheets (or one sheet's rows). Throws AnalysisError when the file is refused. */
export function analyseGrades(input: AnalysisInput, options: AnalyseGradesOptions = {}): GradesAnalysis {
  const bands = resolveBands(options.bands)
  const sheets = sheetsOf(input, options.sheetName)
  const found = recogniseLayout(sheets, gradesLayouts, 'grades')
  const codes = new Set<string>()
  const base = { sheets: found.tables.length, sheetsSkipped: found.sheetsSkipped }
  let records: GradeRecords
  let dataRows: number
  if (found.layout === 'band-summary') {
    const skipped: SkippedRow[] = []
    const read = readBandSummary(found.tables, skipped, codes)
    dataRows = read.dataRows
    records = {
      subjects: [],
      skipped,
      bandSubjects: read.subjects,
      recognised: {
        layout: 'band-summary',
        ...base,
        classrooms: read.classrooms,
        students: null,
        ...(codes.size > 0 && { gradeCodes: [...codes] }),
      },
    }
  } else {
    const book = new SubjectBook()
    const isCards = found.layout === 'report-cards'
    dataRows = isCards ? readReportCards(found.tables, book, codes) : readRows(found.tables, book, codes)
    records = book.records(
      { layout: isCards ? 'report-cards' : 'grades-rows', ...base, ...(codes.size > 0 && { gradeCodes: [...codes] }) },
      isCards,
    )
  }
  if (dataRows === 0) throw new AnalysisError('grades.errors.noDataRows')
  refuseMostlySkipped(records.skipped, dataRows, 'grades')

  const title = found.tables[0]?.table.title ?? {}
  const titleMax = title.max === undefined ? null : readMax(title.max)
  const sheetName = sheets.length === 1 ? (sheets[0]?.name ?? options.sheetName) : found.tables[0]?.sheet
  const school = title.school ?? schoolNameOf(sheets)
  const meta: GradesMeta = {
    ...(school !== undefined && { school }),
    ...(title.subject !== undefined && found.layout === 'grades-rows' && { subject: title.subject }),
    ...(title.exam !== undefined && { exam: title.exam }),
    ...(title.term !== undefined && { term: title.term }),
    ...(titleMax !== null && { maxScore: titleMax }),
    ...(sheetName != null && { sheetName }),
  }
  return { meta, report: recomputeGrades(records, bands), records }
}
