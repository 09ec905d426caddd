import { pdfReportBase, pdfSkipped, renderReportPdf, type PdfBarChart, type PdfLegendItem } from '#app/features/analyses/index.server.ts'
import type { BandSubjectReport, GradesReport, SubjectReport } from './analyse-grades.ts'
import { bandRangeLabel } from './bands.ts'
import type { ScoreFigures } from './grade-figures.ts'
import {
  gradesExportWords,
  groupsOf,
  passedCount,
  subjectList,
  type GradesExportOptions,
  type GradesExportWords,
} from './report-xlsx.server.ts'

// The PDF export of a grades analysis (docs/grades.md): the report for print, A4, in the page's
// language and direction, typeset with the analyses' PDF kit. For each subject: key figures,
// the classrooms table, the bands of each classroom as stacked bars, the distribution of the
// bands, the top and weak groups and the five highest and lowest students; then the skipped rows.
// Every word and figure is formatted here and reaches the document as one JSON input.

export type GradesReportPdfOptions = GradesExportOptions & {
  /** The teacher who prepared it, as the sign-off prints her (her full name in the report's language). */
  readonly preparedBy?: string | null
}

// The web page's band colours by position (tone-band1…5), so paper and screen agree; more than
// five bands take an eight-step ramp from the same green to the same red.
const bandPalette = ['#1f7a5c', '#3b8f3f', '#5b8def', '#c98a0b', '#b42318']
const bandRamp = ['#1f7a5c', '#3b8f3f', '#7fa63a', '#5b8def', '#8a6fd1', '#c98a0b', '#d8652a', '#b42318']

function bandTones(count: number): string[] {
  if (count <= bandPalette.length) return bandPalette.slice(0, count)
  return Array.from({ length: count }, (_, i) => bandRamp[Math.round((i * (bandRamp.length - 1)) / (count - 1))] as string)
}

const otherTones = { brand: '#0f5d52', pass: '#1f7a5c', spread: '#4d5b58' }
const bandTone = (i: number) => `band${i}`

/** The pass rate with one decimal: from the exact count when it is known, else from the analysis's figure. */
function passRate(words: GradesExportWords, f: ScoreFigures): string {
  const passed = passedCount(f)
  return passed === null ? words.percentage(f.passRate) : words.rate(passed, f.students)
}

/** The average with one decimal, from the exact total. */
function average(words: GradesExportWords, f: ScoreFigures): string {
  return f.students > 0 ? words.fixed(f.total / f.students) : '–'
}

function subjectData(words: GradesExportWords, subject: SubjectReport, bands: GradesReport['bands']) {
  const { t } = words
  const { summary: s } = subject
  const groups = groupsOf(subject, words)
  const score = (value: number | null) => (value === null ? '–' : words.number(value))
  const points = (value: number | null) => (value === null ? '–' : t('grades-report.topWeak.points', { value: words.fixed(value) }))
  const strong = [groups.length - 1]
  const students = (list: ScoreFigures['highest5']) => list.map((st, i) => [words.integer(i + 1), st.name, score(st.score)])

  const bandsChart: PdfBarChart = {
    title: t('grades-report.charts.bandsByClassroom'),
    note: t('grades-report.charts.passRateNote'),
    // The subject overall first, as the absence report's overall bar.
    rows: [groups.at(-1), ...groups.slice(0, -1)].flatMap((g) =>
      g
        ? [
            {
              label: g.label,
              value: passRate(words, g.figures),
              segments: g.figures.bands.map((b, i) => ({
                tone: bandTone(i),
                value: g.figures.students > 0 ? b.count / g.figures.students : 0,
              })),
            },
          ]
        : [],
    ),
  }
  const distribution: PdfBarChart = {
    title: t('grades-report.charts.distribution'),
    note: t('grades-report.charts.countNote'),
    rows: s.bands.map((b, i) => ({
      label: `${words.band(b.key)} · ${words.rate(b.count, s.students)}`,
      value: words.integer(b.count),
      segments: [{ tone: bandTone(i), value: s.students > 0 ? b.count / s.students : 0 }],
    })),
  }

  return {
    title: t('grades-report.subject', { subject: subject.subject, max: words.number(subject.max, 6) }),
    figures: [
      { label: t('grades-report.figures.average'), value: average(words, s), tone: 'brand' },
      { label: t('grades-report.figures.median'), value: words.fixed(s.median), tone: 'brand' },
      { label: t('grades-report.figures.passRate'), value: passRate(words, s), tone: 'pass' },
      { label: t('grades-report.figures.stdDev'), value: words.fixed(s.stdDev), tone: 'spread' },
    ],
    counts: [
      { label: t('grades-report.figures.students'), value: words.integer(s.students) },
      { label: t('grades-report.figures.absent'), value: words.integer(s.absent) },
      { label: t('grades-report.figures.highest'), value: score(s.highest) },
      { label: t('grades-report.figures.lowest'), value: score(s.lowest) },
    ],
    classrooms: {
      title: t('grades-report.tables.results'),
      headers: [
        t('grades-report.tables.classroom'),
        t('grades-report.figures.students'),
        t('grades-report.figures.absent'),
        t('grades-report.figures.total'),
        t('grades-report.figures.average'),
        t('grades-report.figures.highest'),
        t('grades-report.figures.lowest'),
        t('grades-report.figures.median'),
        t('grades-report.figures.stdDev'),
        t('grades-report.figures.passRate'),
      ],
      strong,
      rows: groups.map(({ label, figures: f }) => [
        label,
        words.integer(f.students),
        words.integer(f.absent),
        words.number(f.total),
        average(words, f),
        score(f.highest),
        score(f.lowest),
        words.fixed(f.median),
        words.fixed(f.stdDev),
        passRate(words, f),
      ]),
    },
    bandsChart,
    distribution,
    bands: {
      title: t('grades-report.tables.bands'),
      headers: [t('grades-report.tables.classroom'), ...bands.map((b, i) => bandRangeLabel(t, bands, i, words.band(b.key)))],
      strong,
      // Each cell: the count, and under it the share of the group's students.
      rows: groups.map(({ label, figures: f }) => [
        label,
        ...f.bands.map((b) => [words.integer(b.count), words.rate(b.count, f.students)]),
      ]),
    },
    topWeak: {
      title: t('grades-report.topWeak.title'),
      lead: t('grades-report.topWeak.lead'),
      headers: [
        t('grades-report.tables.classroom'),
        t('grades-report.topWeak.topCount'),
        t('grades-report.topWeak.topAverage'),
        t('grades-report.topWeak.weakCount'),
        t('grades-report.topWeak.weakAverage'),
        t('grades-report.topWeak.gap'),
      ],
      strong,
      rows: groups.map(({ label, figures: f }) => [
        label,
        words.integer(f.top.count),
        words.percentage(f.top.average),
        words.integer(f.weak.count),
        words.percentage(f.weak.average),
        points(f.gap),
      ]),
    },
    lists: [
      { title: t('grades-report.topWeak.highest5'), rows: students(s.highest5) },
      { title: t('grades-report.topWeak.lowest5'), rows: students(s.lowest5) },
    ].map((list) => ({
      ...list,
      headers: [t('grades-report.tables.rank'), t('grades-report.tables.student'), t('grades-report.tables.score')],
      none: t('grades-report.topWeak.none'),
    })),
  }
}

/** A band summary's subject: students per band by classroom, as bars and a table; no scores. */
function bandSubjectData(words: GradesExportWords, subject: BandSubjectReport) {
  const { t } = words
  const groups = [
    ...subject.byClassroom.map((c) => ({ label: `${c.grade} / ${c.classroom}`, group: c })),
    { label: t('grades-report.tables.overall'), group: subject.summary },
  ]
  const bandsChart: PdfBarChart = {
    title: t('grades-report.charts.bandsByClassroom'),
    rows: groups.map(({ label, group }) => ({
      label,
      value: words.integer(group.students),
      segments: group.bands.map((b, i) => ({ tone: bandTone(i), value: group.students > 0 ? b.count / group.students : 0 })),
    })),
  }
  return {
    title: subject.subject,
    bandsChart,
    bands: {
      title: t('grades-report.tables.bands'),
      headers: [
        t('grades-report.tables.classroom'),
        t('grades-report.figures.students'),
        ...subject.summary.bands.map((b) => words.band(b.key)),
      ],
      strong: [groups.length - 1],
      rows: groups.map(({ label, group }) => [
        label,
        words.integer(group.students),
        ...group.bands.map((b) => [words.integer(b.count), words.rate(b.count, group.students)]),
      ]),
    },
  }
}

function reportData({ lang, title, createdAt, analysis, preparedBy }: GradesReportPdfOptions) {
  const words = gradesExportWords(lang)
  const { t } = words
  const { meta, report } = analysis
  const subjects = subjectList(lang, report) || meta.subject
  const about = [
    ...(subjects
      ? [{ label: report.subjects.length > 1 ? t('grades-report.tables.subjects') : t('grades-report.tables.subject'), lines: [subjects] }]
      : []),
    ...(meta.exam ? [{ label: t('grades-report.tables.exam'), lines: [meta.exam] }] : []),
    ...(meta.term ? [{ label: t('analyses.report.term'), lines: [meta.term] }] : []),
  ]
  const tones = { ...otherTones, ...Object.fromEntries(bandTones(report.bands.length).map((colour, i) => [bandTone(i), colour])) }
  const legend: PdfLegendItem[] = report.bands.map((b, i) => ({
    tone: bandTone(i),
    label: bandRangeLabel(t, report.bands, i, words.band(b.key)),
  }))

  return {
    ...pdfReportBase(words, { kind: 'grades', title, school: meta.school, createdAt, about, tones, preparedBy }),
    headings: { bands: t('grades-report.exports.bandsUsed') },
    legend,
    subjects: report.subjects.map((subject) => subjectData(words, subject, report.bands)),
    bandSubjects: (report.bandSubjects ?? []).map((subject) => bandSubjectData(words, subject)),
    bandsOnly: report.bandSubjects ? t('analyses.recognised.bandsOnly') : '',
    skipped: pdfSkipped(words, report.skipped),
  }
}

// The body after the analyses' PDF kit. Subjects follow one another (a page each would leave
// most of a sheet blank); a subject's heading never ends a page.
const body = String.raw`
#report-header()
#block(above: 4mm, {
  text(size: 0.9em, weight: "bold", d.headings.bands + ":")
  h(3mm)
  legend(d.legend)
})

#for s in d.subjects {
  section(s.title)
  figure-boxes(s.figures)
  v(2.5mm)
  count-boxes(s.counts)

  subhead(s.classrooms.title)
  data-table(s.classrooms.headers, s.classrooms.rows, strong: s.classrooms.strong)

  bar-chart(s.bandsChart, d.legend)
  bar-chart(s.distribution, ())

  subhead(s.bands.title)
  data-table(s.bands.headers, s.bands.rows, strong: s.bands.strong)

  subhead(s.topWeak.title)
  lead(s.topWeak.lead)
  data-table(s.topWeak.headers, s.topWeak.rows, strong: s.topWeak.strong)

  block(breakable: false, above: 5mm, grid(columns: (1fr, 1fr), column-gutter: 6mm,
    ..s.lists.map(l => {
      subhead(l.title)
      if l.rows.len() == 0 { par(l.none) } else { data-table(l.headers, l.rows, labels: 2, widths: (auto, 1fr, auto)) }
    })))
}

#if d.bandsOnly != "" { lead(d.bandsOnly) }
#for s in d.bandSubjects {
  section(s.title)
  bar-chart(s.bandsChart, d.legend)
  subhead(s.bands.title)
  data-table(s.bands.headers, s.bands.rows, strong: s.bands.strong)
}

#sign-off()

#skipped-section(d.skipped)
`

/** The analysis's report as an A4 PDF in the page's language and direction. */
export async function renderGradesReportPdf(options: GradesReportPdfOptions): Promise<Uint8Array> {
  return renderReportPdf(body, reportData(options))
}
