import type { CellValue, SheetRow } from '#app/server/xlsx/types.ts'
import { AnalysisError, type SkippedRow } from './analysis-error.ts'
import { cleanText, normalizeLabel, normalizeName, normalizeText } from './normalize.ts'
import { cellText, isBlankCell, locateTable, type LocatedTable, type TableSpec } from './table.ts'

/**
 * What every analysis does with the sample's data rows (absence.md, "Table" and "Cell values"):
 * find the table or refuse the file, place each row's student in a classroom, and refuse the
 * file when more than half of its rows were skipped. Message keys live in each analysis's
 * namespace (`absence.errors.missingColumns`, `grades.skip.noName`…).
 */

/** How many skip reasons a refusal carries. */
export const refusalReasonLimit = 20

/** The sample's table in the rows, or the refusal: `<namespace>.errors.missingColumns` (naming the columns) or `.noDataRows`. */
export function requireTable<K extends string, L extends string>(rows: readonly SheetRow[], spec: TableSpec<K, L>, namespace: string): LocatedTable<K, L> {
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
  /** Null when the sheet has no ID column or the row's ID cell is empty. */
  readonly studentId: string | null
  /**
   * Who the student is: the ID when there is one, else the normalised name with grade and
   * classroom (two rows with equal keys are the same student).
   */
  readonly studentKey: string
  readonly classroom: Classroom
}

export interface StudentColumns {
  readonly student: number
  readonly grade: number
  readonly classroom: number
  readonly studentId?: number | undefined
}

/**
 * Places rows: the student's name, ID and identity, and the classroom. Classrooms are compared
 * on normalised text and labelled as first written, so `٢` and `2` are one classroom.
 */
export class Roster {
  private readonly grades = new Map<string, { readonly label: string; readonly classrooms: Map<string, Classroom> }>()

  constructor(private readonly columns: StudentColumns = { student: 0, grade: 1, classroom: 2 }) {}

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
  place(cells: readonly CellValue[]): PlacedStudent | PlacementProblem {
    const { columns } = this
    const nameCell = cells[columns.student]
    if (isBlankCell(nameCell)) return 'noName'
    const gradeCell = cells[columns.grade]
    if (isBlankCell(gradeCell)) return 'noGrade'
    const classroomCell = cells[columns.classroom]
    if (isBlankCell(classroomCell)) return 'noClassroom'
    const nameText = cellText(nameCell)
    const classroom = this.classroomOf(cellText(gradeCell), cellText(classroomCell))
    const idCell = columns.studentId === undefined ? null : cells[columns.studentId]
    const studentId = isBlankCell(idCell) ? null : normalizeText(cellText(idCell))
    return {
      name: cleanText(nameText),
      studentId,
      studentKey: studentKeyOf(nameText, studentId, classroom),
      classroom,
    }
  }
}

/** The identity of a student (see PlacedStudent.studentKey), also for records read back from storage. */
export function studentKeyOf(name: string, studentId: string | null, classroom: Classroom): string {
  return studentId === null
    ? `n\u0001${normalizeName(name)}\u0001${normalizeLabel(classroom.grade)}\u0001${normalizeLabel(classroom.classroom)}`
    : `i\u0001${studentId}`
}
