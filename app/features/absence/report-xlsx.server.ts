import { percent, type MessageRef } from '#app/features/analyses/index.ts'
import { hijriLocale, intlLocale, type Lang } from '#app/i18n/config.ts'
import { formatNumber, formatPercent, weekdayName } from '#app/i18n/format.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { createTranslator, lookup, type Messages, type Translate } from '#app/i18n/translate.ts'
import { writeWorkbook, type XlsxCell, type XlsxColumn, type XlsxSheet } from '#app/server/xlsx/write.server.ts'
import { warningLevelKeys, type AbsenceAnalysis, type AbsenceMeta, type AbsenceReport, type Counts, type WarningLevel } from './analyse-absence.ts'

// The Excel export of an absence analysis (absence.md, "Exports"): one sheet per table of the
// report, in the page's language and direction, counts as integers and every rate as the exact
// fraction of its counts with a percent format (the API's two-decimal rates are for display).
// The words shared with the PDF export (report-pdf.server.ts) are built here too.

export interface AbsenceExportOptions {
  readonly lang: Lang
  /** The analysis's title, as the teacher named it. */
  readonly title: string
  readonly createdAt: Date
  readonly analysis: AbsenceAnalysis
}

// ---- words shared by both exports ---------------------------------------------------------

const timeZone = 'Asia/Riyadh'

/** The translator of an export: every key must exist, so a missing word fails loudly instead of printing its key. */
export interface ExportWords {
  readonly lang: Lang
  readonly t: Translate
  readonly weekday: (weekday: number) => string
  readonly warningLevel: (level: WarningLevel) => string
  readonly skipReason: (reason: MessageRef) => string
  /** The day an analysis was made, Gregorian and Umm al-Qura, in Riyadh. */
  readonly analysedOn: (createdAt: Date) => { gregorian: string; hijri: string }
  /** `From … to …` as the title block wrote it; else the first and last dates of the records. */
  readonly period: (meta: AbsenceMeta, report: AbsenceReport) => string | undefined
  readonly integer: (value: number) => string
  /** part/whole as a percentage with one decimal, rounded half away from zero from the exact counts. */
  readonly rate: (part: number, whole: number) => string
}

const wordsByLang: Partial<Record<Lang, ExportWords>> = {}

export function exportWords(lang: Lang): ExportWords {
  const cached = wordsByLang[lang]
  if (cached) return cached
  const messages: Messages = getMessages(lang, ['absence-report', 'analyses', 'absence'])
  const translator = createTranslator(lang, messages)
  const t: Translate = (key, vars) => {
    if (typeof lookup(messages, key) !== 'string') throw new Error(`Missing ${lang} message ${key}`)
    return translator.t(key, vars)
  }
  const weekdays = Array.from({ length: 7 }, (_, day) => weekdayName(lang, day))
  const dayOptions = { day: 'numeric', month: 'long', year: 'numeric' } as const
  const gregorian = new Intl.DateTimeFormat(intlLocale[lang], { ...dayOptions, timeZone })
  const hijri = new Intl.DateTimeFormat(hijriLocale[lang], { ...dayOptions, timeZone })
  const calendarDay = new Intl.DateTimeFormat(intlLocale[lang], { ...dayOptions, timeZone: 'UTC' })
  const levels = warningLevelKeys.map((key) => t(key))

  const skipReason = (reason: MessageRef): string => {
    // Reasons come from the analysis, not from this code: an unknown key prints as itself.
    const template = lookup(messages, reason.key)
    let text = translator.t(reason.key, reason.values)
    // The short reasons leave out what the analysis knows (the cell's text, the first row of a
    // duplicate): add it, so the reader can find the cell.
    for (const [name, value] of Object.entries(reason.values ?? {})) {
      if (typeof template === 'string' && template.includes(`{${name}}`)) continue
      if (name === 'firstRow') text = t('absence-report.exports.reasonFirstRow', { reason: text, firstRow: String(value) })
      else if (String(value).trim() !== '') text = t('absence-report.exports.reasonValue', { reason: text, value: String(value) })
    }
    return text
  }

  const words: ExportWords = {
    lang,
    t,
    weekday: (day) => weekdays[day] ?? String(day),
    warningLevel: (level) => levels[level] ?? String(level),
    skipReason,
    analysedOn: (createdAt) => ({ gregorian: gregorian.format(createdAt), hijri: hijri.format(createdAt) }),
    period: (meta, report) => {
      const { from, to } = meta
      if (from && to) return t('analyses.report.periodValue', { from, to })
      if (from || to) return from || to
      const first = report.byDate[0]?.date
      const last = report.byDate.at(-1)?.date
      if (!first || !last) return undefined
      const day = (iso: string) => calendarDay.format(new Date(`${iso}T00:00:00Z`))
      return first === last ? day(first) : t('analyses.report.periodValue', { from: day(first), to: day(last) })
    },
    integer: (value) => formatNumber(lang, value),
    rate: (part, whole) => (whole > 0 ? formatPercent(lang, percent(part, whole, 1) / 100, 1) : '–'),
  }
  wordsByLang[lang] = words
  return words
}

/** The column headers of a group's counts and rates, in the order the exports print them. */
export function figureHeaders(t: Translate): string[] {
  return [
    t('absence-report.tables.records'),
    t('absence-report.tables.present'),
    t('absence-report.tables.excused'),
    t('absence-report.tables.unexcused'),
    t('absence-report.tables.late'),
    t('absence-report.tables.attendanceRate'),
    t('absence-report.tables.excusedRate'),
    t('absence-report.tables.unexcusedRate'),
    t('absence-report.tables.lateRate'),
  ]
}

// ---- the workbook -------------------------------------------------------------------------

const integer = (value: number): XlsxCell => ({ value, style: 'integer' })
/** The exact fraction, shown as a percentage with two decimals. */
const fraction = (part: number, whole: number): XlsxCell => ({ value: whole > 0 ? part / whole : null, style: 'percent' })
const header = (value: string): XlsxCell => ({ value, style: 'header' })

function figureCells(group: Counts): XlsxCell[] {
  const { records, present, excused, unexcused, late } = group
  return [
    integer(records),
    integer(present),
    integer(excused),
    integer(unexcused),
    integer(late),
    fraction(present, records),
    fraction(excused, records),
    fraction(unexcused, records),
    fraction(late, records),
  ]
}

/** Widths from the longest text of each column (headers wrap, so they count for less). */
function columnWidths(rows: readonly (readonly XlsxCell[])[], headerRows: number): XlsxColumn[] {
  const widths: number[] = []
  rows.forEach((row, r) => {
    row.forEach((cell, c) => {
      const value = cell !== null && typeof cell === 'object' && 'value' in cell ? cell.value : cell
      let length: number
      if (typeof value === 'string') length = Math.max(...value.split('\n').map((line) => [...line].length))
      else if (typeof value === 'number') length = cell !== null && typeof cell === 'object' && 'style' in cell && cell.style === 'percent' ? 8 : String(value).length + 2
      else if (value instanceof Date) length = 11
      else length = 0
      if (r < headerRows) length = Math.min(length, 16)
      widths[c] = Math.max(widths[c] ?? 0, length)
    })
  })
  return widths.map((w) => ({ width: Math.min(50, Math.max(9, w + 3)) }))
}

function tableSheet(name: string, lang: Lang, headers: readonly string[], body: readonly XlsxCell[][]): XlsxSheet {
  const rows = [headers.map(header), ...body]
  return { name, rightToLeft: lang === 'ar', rows, freezeRows: 1, columns: columnWidths(rows, 1) }
}

function isoDay(iso: string): Date {
  const [year, month, day] = iso.split('-').map(Number)
  return new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1))
}

/** The analysis as an .xlsx workbook: summary, one sheet per group, the students, the skipped rows. */
export function absenceReportWorkbook({ lang, title, createdAt, analysis }: AbsenceExportOptions): Uint8Array {
  const words = exportWords(lang)
  const { t } = words
  const { meta, report, students } = analysis
  const { summary } = report
  const isRtl = lang === 'ar'
  const figures = figureHeaders(t)

  const label = (value: string): XlsxCell => ({ value, style: 'bold' })
  const analysed = words.analysedOn(createdAt)
  const period = words.period(meta, report)
  const about: XlsxCell[][] = [
    ...(meta.school ? [[label(t('analyses.report.school')), meta.school]] : []),
    ...(period ? [[label(t('analyses.report.period')), period]] : []),
    ...(meta.term ? [[label(t('analyses.report.term')), meta.term]] : []),
    [label(t('analyses.list.columns.created')), analysed.gregorian, analysed.hijri],
  ]
  const summaryRows: XlsxCell[][] = [
    [{ value: title, style: 'title' }],
    [],
    ...about,
    [],
    [header(t('absence-report.figures.title')), header(t('absence-report.exports.value'))],
    [t('absence-report.figures.records'), integer(summary.records)],
    [t('absence-report.figures.students'), integer(summary.students)],
    [t('absence-report.figures.days'), integer(summary.days)],
    [t('absence-report.tables.present'), integer(summary.present)],
    [t('absence-report.tables.excused'), integer(summary.excused)],
    [t('absence-report.tables.unexcused'), integer(summary.unexcused)],
    [t('absence-report.tables.late'), integer(summary.late)],
    [t('absence-report.figures.attendance'), fraction(summary.present, summary.records)],
    [t('absence-report.figures.excused'), fraction(summary.excused, summary.records)],
    [t('absence-report.figures.unexcused'), fraction(summary.unexcused, summary.records)],
    [t('absence-report.figures.late'), fraction(summary.late, summary.records)],
  ]
  const summaryWidths = columnWidths(summaryRows.slice(2), 0)

  const sheets: XlsxSheet[] = [
    {
      name: t('absence-report.exports.sheets.summary'),
      rightToLeft: isRtl,
      rows: summaryRows,
      // The title spans the label and value columns; its own length does not widen them.
      merges: ['A1:C1'],
      columns: [summaryWidths[0], { width: Math.max(summaryWidths[1]?.width ?? 0, 16) }, summaryWidths[2]],
    },
    tableSheet(
      t('absence-report.exports.sheets.sections'),
      lang,
      [t('absence-report.tables.section'), ...figures],
      report.bySection.map((g) => [g.section, ...figureCells(g)]),
    ),
    tableSheet(
      t('absence-report.exports.sheets.classrooms'),
      lang,
      [t('absence.columns.grade'), t('absence-report.tables.classroom'), ...figures],
      report.byClassroom.map((g) => [g.grade, g.classroom, ...figureCells(g)]),
    ),
    tableSheet(
      t('absence-report.exports.sheets.systems'),
      lang,
      [t('absence-report.tables.system'), ...figures],
      report.bySystem.map((g) => [g.system, ...figureCells(g)]),
    ),
    tableSheet(
      t('absence-report.exports.sheets.weekdays'),
      lang,
      [t('absence-report.tables.weekday'), ...figures],
      report.byWeekday.map((g) => [words.weekday(g.weekday), ...figureCells(g)]),
    ),
    tableSheet(
      t('absence-report.exports.sheets.dates'),
      lang,
      [t('absence-report.tables.date'), t('absence-report.tables.hijri'), t('absence-report.tables.weekday'), ...figures],
      report.byDate.map((g) => {
        const day = isoDay(g.date)
        return [day, g.hijri, words.weekday(day.getUTCDay()), ...figureCells(g)]
      }),
    ),
    tableSheet(
      t('absence-report.exports.sheets.students'),
      lang,
      [
        t('absence.columns.student'),
        t('absence.columns.studentId'),
        t('absence.columns.grade'),
        t('absence-report.tables.classroom'),
        t('absence-report.tables.section'),
        t('absence-report.tables.system'),
        t('absence-report.tables.records'),
        t('absence-report.tables.present'),
        t('absence-report.tables.excused'),
        t('absence-report.tables.unexcused'),
        t('absence-report.tables.late'),
        t('absence-report.warnings.absenceRate'),
        t('absence-report.warnings.level'),
      ],
      students.map((s) => [
        s.name,
        // Text, not a number: a national ID keeps its digits (no 1.1E+09, no lost leading zero).
        s.studentId,
        s.grade,
        s.classroom,
        s.section,
        s.system,
        integer(s.records),
        integer(s.present),
        integer(s.excused),
        integer(s.unexcused),
        integer(s.late),
        fraction(s.excused + s.unexcused, s.records),
        words.warningLevel(s.warningLevel),
      ]),
    ),
    tableSheet(
      t('absence-report.exports.sheets.skipped'),
      lang,
      [t('analyses.report.row'), t('analyses.report.reason')],
      report.skipped.length
        ? report.skipped.map((s) => [s.row, words.skipReason(s.reason)])
        : [[null, t('analyses.report.noSkipped')]],
    ),
  ]

  return writeWorkbook({ sheets, created: createdAt })
}
