import type { Lang } from '#app/i18n/config.ts'
import type { XlsxCell, XlsxColumn, XlsxSheet } from '#app/platform/xlsx/write.server.ts'
import type { SkippedRow } from './analysis-error.ts'
import type { ExportWords } from './export-words.server.ts'

// The pieces every analysis's Excel export is built from: typed cells (counts as integers, rates
// as exact fractions with a percent format), the summary sheet with its title block, table
// sheets with a frozen header row and fitted widths, and the skipped rows.

export const xlsxCells = {
  integer: (value: number): XlsxCell => ({ value, style: 'integer' }),
  /** The exact fraction, shown as a percentage with two decimals; empty for an empty whole. */
  fraction: (part: number, whole: number): XlsxCell => ({ value: whole > 0 ? part / whole : null, style: 'percent' }),
  /** A percentage the analysis gives (93.33 for 93.33 %), as a fraction with the percent format. */
  percentage: (value: number | null): XlsxCell => ({ value: value === null ? null : value / 100, style: 'percent' }),
  /** A number shown with two decimals (averages, deviations); empty for none. */
  decimal: (value: number | null): XlsxCell => ({ value, style: 'decimal2' }),
  header: (value: string): XlsxCell => ({ value, style: 'header' }),
  label: (value: string): XlsxCell => ({ value, style: 'bold' }),
} as const

type StyledCell = Extract<XlsxCell, { readonly value: unknown }>
const isStyled = (cell: XlsxCell): cell is StyledCell => cell !== null && typeof cell === 'object' && 'value' in cell

/** Widths from the longest text of each column (headers wrap, so they count for less). */
export function columnWidths(rows: readonly (readonly XlsxCell[] | undefined)[], headerRows: number): XlsxColumn[] {
  const widths: number[] = []
  rows.forEach((row, r) => {
    row?.forEach((cell, c) => {
      const value = isStyled(cell) ? cell.value : cell
      let length: number
      if (typeof value === 'string') length = Math.max(...value.split('\n').map((line) => [...line].length))
      else if (typeof value === 'number') length = isStyled(cell) && cell.style === 'percent' ? 8 : String(value).length + 2
      else if (value instanceof Date) length = 11
      else length = 0
      if (r < headerRows) length = Math.min(length, 16)
      widths[c] = Math.max(widths[c] ?? 0, length)
    })
  })
  return Array.from(widths, (w = 0) => ({ width: Math.min(50, Math.max(9, w + 3)) }))
}

/** A table on its own sheet: a styled header row that stays in view, then the body. */
export function tableSheet(name: string, lang: Lang, headers: readonly string[], body: readonly (readonly XlsxCell[])[]): XlsxSheet {
  const rows = [headers.map(xlsxCells.header), ...body]
  return { name, rightToLeft: lang === 'ar', rows, freezeRows: 1, columns: columnWidths(rows, 1) }
}

/** One line of a summary's title block: a bold label and its values (`[]` leaves the line out). */
export type AboutLine = readonly [label: string, ...values: string[]]

/** The title block of a summary: the lines whose value is known, then the day of the analysis. */
export function aboutLines(words: ExportWords, createdAt: Date, known: readonly (readonly [string, string | undefined])[]): AboutLine[] {
  const analysed = words.analysedOn(createdAt)
  return [
    ...known.flatMap(([label, value]): AboutLine[] => (value ? [[label, value]] : [])),
    [words.t('analyses.list.columns.created'), analysed.gregorian, analysed.hijri],
  ]
}

/**
 * The first sheet: the title, the title block, then the given blocks (key figures, settings),
 * each after an empty row. The title spans the first three columns without widening them.
 */
export function summarySheet(
  name: string,
  lang: Lang,
  title: string,
  about: readonly AboutLine[],
  blocks: readonly (readonly XlsxCell[][])[],
): XlsxSheet {
  const aboutRows: XlsxCell[][] = about.map(([label, ...values]) => [xlsxCells.label(label), ...values])
  const body: XlsxCell[][] = [...aboutRows, ...blocks.flatMap((block) => [[], ...block])]
  const widths = columnWidths(body, 0)
  return {
    name,
    rightToLeft: lang === 'ar',
    rows: [[{ value: title, style: 'title' }], [], ...body],
    merges: ['A1:C1'],
    columns: widths.map((w, i) => (i === 1 ? { width: Math.max(w.width ?? 0, 16) } : w)),
  }
}

/** Every skipped row with its reason in the page's language; a line saying so when there is none. */
export function skippedSheet(name: string, words: ExportWords, skipped: readonly SkippedRow[]): XlsxSheet {
  const { t } = words
  return tableSheet(
    name,
    words.lang,
    [t('analyses.report.row'), t('analyses.report.reason')],
    skipped.length ? skipped.map((s) => [s.row, words.skipReason(s.reason)]) : [[null, t('analyses.report.noSkipped')]],
  )
}
