import { pdfReportBase, pdfSkipped, renderReportPdf, type PdfBarRow } from '#app/features/analyses/index.server.ts'
import { formatPercent } from '#app/i18n/format.ts'
import { defaultWarningThresholds, type Counts, type StudentFigures } from './analyse-absence.ts'
import { exportWords, figureHeaders, type AbsenceExportOptions, type AbsenceExportWords } from './report-xlsx.server.ts'
import { defaultLadder, type LadderStep } from '#app/features/follow-up/index.ts'
import { countSteps, studentStep, type StepTally } from './steps.ts'
import { countTiers, defaultTierThresholds, tierKeys, tierOf, type AbsenceTier, type TierTally } from './tiers.ts'

// The PDF export of an absence analysis (docs/absence.md, "Exports"): the report for print, A4, in the
// page's language and direction, typeset with the analyses' PDF kit (header, figure boxes,
// stacked bars, tables, skipped rows, page X of Y). Every word and figure is formatted here and
// reaches the document as one JSON input; the body below only lays it out and draws the date chart.

export interface AbsenceReportPdfOptions extends AbsenceExportOptions {
  /** Unexcused days from which warning levels 1, 2 and 3 apply, as the analysis used them (the lead of the warnings table). */
  readonly warningThresholds?: readonly [number, number, number]
  /** The teacher who prepared it, as the sign-off prints her (her full name in the report's language). */
  readonly preparedBy?: string | null
}

export { pdfSkippedRowLimit } from '#app/features/analyses/index.server.ts'

const tones = {
  present: '#1f7a5c',
  excused: '#c98a0b',
  unexcused: '#b42318',
  late: '#5b8def',
  // The tiers, from green to red (the page's tier colours).
  satisfactory: '#1f7a5c',
  atRisk: '#c98a0b',
  chronic: '#c4501b',
  severe: '#8f1d14',
} as const

type Tone = keyof typeof tones
type Table = { title: string; headers: string[]; labels: number; rows: string[][] }
type LinePanel = {
  title: string
  series: { label: string; tone: Tone; values: number[] }[]
  min: number
  max: number
  ticks: number[]
  tickLabels: string[]
}

const segmentsOf = ({ records, present, excused, unexcused }: Counts): { tone: Tone; value: number }[] =>
  records > 0
    ? [
        { tone: 'present', value: present / records },
        { tone: 'excused', value: excused / records },
        { tone: 'unexcused', value: unexcused / records },
      ]
    : []

function figureRow(words: AbsenceExportWords, g: Counts): string[] {
  const { records, present, excused, unexcused, late } = g
  return [
    words.integer(records),
    words.integer(present),
    words.integer(excused),
    words.integer(unexcused),
    words.integer(late),
    words.rate(present, records),
    words.rate(excused, records),
    words.rate(unexcused, records),
    words.rate(late, records),
  ]
}

/** An axis from `low` to `high` in at most five round steps. */
function niceAxis(low: number, high: number, fixed: { min?: number; max?: number }): { min: number; max: number; ticks: number[] } {
  const span = Math.max(high - low, 1)
  const step = [1, 2, 5, 10, 20, 25, 50].find((s) => span / s <= 4) ?? 50
  const min = fixed.min ?? Math.max(0, Math.floor(low / step) * step)
  let max = fixed.max ?? Math.min(100, Math.ceil(high / step) * step)
  if (max <= min) max = Math.min(100, min + step)
  const ticks: number[] = []
  for (let v = min; v <= max + 1e-9; v += step) ticks.push(v)
  if (ticks.at(-1) !== max) ticks.push(max)
  return { min, max, ticks }
}

/** The warned students, each with the step the teacher's ladder places them on (one list, so a long analysis stays short). */
function warningRows(words: AbsenceExportWords, students: readonly StudentFigures[], ladder: readonly LadderStep[]): string[][] {
  return students
    .filter((s) => s.warningLevel > 0)
    .map((s, index) => ({ s, index }))
    .sort((a, b) => b.s.warningLevel - a.s.warningLevel || b.s.unexcused - a.s.unexcused || a.index - b.index)
    .map(({ s }) => [
      s.name,
      `${s.grade} / ${s.classroom}`,
      words.integer(s.unexcused),
      words.rate(s.excused + s.unexcused, s.records),
      words.warningLevel(s.warningLevel),
      words.step(studentStep(s.unexcused, ladder)),
    ])
}

const tierRank: Record<AbsenceTier, number> = { satisfactory: 0, atRisk: 1, chronic: 2, severe: 3 }

/** The students at risk or worse, the worst tier first, then the most days missed (name order kept within). */
function tierRows(
  words: AbsenceExportWords,
  students: readonly StudentFigures[],
  tierOfStudent: (s: StudentFigures) => AbsenceTier | null,
): string[][] {
  return students
    .map((s, index) => ({ s, index, tier: tierOfStudent(s) }))
    .filter((row): row is { s: StudentFigures; index: number; tier: AbsenceTier } => row.tier !== null && row.tier !== 'satisfactory')
    .sort((a, b) => tierRank[b.tier] - tierRank[a.tier] || b.s.excused + b.s.unexcused - (a.s.excused + a.s.unexcused) || a.index - b.index)
    .map(({ s, tier }) => [
      s.name,
      `${s.grade} / ${s.classroom}`,
      words.integer(s.excused + s.unexcused),
      words.integer(s.records),
      words.rate(s.excused + s.unexcused, s.records),
      words.tier(tier),
    ])
}

function reportData({
  lang,
  title,
  createdAt,
  analysis,
  tiers: given,
  steps: givenSteps,
  warningThresholds = defaultWarningThresholds,
  preparedBy,
}: AbsenceReportPdfOptions) {
  const words = exportWords(lang)
  const { t } = words
  const { meta, report, students } = analysis
  const tiers = given ?? countTiers(students, report.byClassroom, defaultTierThresholds)
  const tierSegments = (g: TierTally) => (g.students > 0 ? tierKeys.map((tone) => ({ tone, value: g[tone] / g.students })) : [])
  const tierCounts = (g: TierTally) => [
    words.integer(g.students),
    ...tierKeys.map((key) => `${words.integer(g[key])} (${words.rate(g[key], g.students)})`),
  ]
  const hasNoTier = tiers.summary.noTier > 0
  const steps = givenSteps ?? countSteps(students, report.byClassroom, defaultLadder)
  const stepCounts = (g: StepTally) => [...g.atStep.map((n) => words.integer(n)), words.integer(g.reached)]
  const { summary } = report
  const percentLabel = (value: number) => formatPercent(lang, value / 100, 0)

  const period = words.period(meta, report)
  const about = [
    ...(period ? [{ label: t('analyses.report.period'), lines: [period] }] : []),
    ...(meta.term ? [{ label: t('analyses.report.term'), lines: [meta.term] }] : []),
  ]

  const legend = (['present', 'excused', 'unexcused'] as const).map((tone) => ({ tone, label: t(`absence-report.series.${tone}`) }))
  const bars = (chartTitle: string, groups: readonly (Counts & { label: string })[]) => ({
    title: chartTitle,
    rows: groups.map((g): PdfBarRow => ({ label: g.label, value: words.rate(g.present, g.records), segments: segmentsOf(g) })),
  })
  const classroomLabel = (g: { grade: string; classroom: string }) => `${g.grade} / ${g.classroom}`
  // A totals file (Noor's absence report) has no days: its PDF has no weekday or date figures.
  const byDate = report.byDate ?? []
  const weekdayGroups = (report.byWeekday ?? []).map((g) => ({ ...g, label: words.weekday(g.weekday) }))

  // Over the dates: attendance on its own axis (it sits near 100), the two absence rates on theirs.
  const ratesOf = (key: 'present' | 'excused' | 'unexcused') => byDate.map((g) => (g.records > 0 ? (100 * g[key]) / g.records : 0))
  const attendance = ratesOf('present')
  const excused = ratesOf('excused')
  const unexcused = ratesOf('unexcused')
  const attendanceAxis = niceAxis(Math.min(100, ...attendance), 100, { max: 100 })
  const absenceAxis = niceAxis(0, Math.max(0, ...excused, ...unexcused), { min: 0 })
  const panel = (panelTitle: string, axis: ReturnType<typeof niceAxis>, series: LinePanel['series']): LinePanel => ({
    title: panelTitle,
    series,
    ...axis,
    tickLabels: axis.ticks.map(percentLabel),
  })
  const every = Math.max(1, Math.ceil(byDate.length / 8))
  const dateLabels = byDate.flatMap((g, i) => (i % every === 0 ? [[i, `${g.date.slice(8, 10)}/${g.date.slice(5, 7)}`] as const] : []))

  const headers = figureHeaders(t)
  const tables: Table[] = [
    {
      title: t('absence-report.tables.byClassroom'),
      headers: [t('absence-report.tables.classroom'), ...headers],
      labels: 1,
      rows: report.byClassroom.map((g) => [classroomLabel(g), ...figureRow(words, g)]),
    },
    {
      title: t('absence-report.tables.bySection'),
      headers: [t('absence-report.tables.section'), ...headers],
      labels: 1,
      rows: report.bySection.map((g) => [g.section, ...figureRow(words, g)]),
    },
    {
      title: t('absence-report.tables.bySystem'),
      headers: [t('absence-report.tables.system'), ...headers],
      labels: 1,
      rows: report.bySystem.map((g) => [g.system, ...figureRow(words, g)]),
    },
    {
      title: t('absence-report.tables.byWeekday'),
      headers: [t('absence-report.tables.weekday'), ...headers],
      labels: 1,
      rows: weekdayGroups.map((g) => [g.label, ...figureRow(words, g)]),
    },
    {
      title: t('absence-report.tables.byDate'),
      headers: [t('absence-report.tables.date'), t('absence-report.tables.hijri'), t('absence-report.tables.weekday'), ...headers],
      labels: 3,
      rows: byDate.map((g) => [g.date, g.hijri, words.weekday(new Date(`${g.date}T00:00:00Z`).getUTCDay()), ...figureRow(words, g)]),
    },
  ].filter((table) => table.rows.length > 0)

  const [first, second, third] = warningThresholds
  return {
    ...pdfReportBase(words, { kind: 'absence', title, school: meta.school, createdAt, about, tones, preparedBy }),
    headings: {
      figures: t('absence-report.figures.title'),
      charts: t('absence-report.charts.overall'),
      tables: t('absence-report.tables.title'),
    },
    rates: [
      { label: t('absence-report.figures.attendance'), value: words.rate(summary.present, summary.records), tone: 'present' },
      { label: t('absence-report.figures.excused'), value: words.rate(summary.excused, summary.records), tone: 'excused' },
      { label: t('absence-report.figures.unexcused'), value: words.rate(summary.unexcused, summary.records), tone: 'unexcused' },
      { label: t('absence-report.figures.late'), value: words.rate(summary.late, summary.records), tone: 'late' },
    ],
    counts: [
      { label: t('absence-report.figures.students'), value: words.integer(summary.students) },
      { label: t('absence-report.figures.days'), value: words.integer(summary.days) },
      { label: t('absence-report.figures.records'), value: words.integer(summary.records) },
    ],
    overall: { label: t('absence-report.charts.overall'), segments: segmentsOf(summary) },
    legend,
    barCharts: [
      bars(
        t('absence-report.charts.byClassroom'),
        report.byClassroom.map((g) => ({ ...g, label: classroomLabel(g) })),
      ),
      bars(
        t('absence-report.charts.bySection'),
        report.bySection.map((g) => ({ ...g, label: g.section })),
      ),
      bars(
        t('absence-report.charts.bySystem'),
        report.bySystem.map((g) => ({ ...g, label: g.system })),
      ),
      bars(t('absence-report.charts.byWeekday'), weekdayGroups),
    ].filter((chart) => chart.rows.length > 0),
    dates: {
      title: t('absence-report.charts.byDate'),
      count: byDate.length,
      labels: dateLabels,
      panels: [
        panel(t('absence-report.exports.attendanceByDate'), attendanceAxis, [
          { label: t('absence-report.series.present'), tone: 'present', values: attendance },
        ]),
        panel(t('absence-report.exports.absenceByDate'), absenceAxis, [
          { label: t('absence-report.series.excused'), tone: 'excused', values: excused },
          { label: t('absence-report.series.unexcused'), tone: 'unexcused', values: unexcused },
        ]),
      ],
    },
    tables,
    tiers: {
      title: t('absence.tiers.title'),
      lead: words.tiersLead(tiers.thresholds),
      legend: tierKeys.map((tone) => ({ tone, label: words.tier(tone) })),
      chart: {
        title: t('absence.tiers.byClassroom'),
        note: t('absence.tiers.chartNote'),
        rows: tiers.byClassroom.map((g): PdfBarRow => ({
          label: classroomLabel(g),
          value: words.rate(g.satisfactory, g.students),
          segments: tierSegments(g),
        })),
      },
      table: {
        title: t('absence.tiers.byClassroom'),
        headers: [
          t('absence-report.tables.classroom'),
          t('absence.tiers.students'),
          ...tierKeys.map((key) => words.tier(key)),
          ...(hasNoTier ? [words.tier(null)] : []),
        ],
        rows: [...tiers.byClassroom, { ...tiers.summary, grade: '', classroom: '' }].map((g, i) => [
          i === tiers.byClassroom.length ? t('absence.tiers.overall') : classroomLabel(g),
          ...tierCounts(g),
          ...(hasNoTier ? [words.integer(g.noTier)] : []),
        ]),
        strong: [tiers.byClassroom.length],
      },
      students: {
        title: t('absence.tiers.studentsTitle'),
        none: t('absence.tiers.studentsNone'),
        headers: [
          t('absence-report.warnings.student'),
          t('absence-report.warnings.classroom'),
          t('absence.tiers.missed'),
          t('absence-report.search.records'),
          t('absence-report.warnings.absenceRate'),
          t('absence.tiers.tier'),
        ],
        rows: tierRows(words, students, (s) => tierOf(s, tiers.thresholds)),
      },
    },
    steps: {
      title: t('followUp.steps.title'),
      lead: t('followUp.steps.lead', {
        steps: new Intl.ListFormat(lang, { type: 'conjunction' }).format(
          steps.ladder.map((step) => t('followUp.steps.stepDays', { name: words.step(step), days: words.integer(step.days) })),
        ),
      }),
      table: {
        title: t('followUp.steps.byClassroom'),
        headers: [t('followUp.steps.classroom'), ...steps.ladder.map((step) => words.step(step)), t('followUp.steps.total')],
        rows: [...steps.byClassroom, { ...steps.summary, grade: '', classroom: '' }].map((g, i) => [
          i === steps.byClassroom.length ? t('followUp.steps.overall') : classroomLabel(g),
          ...stepCounts(g),
        ]),
        strong: [steps.byClassroom.length],
      },
    },
    warnings: {
      title: t('absence-report.warnings.title'),
      lead: t('absence-report.warnings.lead', { first, second, third }),
      none: t('absence-report.warnings.none'),
      headers: [
        t('absence-report.warnings.student'),
        t('absence-report.warnings.classroom'),
        t('absence-report.warnings.unexcused'),
        t('absence-report.warnings.absenceRate'),
        t('absence-report.warnings.level'),
        t('followUp.steps.step'),
      ],
      rows: warningRows(words, students, steps.ladder),
    },
    skipped: pdfSkipped(words, report.skipped),
  }
}

// The body after the analyses' PDF kit (which reads `d` and draws the header, boxes, bars and
// tables). Only the date chart, drawn with absolute positions, computes its x from the
// direction: time runs right to left in Arabic, as on the page.
const body = String.raw`
#report-header()

#section(d.headings.figures)
#figure-boxes(d.rates)
#v(2.5mm)
#count-boxes(d.counts)

#let line-panel(p, count, labels) = block(breakable: false, width: 100%, above: 4mm, {
  block(below: 2.8mm, text(weight: "bold", p.title))
  legend(p.series)
  let h = 32mm
  let axis-w = 12mm
  layout(size => {
    let w = size.width - axis-w
    let x(i) = {
      let along = (i + 0.5) / calc.max(count, 1) * w
      if is-rtl { w - along } else { axis-w + along }
    }
    // Room above the plot for the top tick's label.
    let pad = 2.5mm
    let y(v) = pad + h - (calc.min(calc.max(v, p.min), p.max) - p.min) / (p.max - p.min) * h
    box(width: size.width, height: pad + h + 6mm, {
      for (t, label) in p.ticks.zip(p.tickLabels) {
        place(top + left, dx: if is-rtl { 0pt } else { axis-w }, dy: y(t), line(length: w, stroke: 0.4pt + rule))
        place(top + left, dx: if is-rtl { w + 1.5mm } else { 0pt }, dy: y(t) - 1.7mm,
          box(width: axis-w - 1.5mm, align(if is-rtl { left } else { right }, text(size: 7pt, fill: muted, label))))
      }
      for s in p.series {
        let points = s.values.enumerate().map(((i, v)) => (x(i), y(v)))
        if points.len() > 1 {
          place(top + left, curve(stroke: (paint: tones.at(s.tone), thickness: 1.4pt, join: "round"),
            curve.move(points.first()), ..points.slice(1).map(pt => curve.line(pt))))
        }
        if count <= 40 {
          for pt in points { place(top + left, dx: pt.at(0) - 0.8mm, dy: pt.at(1) - 0.8mm, circle(radius: 0.8mm, fill: tones.at(s.tone))) }
        }
      }
      for (i, label) in labels {
        place(top + left, dx: x(i) - 8mm, dy: pad + h + 1.3mm, box(width: 16mm, align(center, text(size: 7pt, fill: muted, label))))
      }
    })
  })
})

#section(d.headings.charts)
#block(width: 100%, {
  legend(d.legend)
  bar(d.overall.segments, height: 5mm)
})
#for c in d.barCharts { bar-chart(c, d.legend) }
#if d.dates.count > 0 {
  subhead(d.dates.title)
  for p in d.dates.panels { line-panel(p, d.dates.count, d.dates.labels) }
}

#section(d.headings.tables)
#for tb in d.tables {
  subhead(tb.title)
  data-table(tb.headers, tb.rows, labels: tb.labels)
}

#section(d.tiers.title)
#lead(d.tiers.lead)
#bar-chart(d.tiers.chart, d.tiers.legend)
#subhead(d.tiers.table.title)
#data-table(d.tiers.table.headers, d.tiers.table.rows, strong: d.tiers.table.strong)
#subhead(d.tiers.students.title)
#if d.tiers.students.rows.len() == 0 {
  par(d.tiers.students.none)
} else {
  data-table(d.tiers.students.headers, d.tiers.students.rows, labels: 2, widths: (1.6fr, 1fr, auto, auto, auto, auto))
}

#section(d.steps.title)
#lead(d.steps.lead)
#subhead(d.steps.table.title)
#data-table(d.steps.table.headers, d.steps.table.rows, strong: d.steps.table.strong)

#section(d.warnings.title)
#lead(d.warnings.lead)
#if d.warnings.rows.len() == 0 {
  par(d.warnings.none)
} else {
  data-table(d.warnings.headers, d.warnings.rows, labels: 2, widths: (1.6fr, 1fr, auto, auto, auto, 1.1fr))
}

#sign-off()

#skipped-section(d.skipped)
`

/** The analysis's report as an A4 PDF in the page's language and direction. */
export async function renderAbsenceReportPdf(options: AbsenceReportPdfOptions): Promise<Uint8Array> {
  return renderReportPdf(body, reportData(options))
}
