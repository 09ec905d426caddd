import type { SheetGrid, WorkbookGrid } from '#app/platform/workbook-reading/grid.ts'
import type { SheetRow } from '#app/platform/xlsx/types.ts'
import { AnalysisError } from './analysis-error.ts'
import { isScientificId } from './data-rows.ts'
import { defaultHeaderWithin, HeaderWords, locateTable, readTitle, type LocatedTable, type TableSpec } from './table.ts'

/**
 * Which of a tool's layouts a file is written in (docs/noor-layouts.md): every layout looks for
 * its table on every sheet, by header words; the layout that finds its table on the most sheets
 * reads the file (the first registered on a tie), and the sheets it does not find a table on
 * (a cover, "School Info", a statistics sheet) are skipped and counted. A file no layout reads
 * is refused with what was looked for and the closest table found.
 */

export type LayoutName = 'absence-daily' | 'absence-totals' | 'grades-rows' | 'report-cards' | 'band-summary'

export interface LayoutSpec<K extends string = string, L extends string = string> {
  readonly name: LayoutName
  readonly table: TableSpec<K, L>
  /**
   * What a found table still lacks, from its columns and its title block together (a grade
   * column or a grade in the title; a report card's student name): columns by key.
   */
  readonly lacks?: (table: LocatedTable<K, L>) => readonly string[]
  /** Columns not required in the header row (the title block may give them) but named when no table is found at all. */
  readonly named?: readonly K[]
}

/** Grade and classroom: a column, a grade cell written `X / N`, or the sheet's title block. */
export function lacksGradeOrClassroom(table: LocatedTable<string, string>): string[] {
  const lacking: string[] = []
  if (table.columns.grade === undefined && !table.title.grade) lacking.push('grade')
  if (table.columns.classroom === undefined && !table.title.classroom && table.columns.grade === undefined) lacking.push('classroom')
  return lacking
}

/** A sheet's table, as one layout found it. */
export interface SheetTable<K extends string = string, L extends string = string> {
  /** The sheet's name; null for a CSV file. */
  readonly sheet: string | null
  readonly table: LocatedTable<K, L>
}

export interface RecognisedLayout<K extends string = string, L extends string = string> {
  readonly layout: LayoutName
  readonly tables: readonly SheetTable<K, L>[]
  /** Sheets that hold no table of the layout. */
  readonly sheetsSkipped: number
}

/** The grid of a whole file, or one sheet's rows (the sample layouts' tests, the benches). */
export type AnalysisInput = WorkbookGrid | readonly SheetRow[]

export function sheetsOf(input: AnalysisInput, sheetName?: string): readonly SheetGrid[] {
  return isRows(input) ? [{ name: sheetName ?? null, rows: input, merges: [] }] : input.sheets
}

function isRows(input: AnalysisInput): input is readonly SheetRow[] {
  return Array.isArray(input)
}

interface Closest {
  readonly sheet: string | null
  readonly sheetNumber: number
  readonly row: number
  readonly matched: number
  readonly missing: readonly string[]
}

/**
 * The layout the file is written in and its tables, or the refusal
 * `<namespace>.errors.missingColumns` / `.missingColumnsAt` (the closest header row found:
 * sheet, row and the columns it lacks).
 */
export function recogniseLayout(sheets: readonly SheetGrid[], layouts: readonly LayoutSpec[], namespace: string): RecognisedLayout {
  let best: { layout: LayoutSpec; tables: SheetTable[] } | undefined
  let closest: Closest | undefined
  for (const layout of layouts) {
    const tables: SheetTable[] = []
    sheets.forEach((sheet, index) => {
      const found = locateTable(sheet.rows, layout.table, sheet.merges)
      if (found.found) {
        const lacking = layout.lacks?.(found) ?? []
        if (lacking.length === 0) {
          tables.push({ sheet: sheet.name, table: found })
          return
        }
        if (!closest || Object.keys(found.columns).length > closest.matched)
          closest = {
            sheet: sheet.name,
            sheetNumber: index + 1,
            row: found.headerRow,
            matched: Object.keys(found.columns).length,
            missing: lacking,
          }
        return
      }
      const matched = found.matched?.length ?? 0
      if (found.closestRow !== undefined && (!closest || matched > closest.matched))
        closest = { sheet: sheet.name, sheetNumber: index + 1, row: found.closestRow, matched, missing: found.missing }
    })
    if (tables.length && (!best || tables.length > best.tables.length)) best = { layout, tables }
  }
  if (!best) {
    if (closest)
      throw new AnalysisError(`${namespace}.errors.missingColumnsAt`, {
        values: { sheet: closest.sheet ?? String(closest.sheetNumber), row: closest.row, within: defaultHeaderWithin },
        missingColumns: closest.missing,
      })
    const first = layouts[0]
    const required = first
      ? Object.entries(first.table.columns)
          .filter(([key, spec]) => spec.required || first.named?.includes(key))
          .map(([key]) => key)
      : []
    throw new AnalysisError(`${namespace}.errors.missingColumns`, { values: { within: defaultHeaderWithin }, missingColumns: required })
  }
  return { layout: best.layout.name, tables: best.tables, sheetsSkipped: sheets.length - best.tables.length }
}

/**
 * A refusal for missing columns, told which other tool the file belongs to when another tool's
 * layouts read it (a grades file uploaded to the absence tool, or the other way round), so the
 * teacher is sent there instead of to the sample. Any other error is returned as it is.
 */
export function withOtherTool(
  error: unknown,
  input: AnalysisInput,
  others: readonly Pick<AnalysisKindRecord<string, never, unknown>, 'kind' | 'layouts'>[],
): unknown {
  if (!(error instanceof AnalysisError) || !error.details.missingColumns) return error
  const sheets = sheetsOf(input)
  for (const other of others) {
    try {
      recogniseLayout(sheets, other.layouts, other.kind)
    } catch {
      continue // not this tool's file either
    }
    return new AnalysisError(error.messageKey, { ...error.details, otherTool: other.kind }, error.status === 413 ? 413 : 422)
  }
  return error
}

/** Whether any ID cell of the tables was printed in scientific notation (then no ID tells students apart). */
export function idsInScientificNotation(tables: readonly SheetTable[]): boolean {
  return tables.some(({ table }) => {
    const at = table.columns.studentId
    return at !== undefined && table.rows.some((row) => isScientificId(row.cells[at]))
  })
}

/**
 * A tool that analyses uploads (absence, grades): the layouts it reads and its analysis of a
 * file's grid. Each tool exports its record from its `kind.ts` (pure, so the worker thread can
 * be bundled from it); `worker-tasks.server.ts` runs them, the tool's pages and exports use
 * the rest of its feature.
 */
export interface AnalysisKindRecord<K extends string, Options, Analysis> {
  readonly kind: K
  readonly layouts: readonly LayoutSpec[]
  analyse(grid: WorkbookGrid, options: Options): Analysis
}

const schoolLabels = new HeaderWords({ school: ['اسم المدرسة', 'المدرسة', 'School', 'School name'] }, 'School label')

/**
 * The school's name from any sheet's label and value (a "School Info" sheet Noor puts first, or
 * a title block), for a report whose data sheets do not name it.
 */
export function schoolNameOf(sheets: readonly SheetGrid[]): string | undefined {
  for (const sheet of sheets) {
    const school = readTitle(
      sheet.rows.filter((row) => row.row <= defaultHeaderWithin),
      schoolLabels,
    ).school
    if (school) return school
  }
  return undefined
}
