import type { CellValue, SheetRow } from '#app/platform/xlsx/types.ts'
import { AnalysisError, type SkippedRow } from './analysis-error.ts'
import { cleanText, normalizeLabel, normalizeName, normalizeText } from './normalize.ts'
import { cellText, isBlankCell, locateTable, type LocatedTable, type TableSpec } from './table.ts'

/**
 * What every analysis does with the sample's data rows (docs/absence.md, "Table" and "Cell values"):
 * find the table or refuse the file, place each row's student in a classroom, and refuse the
 * file when more than half of its rows were skipped. Message keys live in each analysis's
 * namespace (`absence.errors.missingColumns`, `grades.skip.noName`…).
 */

/** How many skip reasons a refusal carries. */
export const refusalReasonLimit = 20

/** The sample's table in the rows, or the refusal: `<namespace>.errors.missingColumns` (naming the columns) or `.noDataRows`. */
export function requireTable<K extends string, L extends string>(
  rows: readonly SheetRow[],
  spec: TableSpec<K, L>,
  namespace: string,
): LocatedTable<K, L> {
  const table = locateTable(rows, spec)
  if (!table.found) throw new AnalysisError(`${namespace}.errors.missingColumns`, { missingColumns: table.missing })
  if (table.rows.length === 0) throw new AnalysisError(`${namespace}.errors.noDataRows`)
  return table
}

/** Refuses the file (`<namespace>.errors.tooManySkipped`, with the first reasons) when more than half of its data rows were skipped. */
export function refuseMostlySkipped(skipped: readonly SkippedRow[], dataRows: number, namespace: string): void {
  if (skipped.length * 2 > dataRows)
    throw new AnalysisError(`${namespace}.errors.tooManySkipped`, {
      values: { skipped: skipped.length, rows: dataRows },
      skipped: skipped.slice(0, refusalReasonLimit),
    })
}

/** A classroom: grade + classroom, each as first written in the sheet. One object per classroom, so it can key a Map. */
export interface Classroom {
  readonly grade: string
  readonly classroom: string
}

/** Why a row cannot be placed: a key under `<namespace>.skip`. */
export type PlacementProblem = 'noName' | 'noGrade' | 'noClassroom'

export interface PlacedStudent {
  /** The name as displayed (cleanText of this row's cell). */
  readonly name: string
  /** Null when the sheet has no ID column, the row's ID cell is empty, or the file's IDs are ignored. */
  readonly studentId: string | null
  /**
   * Who the student is: the ID when there is one, else the normalised name with grade and
   * classroom (two rows with equal keys are the same student).
   */
  readonly studentKey: string
  readonly classroom: Classroom
  /** The section written after the grade (`الأول الثانوي_السنة المشتركة`), when it is. */
  readonly section?: string
}

export interface StudentColumns {
  readonly student: number
  /** Absent when the grade comes from the sheet's title block. */
  readonly grade?: number | undefined
  /** Absent when the classroom comes from the grade cell (`X / N`) or the sheet's title block. */
  readonly classroom?: number | undefined
  readonly studentId?: number | undefined
}

/** What a sheet's title block says for all its rows (Noor writes one classroom per sheet). */
export interface SheetDefaults {
  readonly grade?: string | undefined
  readonly classroom?: string | undefined
}

/** A grade cell as Noor writes it: `X_Y` is grade X in section Y, `X / N` is grade X, classroom N. */
export interface GradeCell {
  readonly grade: string
  readonly section?: string
  readonly classroom?: string
}

const gradeWithClassroom = /^(.*\D)\s*\/\s*(\d{1,3})$/

export function readGradeCell(text: string): GradeCell {
  const cleaned = cleanText(text)
  const underscore = cleaned.indexOf('_')
  if (underscore > 0) {
    const section = cleaned
      .slice(underscore + 1)
      .replace(/_+/g, ' ')
      .trim()
    const grade = cleaned.slice(0, underscore).trim()
    return section ? { grade, section } : { grade }
  }
  const split = gradeWithClassroom.exec(cleaned)
  if (split && /[^\d\s]/.test(split[1] ?? '')) return { grade: (split[1] as string).trim(), classroom: split[2] as string }
  return { grade: cleaned }
}

/** A grade written as Noor's code (`1314`, `1416`) rather than in words. */
export const isGradeCode = (grade: string) => /^\d{3,5}$/.test(grade)

const scientific = /^[+-]?\d+(?:\.\d+)?e[+-]?\d+$/i

/** An ID as compared: Latin digits, no `.0` a number format added; null when blank. */
export function readStudentId(value: CellValue | undefined): string | null {
  if (isBlankCell(value)) return null
  const text = normalizeText(cellText(value))
  return text.replace(/^(\d+)\.0+$/, '$1')
}

/** Whether an ID cell lost its digits to scientific notation (`1.10002E+09`): such IDs tell no one apart. */
export function isScientificId(value: CellValue | undefined): boolean {
  return typeof value === 'string' && scientific.test(normalizeText(value).replace(/ /g, ''))
}

export interface RosterOptions {
  /** Leave every ID out (the file's IDs were printed in scientific notation). */
  readonly ignoreIds?: boolean
}

/**
 * Places rows: the student's name, ID and identity, and the classroom. Classrooms are compared
 * on normalised text and labelled as first written, so `٢` and `2` are one classroom.
 */
export class Roster {
  private readonly grades = new Map<string, { readonly label: string; readonly classrooms: Map<string, Classroom> }>()
  /** Grades written as codes, as written (listed once in the report). */
  readonly gradeCodes = new Set<string>()

  constructor(
    private readonly columns: StudentColumns = { student: 0, grade: 1, classroom: 2 },
    private readonly options: RosterOptions = {},
  ) {}

  /** The one Classroom object of a grade and a classroom written this way or an equivalent one. */
  classroomOf(gradeText: string, classroomText: string): Classroom {
    const gradeKey = normalizeLabel(gradeText)
    let grade = this.grades.get(gradeKey)
    if (!grade) {
      grade = { label: cleanText(gradeText), classrooms: new Map() }
      this.grades.set(gradeKey, grade)
    }
    const classroomKey = normalizeLabel(classroomText)
    let classroom = grade.classrooms.get(classroomKey)
    if (!classroom) {
      classroom = { grade: grade.label, classroom: cleanText(classroomText) }
      grade.classrooms.set(classroomKey, classroom)
    }
    return classroom
  }

  /** The row's student and classroom, or why they cannot be read (no name, grade or classroom). */
  place(cells: readonly CellValue[], defaults: SheetDefaults = {}): PlacedStudent | PlacementProblem {
    const { columns } = this
    const nameCell = cells[columns.student]
    if (isBlankCell(nameCell)) return 'noName'
    const gradeCell = columns.grade === undefined ? null : cells[columns.grade]
    const gradeText = isBlankCell(gradeCell) ? defaults.grade : cellText(gradeCell)
    if (gradeText === undefined || gradeText.trim() === '') return 'noGrade'
    const parsed = readGradeCell(gradeText)
    const classroomCell = columns.classroom === undefined ? null : cells[columns.classroom]
    const classroomText = isBlankCell(classroomCell) ? (parsed.classroom ?? defaults.classroom) : cellText(classroomCell)
    if (classroomText === undefined || classroomText.trim() === '') return 'noClassroom'
    if (isGradeCode(parsed.grade)) this.gradeCodes.add(parsed.grade)
    const nameText = cellText(nameCell)
    const classroom = this.classroomOf(parsed.grade, classroomText)
    const idCell = columns.studentId === undefined || this.options.ignoreIds ? null : cells[columns.studentId]
    const studentId = readStudentId(idCell)
    return {
      name: cleanText(nameText),
      studentId,
      studentKey: studentKeyOf(nameText, studentId, classroom),
      classroom,
      ...(parsed.section !== undefined && { section: parsed.section }),
    }
  }
}

/** The identity of a student (see PlacedStudent.studentKey), also for records read back from storage. */
export function studentKeyOf(name: string, studentId: string | null, classroom: Classroom): string {
  return studentId === null
    ? `n\u0001${normalizeName(name)}\u0001${normalizeLabel(classroom.grade)}\u0001${normalizeLabel(classroom.classroom)}`
    : `i\u0001${studentId}`
}
