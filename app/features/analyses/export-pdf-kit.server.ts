import type { Lang } from '#app/i18n/config.ts'
import { DomainError } from '#app/lib/errors.ts'
import { PdfRenderLimitError, renderOffThread } from '#app/platform/pdf-pool.server.ts'
import type { SkippedRow } from './analysis-error.ts'
import type { ExportWords } from './export-words.server.ts'

// What every analysis's PDF report shares (see docs/decisions/004-pdf-renderer.md): A4 in the
// page's language and direction, the header block, "Page X of Y", sections, figure boxes,
// stacked bars with their legend, tables with repeated headers and the skipped rows. A report
// writes only its own body in typst and hands every word and figure over as one JSON input
// (`d`), so nothing from a workbook is ever read as typst markup.

/** Skipped rows listed in a PDF; the workbook lists them all. */
export const pdfSkippedRowLimit = 200

/** A colour by name, as the charts and boxes of a report refer to it (`#1f7a5c`). */
export type PdfTones = Readonly<Record<string, string>>

export interface PdfAboutItem {
  readonly label: string
  readonly lines: readonly string[]
}

/** The part of a report's JSON the kit reads; a report adds its own fields beside them. */
export interface PdfReportBase {
  readonly lang: Lang
  readonly dir: 'rtl' | 'ltr'
  /** What the document is ("تقرير الغياب"), its heading. */
  readonly title: string
  /** The teacher's own name for the analysis, under the heading. */
  readonly subtitle: string
  readonly school: string | null
  /** The header's facts under the title (period, term, the day of the analysis). */
  readonly about: readonly PdfAboutItem[]
  readonly tones: PdfTones
  readonly words: { readonly page: string; readonly madeWith: string }
  /** The sign-off at the end of the report, for the principal: who prepared it, and lines to sign. */
  readonly signOff: { readonly preparedBy: string; readonly name: string | null; readonly signature: string; readonly principal: string }
}

/** What an analysis's PDF is, its heading: "تقرير الغياب" / "Absence report". */
export type PdfReportKind = 'absence' | 'grades'

export type PdfSegment = { readonly tone: string; readonly value: number }
export type PdfBarRow = { readonly label: string; readonly value: string; readonly segments: readonly PdfSegment[] }
/** A chart of one bar per group; `note` says what the figure beside each bar is. */
export type PdfBarChart = { readonly title: string; readonly note?: string | null; readonly rows: readonly PdfBarRow[] }
export type PdfLegendItem = { readonly tone: string; readonly label: string }

/**
 * The header's heading (what the report is), the analysis's title, school and facts, with the
 * day of the analysis last (Gregorian and Hijri); and the sign-off with the name of the teacher
 * who prepared it (her full name in the report's language; without one, a line to write it on).
 */
export function pdfReportBase(
  words: ExportWords,
  {
    kind,
    title,
    school,
    createdAt,
    about,
    tones,
    preparedBy,
  }: {
    kind: PdfReportKind
    title: string
    school?: string | undefined
    createdAt: Date
    about: readonly PdfAboutItem[]
    tones: PdfTones
    preparedBy?: string | null | undefined
  },
): PdfReportBase {
  const { t, lang } = words
  const analysed = words.analysedOn(createdAt)
  return {
    lang,
    dir: lang === 'ar' ? 'rtl' : 'ltr',
    title: t(`analyses.exports.reportTitle.${kind}`),
    subtitle: title,
    school: school ?? null,
    about: [...about, { label: t('analyses.list.columns.created'), lines: [analysed.gregorian, analysed.hijri] }],
    tones,
    words: { page: t('analyses.exports.page'), madeWith: t('analyses.exports.madeWith') },
    signOff: {
      preparedBy: t('analyses.exports.preparedBy'),
      name: preparedBy?.trim() || null,
      signature: t('analyses.exports.signature'),
      principal: t('analyses.exports.principal'),
    },
  }
}

/** The skipped rows' section: the first `pdfSkippedRowLimit` rows and, when there are more, a note saying so. */
export function pdfSkipped(words: ExportWords, skipped: readonly SkippedRow[]) {
  const { t } = words
  const shown = skipped.slice(0, pdfSkippedRowLimit)
  return {
    title: t('analyses.report.skipped', { count: skipped.length }),
    lead: t('analyses.report.skippedLead'),
    none: t('analyses.report.noSkipped'),
    note: skipped.length > shown.length ? t('analyses.exports.skippedShown', { count: skipped.length, shown: shown.length }) : null,
    headers: [t('analyses.report.row'), t('analyses.report.reason')],
    // Row numbers as Excel shows them: no grouping.
    rows: shown.map((s) => [String(s.row), words.skipReason(s.reason)]),
  }
}

// The kit, set before a report's body. Directions: with `text(dir: rtl)` typst lays grids,
// tables and stacks from the right, so bars grow from the inline start and columns read right
// to left without any mirroring here; only charts drawn with absolute positions must compute
// their x from `is-rtl`.
const kit = String.raw`
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
#let tones = (brand: brand, muted: muted) + d.tones.pairs().map(((k, v)) => (k, rgb(v))).to-dict()

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
    d.words.madeWith + " · " + d.title + " · " + d.subtitle, page-label())
})

#let section(title) = block(sticky: true, above: 7mm, below: 3mm, {
  text(size: 1.3em, weight: "bold", fill: brand, title)
  v(-2.2mm)
  line(length: 100%, stroke: 0.8pt + brand)
})
#let subhead(title) = block(sticky: true, above: 5mm, below: 2mm, text(size: 1.05em, weight: "bold", title))
#let lead(body) = block(sticky: true, text(fill: muted, body))

#let report-header() = block(width: 100%, fill: brand, radius: 4pt, inset: (x: 6mm, y: 5mm), {
  // Lines spaced by the fonts' full height: Amiri's marks reach far above and below the Latin
  // line, and a school's name above the title would otherwise touch it.
  set text(fill: white, top-edge: "bounds", bottom-edge: "bounds")
  set par(leading: 0.55em)
  if d.school != none { text(size: 1.15em, weight: "bold", d.school); linebreak() }
  text(size: 1.75em, weight: "bold", d.title)
  linebreak()
  text(size: 1.2em, d.subtitle)
  v(2.5mm)
  grid(columns: d.about.len(), column-gutter: 9mm, row-gutter: 1.2mm,
    ..d.about.map(a => text(size: 0.88em, fill: brand-soft, a.label)),
    ..d.about.map(a => text(weight: "bold", a.lines.join(linebreak()))))
})

// Large figures in tinted boxes, each with the colour of its series.
#let figure-boxes(items) = grid(columns: (1fr,) * items.len(), column-gutter: 3mm,
  ..items.map(f => block(width: 100%, fill: brand-soft, radius: 3pt, inset: (x: 3mm, y: 2.6mm),
    stroke: (top: 2.5pt + tones.at(f.tone)), {
      text(size: 0.85em, fill: muted, f.label)
      linebreak()
      text(size: 1.9em, weight: "bold", fill: tones.at(f.tone), f.value)
    })))
// Smaller figures, label and value on one line.
#let count-boxes(items) = grid(columns: (1fr,) * items.len(), column-gutter: 3mm,
  ..items.map(f => block(width: 100%, stroke: 0.6pt + rule, radius: 3pt, inset: (x: 3mm, y: 2.2mm),
    grid(columns: (1fr, auto), align: (start + horizon, end + horizon),
      text(size: 0.9em, fill: muted, f.label), text(size: 1.3em, weight: "bold", f.value)))))

#let legend(items) = block(below: 2.5mm, {
  set text(size: 0.85em)
  items.map(it => box({
    box(width: 3mm, height: 3mm, radius: 0.6mm, fill: tones.at(it.tone), baseline: 0.4mm)
    h(1.4mm)
    it.label
  })).join(h(6mm))
})

// Segments are shares of the whole bar (0–1), laid from the inline start.
#let bar(segments, height: 3.8mm) = box(width: 100%, height: height, radius: 1mm, clip: true, fill: track,
  stack(dir: inline-dir, ..segments.filter(s => s.value > 0).map(s => box(width: s.value * 100%, height: 100%, fill: tones.at(s.tone)))))

#let bar-chart(c, legend-items) = block(breakable: c.rows.len() > 12, width: 100%, above: 5mm, {
  block(sticky: true, below: 2.8mm, text(weight: "bold", c.title))
  if c.at("note", default: none) != none { block(sticky: true, below: 2mm, text(size: 0.85em, fill: muted, c.note)) }
  if legend-items.len() > 0 { legend(legend-items) }
  grid(columns: (40mm, 1fr, 15mm), column-gutter: 3mm, row-gutter: 2mm,
    align: (start + horizon, horizon, end + horizon),
    ..c.rows.map(r => (text(size: 0.9em, r.label), bar(r.segments), text(weight: "bold", r.value))).flatten())
})

// Figures share the width evenly (their headers wrap); a group's name gets a wider share, other
// label columns (dates, weekdays) their own width. Rows listed in strong (a total) are bold; a
// cell given as a list of strings prints them one under another.
#let data-table(headers, rows, labels: 1, widths: none, strong: ()) = {
  let cell(c) = if type(c) == array { c.join(linebreak()) } else { c }
  set text(size: 0.86em)
  table(
    columns: if widths != none { widths } else if labels == 1 { (1.8fr,) + (1fr,) * (headers.len() - 1) } else {
      (auto,) * labels + (1fr,) * (headers.len() - labels)
    },
    align: (x, y) => if x < labels { start + horizon } else { center + horizon },
    inset: (x: 1.5mm, y: 1.3mm),
    stroke: (x, y) => (bottom: 0.4pt + rule),
    fill: (x, y) => if y == 0 { brand-soft } else if calc.even(y) { zebra } else { none },
    table.header(..headers.map(h => text(weight: "bold", fill: brand, h))),
    ..rows.enumerate().map(((i, row)) => row.map(c => if i in strong { text(weight: "bold", cell(c)) } else { cell(c) })).flatten(),
  )
}

// Who prepared the report and where it is signed, side by side: the teacher (her name printed,
// or a line to write it on) and the principal. Kept whole on one page.
#let sign-off() = block(breakable: false, above: 12mm, width: 100%, {
  let s = d.signOff
  let signature-line = box(width: 100%, height: 9mm, align(bottom, line(length: 100%, stroke: 0.6pt + ink)))
  let party(label, name) = {
    text(size: 0.9em, fill: muted, label)
    v(1mm)
    if name != none { text(weight: "bold", name) } else { signature-line }
    v(4mm)
    text(size: 0.9em, fill: muted, s.signature)
    signature-line
  }
  grid(columns: (1fr, 1fr), column-gutter: 16mm, party(s.preparedBy, s.name), party(s.principal, none))
})

#let skipped-section(s) = {
  section(s.title)
  if s.rows.len() == 0 {
    par(s.none)
  } else {
    lead(s.lead)
    if s.note != none { lead(s.note) }
    data-table(s.headers, s.rows, labels: 2, widths: (auto, 1fr))
  }
}
`

/**
 * Renders a report's typst body after the kit, with `data` as `d`. The data must carry the
 * fields of PdfReportBase.
 */
export async function renderReportPdf(body: string, data: PdfReportBase): Promise<Uint8Array> {
  const report = JSON.stringify(data)
  // In a render process, as every report a teacher's upload can make long (docs/decisions/014);
  // the same bytes as rendering here. The document's title last: a set rule at the top whose
  // value changes per document would stop typst from reusing layout.
  try {
    const rendered = await renderOffThread(
      `${kit}\n${body}\n#set document(title: d.title + " — " + d.subtitle)\n`,
      { inputs: { report } },
      { pdf: true },
    )
    return rendered.pdf ?? new Uint8Array()
  } catch (error) {
    if (error instanceof PdfRenderLimitError) throw new DomainError(503, 'common.errors.statusText.503', undefined, 30)
    throw error
  }
}
