import { formatPercent } from '#app/i18n/format.ts'
import { renderPdf } from '#app/server/pdf.server.ts'
import { defaultWarningThresholds, type Counts, type StudentFigures } from './analyse-absence.ts'
import { exportWords, figureHeaders, type AbsenceExportOptions, type ExportWords } from './report-xlsx.server.ts'

// The PDF export of an absence analysis (absence.md, "Exports"): the report for print, A4, in the
// page's language and direction, typeset by the project's one renderer (typst, see
// docs/decisions/004-pdf-renderer.md). Every word and figure is formatted here and reaches the
// document as one JSON input, so nothing from the workbook is ever read as typst markup; the
// template only lays it out and draws the charts.

export interface AbsenceReportPdfOptions extends AbsenceExportOptions {
  /** Unexcused days from which warning levels 1, 2 and 3 apply, as the analysis used them (the lead of the warnings table). */
  readonly warningThresholds?: readonly [number, number, number]
}

/** Skipped rows listed in the PDF; the workbook lists them all. */
export const pdfSkippedRowLimit = 200

type Tone = 'present' | 'excused' | 'unexcused' | 'late'
type BarRow = { label: string; value: string; segments: { tone: Tone; value: number }[] }
type Table = { title: string; headers: string[]; labels: number; rows: string[][] }
type LinePanel = {
  title: string
  series: { label: string; tone: Tone; values: number[] }[]
  min: number
  max: number
  ticks: number[]
  tickLabels: string[]
}

const segmentsOf = ({ records, present, excused, unexcused }: Counts): BarRow['segments'] =>
  records > 0
    ? [
        { tone: 'present', value: present / records },
        { tone: 'excused', value: excused / records },
        { tone: 'unexcused', value: unexcused / records },
      ]
    : []

function figureRow(words: ExportWords, g: Counts): string[] {
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

function warningRows(words: ExportWords, students: readonly StudentFigures[]): string[][] {
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
    ])
}

function reportData({ lang, title, createdAt, analysis, warningThresholds = defaultWarningThresholds }: AbsenceReportPdfOptions) {
  const words = exportWords(lang)
  const { t } = words
  const { meta, report, students } = analysis
  const { summary } = report
  const percentLabel = (value: number) => formatPercent(lang, value / 100, 0)

  const analysed = words.analysedOn(createdAt)
  const period = words.period(meta, report)
  const about = [
    ...(period ? [{ label: t('analyses.report.period'), lines: [period] }] : []),
    ...(meta.term ? [{ label: t('analyses.report.term'), lines: [meta.term] }] : []),
    { label: t('analyses.list.columns.created'), lines: [analysed.gregorian, analysed.hijri] },
  ]

  const legend = (['present', 'excused', 'unexcused'] as const).map((tone) => ({ tone, label: t(`absence-report.series.${tone}`) }))
  const bars = (chartTitle: string, groups: readonly (Counts & { label: string })[]) => ({
    title: chartTitle,
    rows: groups.map((g): BarRow => ({ label: g.label, value: words.rate(g.present, g.records), segments: segmentsOf(g) })),
  })
  const classroomLabel = (g: { grade: string; classroom: string }) => `${g.grade} / ${g.classroom}`
  const weekdayGroups = report.byWeekday.map((g) => ({ ...g, label: words.weekday(g.weekday) }))

  // Over the dates: attendance on its own axis (it sits near 100), the two absence rates on theirs.
  const ratesOf = (key: 'present' | 'excused' | 'unexcused') => report.byDate.map((g) => (g.records > 0 ? (100 * g[key]) / g.records : 0))
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
  const every = Math.max(1, Math.ceil(report.byDate.length / 8))
  const dateLabels = report.byDate.flatMap((g, i) => (i % every === 0 ? [[i, `${g.date.slice(8, 10)}/${g.date.slice(5, 7)}`] as const] : []))

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
      rows: report.byDate.map((g) => [g.date, g.hijri, words.weekday(new Date(`${g.date}T00:00:00Z`).getUTCDay()), ...figureRow(words, g)]),
    },
  ]

  const [first, second, third] = warningThresholds
  const skippedShown = report.skipped.slice(0, pdfSkippedRowLimit)
  return {
    lang,
    dir: lang === 'ar' ? 'rtl' : 'ltr',
    title,
    school: meta.school ?? null,
    about,
    words: {
      page: t('absence-report.exports.page'),
      madeWith: t('absence-report.exports.madeWith'),
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
      bars(t('absence-report.charts.byClassroom'), report.byClassroom.map((g) => ({ ...g, label: classroomLabel(g) }))),
      bars(t('absence-report.charts.bySection'), report.bySection.map((g) => ({ ...g, label: g.section }))),
      bars(t('absence-report.charts.bySystem'), report.bySystem.map((g) => ({ ...g, label: g.system }))),
      bars(t('absence-report.charts.byWeekday'), weekdayGroups),
    ],
    dates: {
      title: t('absence-report.charts.byDate'),
      count: report.byDate.length,
      labels: dateLabels,
      panels: [
        panel(t('absence-report.exports.attendanceByDate'), attendanceAxis, [{ label: t('absence-report.series.present'), tone: 'present', values: attendance }]),
        panel(t('absence-report.exports.absenceByDate'), absenceAxis, [
          { label: t('absence-report.series.excused'), tone: 'excused', values: excused },
          { label: t('absence-report.series.unexcused'), tone: 'unexcused', values: unexcused },
        ]),
      ],
    },
    tables,
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
      ],
      rows: warningRows(words, students),
    },
    skipped: {
      title: t('analyses.report.skipped', { count: report.skipped.length }),
      lead: t('analyses.report.skippedLead'),
      none: t('analyses.report.noSkipped'),
      note:
        report.skipped.length > skippedShown.length
          ? t('absence-report.exports.skippedShown', { count: report.skipped.length, shown: skippedShown.length })
          : null,
      headers: [t('analyses.report.row'), t('analyses.report.reason')],
      // Row numbers as Excel shows them: no grouping.
      rows: skippedShown.map((s) => [String(s.row), words.skipReason(s.reason)]),
    },
  }
}

// The layout only. Directions: with `text(dir: rtl)` typst lays grids, tables and stacks from
// the right, so bars grow from the inline start and columns read right to left without any
// mirroring here; only the date chart, drawn with absolute positions, computes its x from the
// direction (time runs right to left in Arabic, as on the page).
const template = String.raw`
#let d = json(bytes(sys.inputs.report))
#let is-rtl = d.dir == "rtl"
#let inline-dir = if is-rtl { rtl } else { ltr }
#let brand = rgb("#0f5d52")
#let brand-soft = rgb("#e3f1ee")
#let rule = rgb("#d6dedc")
#let zebra = rgb("#f6f9f8")
#let ink = rgb("#1b2725")
#let muted = rgb("#4d5b58")
#let track = rgb("#eef2f1")
#let tones = (present: rgb("#1f7a5c"), excused: rgb("#c98a0b"), unexcused: rgb("#b42318"), late: rgb("#5b8def"))

// Amiri draws smaller than Plex at the same size: an Arabic page is set a step larger, and the
// Latin letters and digits inside it a step smaller again, so figures match the English page.
#set text(size: if is-rtl { 10.5pt } else { 9pt }, fill: ink, lang: d.lang, dir: inline-dir)
#set par(leading: if is-rtl { 0.7em } else { 0.55em }, spacing: 0.8em)
#show: body => if is-rtl {
  show regex("[\u{21}-\u{7E}]+"): set text(size: 0.86em)
  body
} else {
  show regex("[\u{600}-\u{6FF}\u{750}-\u{77F}\u{FB50}-\u{FDFF}\u{FE70}-\u{FEFF}]+"): set text(size: 1.16em)
  body
}

#let page-label() = {
  let current = str(here().page())
  let total = str(counter(page).final().first())
  d.words.page.replace("{page}", current).replace("{pages}", total)
}

#set page(paper: "a4", margin: (x: 14mm, top: 14mm, bottom: 18mm), footer: context {
  set text(size: 0.78em, fill: muted)
  line(length: 100%, stroke: 0.5pt + rule)
  v(-1.5mm)
  grid(columns: (1fr, auto), align: (start + horizon, end + horizon), column-gutter: 6mm,
    d.words.madeWith + " · " + d.title, page-label())
})

#let section(title) = block(sticky: true, above: 7mm, below: 3mm, {
  text(size: 1.3em, weight: "bold", fill: brand, title)
  v(-2.2mm)
  line(length: 100%, stroke: 0.8pt + brand)
})
#let subhead(title) = block(sticky: true, above: 5mm, below: 2mm, text(size: 1.05em, weight: "bold", title))

// ---- header ---------------------------------------------------------------------------------
#block(width: 100%, fill: brand, radius: 4pt, inset: (x: 6mm, y: 5mm), {
  // Lines spaced by the fonts' full height: Amiri's marks reach far above and below the Latin
  // line, and a school's name above the title would otherwise touch it.
  set text(fill: white, top-edge: "bounds", bottom-edge: "bounds")
  set par(leading: 0.55em)
  if d.school != none { text(size: 1.15em, weight: "bold", d.school); linebreak() }
  text(size: 1.75em, weight: "bold", d.title)
  v(2.5mm)
  grid(columns: d.about.len(), column-gutter: 9mm, row-gutter: 1.2mm,
    ..d.about.map(a => text(size: 0.88em, fill: brand-soft, a.label)),
    ..d.about.map(a => text(weight: "bold", a.lines.join(linebreak()))))
})

// ---- key figures ----------------------------------------------------------------------------
#section(d.words.figures)
#grid(columns: (1fr,) * d.rates.len(), column-gutter: 3mm,
  ..d.rates.map(f => block(width: 100%, fill: brand-soft, radius: 3pt, inset: (x: 3mm, y: 2.6mm),
    stroke: (top: 2.5pt + tones.at(f.tone)), {
      text(size: 0.85em, fill: muted, f.label)
      linebreak()
      text(size: 1.9em, weight: "bold", fill: tones.at(f.tone), f.value)
    })))
#v(2.5mm)
#grid(columns: (1fr,) * d.counts.len(), column-gutter: 3mm,
  ..d.counts.map(f => block(width: 100%, stroke: 0.6pt + rule, radius: 3pt, inset: (x: 3mm, y: 2.2mm),
    grid(columns: (1fr, auto), align: (start + horizon, end + horizon),
      text(size: 0.9em, fill: muted, f.label), text(size: 1.3em, weight: "bold", f.value)))))

// ---- charts ---------------------------------------------------------------------------------
#let legend(items) = block(below: 2.5mm, {
  set text(size: 0.85em)
  items.map(it => box({
    box(width: 3mm, height: 3mm, radius: 0.6mm, fill: tones.at(it.tone), baseline: 0.4mm)
    h(1.4mm)
    it.label
  })).join(h(6mm))
})

#let bar(segments, height: 3.8mm) = box(width: 100%, height: height, radius: 1mm, clip: true, fill: track,
  stack(dir: inline-dir, ..segments.filter(s => s.value > 0).map(s => box(width: s.value * 100%, height: 100%, fill: tones.at(s.tone)))))

#let bar-chart(c) = block(breakable: c.rows.len() > 12, width: 100%, above: 5mm, {
  block(sticky: true, below: 2.8mm, text(weight: "bold", c.title))
  legend(d.legend)
  grid(columns: (40mm, 1fr, 15mm), column-gutter: 3mm, row-gutter: 2mm,
    align: (start + horizon, horizon, end + horizon),
    ..c.rows.map(r => (text(size: 0.9em, r.label), bar(r.segments), text(weight: "bold", r.value))).flatten())
})

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

#section(d.words.charts)
#block(width: 100%, {
  legend(d.legend)
  bar(d.overall.segments, height: 5mm)
})
#for c in d.barCharts { bar-chart(c) }
#if d.dates.count > 0 {
  subhead(d.dates.title)
  for p in d.dates.panels { line-panel(p, d.dates.count, d.dates.labels) }
}

// ---- tables ---------------------------------------------------------------------------------
#let data-table(headers, rows, labels: 1, widths: none) = {
  set text(size: 0.86em)
  table(
    // Figures share the width evenly (their headers wrap); a group's name gets a wider share,
    // dates and weekdays their own width.
    columns: if widths != none { widths } else if labels == 1 { (1.8fr,) + (1fr,) * (headers.len() - 1) } else {
      (auto,) * labels + (1fr,) * (headers.len() - labels)
    },
    align: (x, y) => if x < labels { start + horizon } else { center + horizon },
    inset: (x: 1.5mm, y: 1.3mm),
    stroke: (x, y) => (bottom: 0.4pt + rule),
    fill: (x, y) => if y == 0 { brand-soft } else if calc.even(y) { zebra } else { none },
    table.header(..headers.map(h => text(weight: "bold", fill: brand, h))),
    ..rows.flatten(),
  )
}

#section(d.words.tables)
#for tb in d.tables {
  subhead(tb.title)
  data-table(tb.headers, tb.rows, labels: tb.labels)
}

#section(d.warnings.title)
#block(sticky: true, text(fill: muted, d.warnings.lead))
#if d.warnings.rows.len() == 0 {
  par(d.warnings.none)
} else {
  data-table(d.warnings.headers, d.warnings.rows, labels: 2, widths: (1.6fr, 1fr, auto, auto, auto))
}

#section(d.skipped.title)
#if d.skipped.rows.len() == 0 {
  par(d.skipped.none)
} else {
  block(sticky: true, text(fill: muted, d.skipped.lead))
  if d.skipped.note != none { block(sticky: true, text(fill: muted, d.skipped.note)) }
  data-table(d.skipped.headers, d.skipped.rows, labels: 2, widths: (auto, 1fr))
}

// Last: a set rule at the top whose value changes per document would stop typst from reusing layout.
#set document(title: d.title)
`

/** The analysis's report as an A4 PDF in the page's language and direction. */
export async function renderAbsenceReportPdf(options: AbsenceReportPdfOptions): Promise<Uint8Array> {
  const report = JSON.stringify(reportData(options))
  // Rendering is synchronous and CPU-bound; let the event loop turn first so the previous
  // render's native memory is released (see createPdfRenderer).
  await new Promise<void>((resolve) => setImmediate(resolve))
  return renderPdf(template, { inputs: { report } })
}
