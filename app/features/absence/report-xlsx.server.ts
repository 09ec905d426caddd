import {
  aboutLines,
  createExportWords,
  skippedSheet,
  summarySheet,
  tableSheet,
  xlsxCells,
  type ExportWords,
} from '#app/features/analyses/index.server.ts'
import { intlLocale, type Lang } from '#app/i18n/config.ts'
import { formatNumber, weekdayName } from '#app/i18n/format.ts'
import type { Translate } from '#app/i18n/translate.ts'
import { writeWorkbook, type XlsxCell, type XlsxSheet } from '#app/platform/xlsx/write.server.ts'
import {
  countTiers,
  defaultTierThresholds,
  hundredths,
  tierKeys,
  tierOf,
  type AbsenceTier,
  type AbsenceTiers,
  type TierThresholds,
} from './tiers.ts'
import { defaultLadder, type LadderStep } from '#app/features/follow-up/index.ts'
import { countSteps, studentStep, type AbsenceSteps, type StepTally } from './steps.ts'
import {
  warningLevelKeys,
  type AbsenceAnalysis,
  type AbsenceMeta,
  type AbsenceReport,
  type Counts,
  type WarningLevel,
} from './analyse-absence.ts'

// The Excel export of an absence analysis (docs/absence.md, "Exports"): one sheet per table of the
// report, in the page's language and direction, counts as integers and every rate as the exact
// fraction of its counts with a percent format (the API's two-decimal rates are for display).
// The words shared with the PDF export (report-pdf.server.ts) are built here too; what every
// analysis's exports share is in the analyses feature.

export interface AbsenceExportOptions {
  readonly lang: Lang
  /** The analysis's title, as the teacher named it. */
  readonly title: string
  readonly createdAt: Date
  readonly analysis: AbsenceAnalysis
  /** The tiers of its students with the teacher's thresholds (countTiers); the default thresholds' when not given. */
  readonly tiers?: AbsenceTiers
  /** The students per follow-up step on the teacher's ladder (countSteps); the standard ladder's when not given. */
  readonly steps?: AbsenceSteps
}

// ---- words shared by both exports ---------------------------------------------------------

/** The shared export words, and the absence analysis's own. */
export interface AbsenceExportWords extends ExportWords {
  readonly weekday: (weekday: number) => string
  readonly warningLevel: (level: WarningLevel) => string
  /** A tier's name; null (no school days) as "no tier". */
  readonly tier: (tier: AbsenceTier | null) => string
  /** What the tiers mean with these thresholds, in one sentence. */
  readonly tiersLead: (thresholds: TierThresholds) => string
  /** A step's name: the teacher's, else its document's; null as "no step". */
  readonly step: (step: Pick<LadderStep, 'name' | 'document'> | null) => string
  /** `From … to …` as the title block wrote it; else the first and last dates of the records. */
  readonly period: (meta: AbsenceMeta, report: AbsenceReport) => string | undefined
}

const wordsByLang: Partial<Record<Lang, AbsenceExportWords>> = {}

export function exportWords(lang: Lang): AbsenceExportWords {
  const cached = wordsByLang[lang]
  if (cached) return cached
  const base = createExportWords(lang, ['absence-report', 'analyses', 'absence', 'followUp'])
  const { t } = base
  const weekdays = Array.from({ length: 7 }, (_, day) => weekdayName(lang, day))
  const calendarDay = new Intl.DateTimeFormat(intlLocale[lang], { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })
  const levels = warningLevelKeys.map((key) => t(key))
  const tierNames = Object.fromEntries(tierKeys.map((key) => [key, t(`absence.tiers.names.${key}`)])) as Record<AbsenceTier, string>
  const threshold = (value: number) => formatNumber(lang, value / 100, { style: 'percent', maximumFractionDigits: 2 })

  const words: AbsenceExportWords = {
    ...base,
    weekday: (day) => weekdays[day] ?? String(day),
    warningLevel: (level) => levels[level] ?? String(level),
    tier: (tier) => (tier === null ? t('absence.tiers.names.none') : tierNames[tier]),
    step: (step) => (step === null ? t('followUp.steps.none') : (step.name ?? t(`followUp.documents.${step.document}`))),
    tiersLead: (thresholds) =>
      t('absence.tiers.lead', {
        atRisk: threshold(thresholds.atRisk),
        chronic: threshold(thresholds.chronic),
        severe: threshold(thresholds.severe),
      }),
    period: (meta, report) => {
      const { from, to } = meta
      if (from && to) return t('analyses.report.periodValue', { from, to })
      if (from || to) return from || to
      const first = report.byDate?.[0]?.date
      const last = report.byDate?.at(-1)?.date
      if (!first || !last) return undefined
      const day = (iso: string) => calendarDay.format(new Date(`${iso}T00:00:00Z`))
      return first === last ? day(first) : t('analyses.report.periodValue', { from: day(first), to: day(last) })
    },
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

const { integer, fraction, header } = xlsxCells

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

function isoDay(iso: string): Date {
  const [year, month, day] = iso.split('-').map(Number)
  return new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1))
}

/** The tier columns' headers: students, then each tier's count and share, then those without a tier. */
export function tierHeaders(words: AbsenceExportWords): string[] {
  const { t } = words
  return [
    t('absence.tiers.students'),
    ...tierKeys.flatMap((key) => [words.tier(key), t('absence.tiers.shareOf', { tier: words.tier(key) })]),
    words.tier(null),
  ]
}

/** The analysis as an .xlsx workbook: summary, one sheet per group, the tiers, the students, the skipped rows. */
export function absenceReportWorkbook({
  lang,
  title,
  createdAt,
  analysis,
  tiers: given,
  steps: givenSteps,
}: AbsenceExportOptions): Uint8Array {
  const words = exportWords(lang)
  const { t } = words
  const { meta, report, students } = analysis
  const tiers = given ?? countTiers(students, report.byClassroom, defaultTierThresholds)
  const steps = givenSteps ?? countSteps(students, report.byClassroom, defaultLadder)
  const stepHeaders = [
    ...steps.ladder.map((step) => t('followUp.steps.stepDays', { name: words.step(step), days: String(step.days) })),
    t('followUp.steps.total'),
  ]
  const stepCells = (g: StepTally): XlsxCell[] => [...g.atStep.map((n) => integer(n)), integer(g.reached)]
  const tierCells = (g: AbsenceTiers['summary']): XlsxCell[] => [
    integer(g.students),
    ...tierKeys.flatMap((key) => [integer(g[key]), fraction(g[key], g.students)]),
    integer(g.noTier),
  ]
  const { summary } = report
  const figures = figureHeaders(t)

  const about = aboutLines(words, createdAt, [
    [t('analyses.report.school'), meta.school],
    [t('analyses.report.period'), words.period(meta, report)],
    [t('analyses.report.term'), meta.term],
  ])
  const keyFigures: XlsxCell[][] = [
    [header(t('absence-report.figures.title')), header(t('analyses.exports.value'))],
    [t('absence-report.figures.records'), integer(summary.records)],
    [t('absence-report.figures.students'), integer(summary.students)],
    [t('absence-report.figures.days'), integer(summary.days)],
    [t('absence-report.tables.present'), integer(summary.present)],
    [t('absence-report.tables.excused'), integer(summary.excused)],
    [t('absence-report.tables.unexcused'), integer(summary.unexcused)],
    [t('absence-report.tables.late'), integer(summary.late)],
    ...(report.periodAbsences ? [[t('absence-report.figures.periodAbsences'), integer(report.periodAbsences)]] : []),
    [t('absence-report.figures.attendance'), fraction(summary.present, summary.records)],
    [t('absence-report.figures.excused'), fraction(summary.excused, summary.records)],
    [t('absence-report.figures.unexcused'), fraction(summary.unexcused, summary.records)],
    [t('absence-report.figures.late'), fraction(summary.late, summary.records)],
  ]

  const { thresholds } = tiers
  const tierFigures: XlsxCell[][] = [
    [header(t('absence.tiers.title')), header(t('analyses.exports.value'))],
    [t('absence.tiers.from', { tier: words.tier('atRisk') }), fraction(hundredths(thresholds.atRisk), 10_000)],
    [t('absence.tiers.from', { tier: words.tier('chronic') }), fraction(hundredths(thresholds.chronic), 10_000)],
    [t('absence.tiers.from', { tier: words.tier('severe') }), fraction(hundredths(thresholds.severe), 10_000)],
    ...tierKeys.map((key) => [words.tier(key), integer(tiers.summary[key])]),
    ...(tiers.summary.noTier > 0 ? [[words.tier(null), integer(tiers.summary.noTier)]] : []),
  ]

  const sheets: XlsxSheet[] = [
    summarySheet(t('absence-report.exports.sheets.summary'), lang, title, about, [keyFigures, tierFigures]),
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
    // A row per classroom and the whole; the thresholds (the teacher's, as of the download) are on the summary.
    tableSheet(
      t('absence-report.exports.sheets.tiers'),
      lang,
      [t('absence.columns.grade'), t('absence-report.tables.classroom'), ...tierHeaders(words)],
      [
        ...tiers.byClassroom.map((g) => [g.grade, g.classroom, ...tierCells(g)]),
        [t('absence.tiers.overall'), '', ...tierCells(tiers.summary)],
      ],
    ),
    // A row per classroom and the whole: the students at each step of the teacher's ladder (as of the download).
    tableSheet(
      t('followUp.steps.title'),
      lang,
      [t('absence.columns.grade'), t('absence-report.tables.classroom'), ...stepHeaders],
      [
        ...steps.byClassroom.map((g) => [g.grade, g.classroom, ...stepCells(g)]),
        [t('followUp.steps.overall'), '', ...stepCells(steps.summary)],
      ],
    ),
    // A totals file (Noor's absence report) has no days: no weekday or date sheets.
    ...(report.byWeekday
      ? [
          tableSheet(
            t('absence-report.exports.sheets.weekdays'),
            lang,
            [t('absence-report.tables.weekday'), ...figures],
            report.byWeekday.map((g) => [words.weekday(g.weekday), ...figureCells(g)]),
          ),
        ]
      : []),
    ...(report.byDate
      ? [
          tableSheet(
            t('absence-report.exports.sheets.dates'),
            lang,
            [t('absence-report.tables.date'), t('absence-report.tables.hijri'), t('absence-report.tables.weekday'), ...figures],
            report.byDate.map((g) => {
              const day = isoDay(g.date)
              return [day, g.hijri, words.weekday(day.getUTCDay()), ...figureCells(g)]
            }),
          ),
        ]
      : []),
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
        t('absence.tiers.tier'),
        t('followUp.steps.step'),
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
        words.tier(tierOf(s, tiers.thresholds)),
        words.step(studentStep(s.unexcused, steps.ladder)),
      ]),
    ),
    skippedSheet(t('absence-report.exports.sheets.skipped'), words, report.skipped),
  ]

  return writeWorkbook({ sheets, created: createdAt })
}
