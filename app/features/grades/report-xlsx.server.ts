import { percent } from '#app/features/analyses/index.ts'
import {
  aboutLines,
  createExportWords,
  skippedSheet,
  summarySheet,
  tableSheet,
  xlsxCells,
  type ExportWords,
} from '#app/features/analyses/index.server.ts'
import type { Lang } from '#app/i18n/config.ts'
import { writeWorkbook, type XlsxCell, type XlsxSheet } from '#app/platform/xlsx/write.server.ts'
import type { ClassroomScoreFigures, GradesMeta, GradesReport, SubjectReport } from './analyse-grades.ts'
import { isBandKey } from './bands.ts'
import type { ScoreFigures } from './grade-figures.ts'

// The Excel export of a grades analysis (docs/grades.md): a summary, then for each subject its
// classrooms, bands, top and weak groups and five highest and lowest students, then the skipped
// rows; in the page's language and direction. Counts are integers; a share of students (a band,
// the pass rate) is the exact fraction of its counts and an average the exact quotient of the
// total, so Excel rounds them once; the other figures are the analysis's two-decimal numbers.
// The words and groups shared with the PDF export (report-pdf.server.ts) are built here too.

export interface GradesExportOptions {
  readonly lang: Lang
  /** The analysis's title, as the teacher named it. */
  readonly title: string
  readonly createdAt: Date
  readonly analysis: { readonly meta: GradesMeta; readonly report: GradesReport }
}

// ---- shared by both exports ---------------------------------------------------------------

export interface GradesExportWords extends ExportWords {
  /** A band's name: the app's word for a known key, a teacher's own label as written. */
  readonly band: (key: string) => string
  /** `grade / classroom`, as both exports label a classroom. */
  readonly classroom: (group: { grade: string; classroom: string }) => string
}

const wordsByLang: Partial<Record<Lang, GradesExportWords>> = {}

export function gradesExportWords(lang: Lang): GradesExportWords {
  const cached = wordsByLang[lang]
  if (cached) return cached
  const base = createExportWords(lang, ['grades-report', 'analyses', 'grades'])
  const words: GradesExportWords = {
    ...base,
    band: (key) => (isBandKey(key) ? base.t(`grades.bands.${key}`) : key),
    classroom: (g) => `${g.grade} / ${g.classroom}`,
  }
  wordsByLang[lang] = words
  return words
}

/**
 * How many students passed (percent ≥ 50). The figures keep only the pass rate, rounded to two
 * decimals; below 10,000 students exactly one count rounds to it, so the count is recovered
 * exactly. Null for an empty group or when the count cannot be told.
 */
export function passedCount(f: ScoreFigures): number | null {
  if (f.passRate === null || f.students === 0 || f.students >= 10_000) return null
  const passed = Math.round((f.passRate * f.students) / 100)
  // Checked against the analysis's own rounding.
  return percent(passed, f.students) === f.passRate ? passed : null
}

/** A subject's groups as both exports list them: the classrooms in school order, then the subject overall. */
export function groupsOf(
  subject: SubjectReport,
  words: GradesExportWords,
): { label: string; grade: string | null; classroom: string | null; figures: ScoreFigures }[] {
  return [
    ...subject.byClassroom.map((g: ClassroomScoreFigures) => ({
      label: words.classroom(g),
      grade: g.grade,
      classroom: g.classroom,
      figures: g,
    })),
    { label: words.t('grades-report.tables.overall'), grade: null, classroom: null, figures: subject.summary },
  ]
}

/** The subjects' names, joined as a list in the page's language. */
export function subjectList(lang: Lang, report: GradesReport): string {
  return new Intl.ListFormat(lang, { type: 'conjunction' }).format(
    [...report.subjects, ...(report.bandSubjects ?? [])].map((s) => s.subject),
  )
}

/** A band summary's subjects: one sheet, a row per subject and classroom with each band's count and share. */
function bandSummarySheet(report: GradesReport, words: GradesExportWords, lang: Lang): XlsxSheet[] {
  const { t } = words
  const subjects = report.bandSubjects
  if (!subjects?.length) return []
  const keys = subjects[0]?.summary.bands.map((b) => b.key) ?? []
  return [
    tableSheet(
      t('grades-report.exports.sheets.bands'),
      lang,
      [
        t('grades-report.tables.subject'),
        t('grades-report.tables.classroom'),
        t('grades-report.figures.students'),
        ...keys.flatMap((key) => [
          t('grades-report.exports.bandCount', { band: words.band(key) }),
          t('grades-report.exports.bandShare', { band: words.band(key) }),
        ]),
      ],
      subjects.flatMap((subject) =>
        [
          ...subject.byClassroom.map((c) => ({ label: `${c.grade} / ${c.classroom}`, group: c })),
          { label: t('grades-report.tables.overall'), group: subject.summary },
        ].map(({ label, group }) => [
          subject.subject,
          label,
          xlsxCells.integer(group.students),
          ...group.bands.flatMap((b) => [xlsxCells.integer(b.count), xlsxCells.fraction(b.count, group.students)]),
        ]),
      ),
    ),
  ]
}

// ---- the workbook -------------------------------------------------------------------------

const { integer, fraction, percentage, decimal, header } = xlsxCells

function passRateCell(f: ScoreFigures): XlsxCell {
  const passed = passedCount(f)
  return passed === null ? percentage(f.passRate) : fraction(passed, f.students)
}

/** The group's label cells: grade and classroom, or the overall's bold label over both. */
function groupCells(group: ReturnType<typeof groupsOf>[number]): XlsxCell[] {
  return group.grade === null ? [xlsxCells.label(group.label), null] : [group.grade, group.classroom]
}

/** Excel's 31 characters: the subject is shortened, never the sheet's kind, so names stay telling. */
function subjectSheetName(t: ExportWords['t'], sheet: string, subject: string): string {
  const room = 31 - [...t('grades-report.exports.sheetOfSubject', { sheet, subject: '' })].length
  const short =
    [...subject].length > room
      ? [...subject]
          .slice(0, Math.max(1, room - 1))
          .join('')
          .trimEnd() + '…'
      : subject
  return t('grades-report.exports.sheetOfSubject', { sheet, subject: short })
}

function subjectSheets(subject: SubjectReport, words: GradesExportWords, bands: GradesReport['bands']): XlsxSheet[] {
  const { t, lang } = words
  const groups = groupsOf(subject, words)
  const name = (key: string) => subjectSheetName(t, t(`grades-report.exports.sheets.${key}`), subject.subject)
  const groupHeaders = [t('grades-report.tables.grade'), t('grades-report.tables.classroom')]

  const classrooms = tableSheet(
    name('classrooms'),
    lang,
    [
      ...groupHeaders,
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
    groups.map((g) => {
      const f = g.figures
      return [
        ...groupCells(g),
        integer(f.students),
        integer(f.absent),
        f.total,
        decimal(f.students > 0 ? f.total / f.students : null),
        f.highest,
        f.lowest,
        decimal(f.median),
        decimal(f.stdDev),
        passRateCell(f),
      ]
    }),
  )

  const bandSheet = tableSheet(
    name('bands'),
    lang,
    [
      ...groupHeaders,
      t('grades-report.figures.students'),
      ...bands.flatMap((b) => [
        t('grades-report.exports.bandCount', { band: words.band(b.key) }),
        t('grades-report.exports.bandShare', { band: words.band(b.key) }),
      ]),
    ],
    groups.map((g) => [
      ...groupCells(g),
      integer(g.figures.students),
      ...g.figures.bands.flatMap((b) => [integer(b.count), fraction(b.count, g.figures.students)]),
    ]),
  )

  const topWeak = tableSheet(
    name('topWeak'),
    lang,
    [
      ...groupHeaders,
      t('grades-report.figures.students'),
      t('grades-report.topWeak.topCount'),
      t('grades-report.topWeak.topAverage'),
      t('grades-report.topWeak.weakCount'),
      t('grades-report.topWeak.weakAverage'),
      t('grades-report.topWeak.gapPoints'),
    ],
    groups.map((g) => {
      const f = g.figures
      return [
        ...groupCells(g),
        integer(f.students),
        integer(f.top.count),
        percentage(f.top.average),
        integer(f.weak.count),
        percentage(f.weak.average),
        decimal(f.gap),
      ]
    }),
  )

  const highestLowest = tableSheet(
    name('highestLowest'),
    lang,
    [
      ...groupHeaders,
      t('grades-report.tables.rank'),
      t('grades-report.exports.highestName'),
      t('grades-report.exports.highestScore'),
      t('grades-report.exports.lowestName'),
      t('grades-report.exports.lowestScore'),
    ],
    groups.flatMap((g) => {
      const { highest5, lowest5 } = g.figures
      return Array.from({ length: Math.max(highest5.length, lowest5.length) }, (_, i) => [
        ...groupCells(g),
        integer(i + 1),
        highest5[i]?.name ?? null,
        highest5[i]?.score ?? null,
        lowest5[i]?.name ?? null,
        lowest5[i]?.score ?? null,
      ])
    }),
  )

  return [classrooms, bandSheet, topWeak, highestLowest]
}

/** The analysis as an .xlsx workbook: summary, four sheets per subject, the skipped rows. */
export function gradesReportWorkbook({ lang, title, createdAt, analysis }: GradesExportOptions): Uint8Array {
  const words = gradesExportWords(lang)
  const { t } = words
  const { meta, report } = analysis
  const subjectLabel = report.subjects.length > 1 ? t('grades-report.tables.subjects') : t('grades-report.tables.subject')

  const about = aboutLines(words, createdAt, [
    [t('analyses.report.school'), meta.school],
    [subjectLabel, subjectList(lang, report) || meta.subject],
    [t('grades-report.tables.exam'), meta.exam],
    [t('analyses.report.term'), meta.term],
  ])
  const subjects: XlsxCell[][] = [
    [
      header(t('grades-report.tables.subject')),
      header(t('grades-report.tables.maxScore')),
      header(t('grades-report.figures.students')),
      header(t('grades-report.figures.absent')),
      header(t('grades-report.figures.average')),
      header(t('grades-report.figures.passRate')),
    ],
    ...report.subjects.map(({ subject, max, summary: f }) => [
      subject,
      max,
      integer(f.students),
      integer(f.absent),
      decimal(f.students > 0 ? f.total / f.students : null),
      passRateCell(f),
    ]),
  ]
  const bands: XlsxCell[][] = [
    [header(t('grades-report.exports.bandsUsed')), header(t('grades-report.tables.minPercent'))],
    ...report.bands.map((b) => [words.band(b.key), percentage(b.min)]),
  ]

  const sheets: XlsxSheet[] = [
    summarySheet(t('grades-report.exports.sheets.summary'), lang, title, about, [subjects, bands]),
    ...report.subjects.flatMap((subject) => subjectSheets(subject, words, report.bands)),
    ...bandSummarySheet(report, words, lang),
    skippedSheet(t('grades-report.exports.sheets.skipped'), words, report.skipped),
  ]
  return writeWorkbook({ sheets, created: createdAt })
}
