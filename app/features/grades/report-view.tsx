import { Form } from 'react-router'
import { formatNumber, formatRate } from '#app/i18n/format.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { StackedBarChart, type ChartRow, type ChartTone } from '#app/ui/charts.tsx'
import { RecognisedSummary } from '#app/ui/recognised-summary.tsx'
import { GroupTable, KeyFigures, SkippedRows } from '#app/ui/report-parts.tsx'
import type { BandCount, BandSubjectReport, GradesReport, SubjectReport } from './analyse-grades.ts'
import { bandRangeLabel, isBandKey } from './bands.ts'
import type { BandsChoice } from './bands-query.ts'
import type { ScoreFigures } from './grade-figures.ts'

const tones: ChartTone[] = ['band1', 'band2', 'band3', 'band4', 'band5']

/** The grades report: the bands form, then per subject its figures, charts and tables. */
export function GradesReportView({
  report,
  choice,
  analysisId,
  action,
}: {
  report: GradesReport
  choice: BandsChoice
  analysisId: string
  action: string
}) {
  const { t } = useT()
  return (
    <>
      {report.recognised ? <RecognisedSummary recognised={report.recognised} /> : null}
      {report.bandSubjects ? (
        <>
          <p className="notice">{t('analyses.recognised.bandsOnly')}</p>
          {report.bandSubjects.map((subject, i) => (
            <BandSubjectSection key={`${subject.subject}-${i}`} subject={subject} index={i} />
          ))}
        </>
      ) : (
        <>
          <BandsForm choice={choice} analysisId={analysisId} action={action} />
          {report.subjects.map((subject, i) => (
            <SubjectSection key={`${subject.subject}-${i}`} subject={subject} bands={report.bands} index={i} />
          ))}
        </>
      )}
      <SkippedRows rows={report.skipped} />
    </>
  )
}

/** A subject of a band summary: the bands by classroom and overall, counts and shares, no scores. */
function BandSubjectSection({ subject, index }: { subject: BandSubjectReport; index: number }) {
  const { t } = useT()
  const lang = useLang()
  const bandName = useBandName()
  const rate = (v: number | null) => (v === null ? '—' : formatRate(lang, v))
  const id = `band-subject-${index}`
  const classroomLabel = (c: { grade: string; classroom: string }) => `${c.grade} / ${c.classroom}`
  const segments = (bands: readonly BandCount[]) =>
    bands.map((b, i) => ({
      key: b.key,
      label: bandName(b.key),
      value: b.percentage ?? 0,
      tone: tones[Math.min(i, tones.length - 1)] ?? 'band5',
    }))
  // Beside each classroom's bar, how many students it counts (the file gives no pass rate).
  const byClassroom: ChartRow[] = subject.byClassroom.map((c) => ({
    key: classroomLabel(c),
    label: classroomLabel(c),
    segments: segments(c.bands),
    note: t('analyses.recognised.students', { count: c.students }),
  }))
  // A band summary's bands come from the file, with no thresholds: their names alone.
  const distribution = distributionRows(
    subject.summary.bands,
    bandName,
    (_i, key) => bandName(key),
    (b) => `${formatNumber(lang, b.count)} · ${rate(b.percentage)}`,
  )
  type Group = { students: number; bands: readonly BandCount[] }
  const rows: { label: string; group: Group }[] = [
    ...subject.byClassroom.map((c) => ({ label: classroomLabel(c), group: c })),
    { label: t('grades-report.tables.overall'), group: subject.summary },
  ]
  return (
    <section className="report-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{subject.subject}</h2>
      <KeyFigures items={[{ label: t('grades-report.figures.students'), value: formatNumber(lang, subject.summary.students) }]} />
      <div className="chart-grid">
        <StackedBarChart id={`${id}-bands`} title={t('grades-report.charts.bandsByClassroom')} rows={byClassroom} formatValue={rate} />
        <StackedBarChart id={`${id}-distribution`} title={t('grades-report.charts.distribution')} rows={distribution} formatValue={rate} />
      </div>
      <GroupTable
        caption={t('grades-report.tables.bands')}
        groupHeader={t('grades-report.tables.classroom')}
        rows={rows}
        columns={[
          { header: t('grades-report.figures.students'), cell: (g: Group) => formatNumber(lang, g.students) },
          ...subject.summary.bands.map((b, i) => ({
            header: bandName(b.key),
            cell: (g: Group) => `${formatNumber(lang, g.bands[i]?.count ?? 0)} (${rate(g.bands[i]?.percentage ?? null)})`,
          })),
        ]}
      />
    </section>
  )
}

/** One bar per band: its share of the students, and a note beside it. */
function distributionRows(
  bands: readonly BandCount[],
  bandName: (key: string) => string,
  bandLabel: (index: number, key: string) => string,
  note: (band: BandCount) => string,
): ChartRow[] {
  return bands.map((b, i) => ({
    key: b.key,
    label: bandName(b.key),
    segments: [{ key: b.key, label: bandLabel(i, b.key), value: b.percentage ?? 0, tone: tones[Math.min(i, tones.length - 1)] ?? 'band5' }],
    note: note(b),
  }))
}

function useBandName() {
  const { t } = useT()
  return (key: string) => (isBandKey(key) ? t(`grades.bands.${key}`) : key)
}

/** Change the thresholds (or take the elementary preset): a GET form, so it works without JavaScript. */
function BandsForm({ choice, analysisId, action }: { choice: BandsChoice; analysisId: string; action: string }) {
  const { t } = useT()
  const bandName = useBandName()
  return (
    <section className="report-section card no-print" aria-labelledby="bands-form-title">
      <h2 id="bands-form-title">{t('grades-report.bandsForm.title')}</h2>
      <Form method="get" action={action} className="form bands-form">
        <input type="hidden" name="id" value={analysisId} />
        {/* The thresholds below belong to this preset; choosing the other one starts from its own. */}
        <input type="hidden" name="shown" value={choice.preset} />
        <fieldset className="bands-preset">
          <legend>{t('grades-report.bandsForm.preset')}</legend>
          {(['default', 'elementary'] as const).map((preset) => (
            <label key={preset} className="method-option">
              <input type="radio" name="preset" value={preset} defaultChecked={choice.preset === preset} />
              <span>{t(`grades.presets.${preset}`)}</span>
            </label>
          ))}
        </fieldset>
        <div className="bands-mins">
          {choice.bands.slice(0, -1).map((band, i) => (
            <div key={band.key} className="field">
              <label htmlFor={`band-min-${i}`}>{t('grades-report.bandsForm.min', { band: bandName(band.key) })}</label>
              <input
                id={`band-min-${i}`}
                name="min"
                type="number"
                inputMode="numeric"
                min={1}
                max={100}
                step={1}
                defaultValue={band.min}
                dir="ltr"
              />
            </div>
          ))}
        </div>
        {choice.error ? (
          <p className="field-error" role="alert">
            {t(choice.error.key, choice.error.values)}
          </p>
        ) : null}
        <button type="submit" className="button button-primary">
          {t('grades-report.bandsForm.apply')}
        </button>
      </Form>
    </section>
  )
}

function SubjectSection({ subject, bands, index }: { subject: SubjectReport; bands: GradesReport['bands']; index: number }) {
  const { t } = useT()
  const lang = useLang()
  const bandName = useBandName()
  const num = (v: number | null) => (v === null ? '—' : formatNumber(lang, v, { maximumFractionDigits: 2 }))
  const rate = (v: number | null) => (v === null ? '—' : formatRate(lang, v))
  const s = subject.summary
  const id = `subject-${index}`
  const classroomLabel = (c: { grade: string; classroom: string }) => `${c.grade} / ${c.classroom}`
  // The legend names each band with the percents it covers, from the thresholds in force.
  const bandLabel = (i: number, key: string) => bandRangeLabel(t, bands, i, bandName(key))
  const bandSegments = (f: ScoreFigures) =>
    f.bands.map((b, i) => ({
      key: b.key,
      label: bandLabel(i, b.key),
      value: b.percentage ?? 0,
      tone: tones[Math.min(i, tones.length - 1)] ?? 'band5',
    }))
  const byClassroom: ChartRow[] = subject.byClassroom.map((c) => ({
    key: classroomLabel(c),
    label: classroomLabel(c),
    segments: bandSegments(c),
    note: rate(c.passRate),
  }))
  const distribution = distributionRows(s.bands, bandName, bandLabel, (b) => `${formatNumber(lang, b.count)} · ${rate(b.percentage)}`)
  const rows: { label: string; group: ScoreFigures }[] = [
    ...subject.byClassroom.map((c) => ({ label: classroomLabel(c), group: c as ScoreFigures })),
    { label: t('grades-report.tables.overall'), group: s },
  ]

  return (
    <section className="report-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('grades-report.subject', { subject: subject.subject, max: num(subject.max) })}</h2>
      <KeyFigures
        items={[
          { label: t('grades-report.figures.students'), value: num(s.students) },
          { label: t('grades-report.figures.absent'), value: num(s.absent) },
          { label: t('grades-report.figures.average'), value: num(s.average) },
          { label: t('grades-report.figures.highest'), value: num(s.highest) },
          { label: t('grades-report.figures.lowest'), value: num(s.lowest) },
          { label: t('grades-report.figures.median'), value: num(s.median) },
          { label: t('grades-report.figures.stdDev'), value: num(s.stdDev) },
          { label: t('grades-report.figures.passRate'), value: rate(s.passRate), tone: 'present' },
        ]}
      />

      <div className="chart-grid">
        <StackedBarChart
          id={`${id}-bands`}
          title={t('grades-report.charts.bandsByClassroom')}
          note={t('grades-report.charts.passRateNote')}
          rows={byClassroom}
          formatValue={rate}
        />
        <StackedBarChart id={`${id}-distribution`} title={t('grades-report.charts.distribution')} rows={distribution} formatValue={rate} />
      </div>

      <GroupTable
        caption={t('grades-report.tables.results')}
        groupHeader={t('grades-report.tables.classroom')}
        rows={rows}
        columns={[
          { header: t('grades-report.figures.students'), cell: (f: ScoreFigures) => num(f.students) },
          { header: t('grades-report.figures.absent'), cell: (f: ScoreFigures) => num(f.absent) },
          { header: t('grades-report.figures.total'), cell: (f: ScoreFigures) => num(f.total) },
          { header: t('grades-report.figures.average'), cell: (f: ScoreFigures) => num(f.average) },
          { header: t('grades-report.figures.highest'), cell: (f: ScoreFigures) => num(f.highest) },
          { header: t('grades-report.figures.lowest'), cell: (f: ScoreFigures) => num(f.lowest) },
          { header: t('grades-report.figures.median'), cell: (f: ScoreFigures) => num(f.median) },
          { header: t('grades-report.figures.stdDev'), cell: (f: ScoreFigures) => num(f.stdDev) },
          { header: t('grades-report.figures.passRate'), cell: (f: ScoreFigures) => rate(f.passRate) },
        ]}
      />
      <GroupTable
        caption={t('grades-report.tables.bands')}
        groupHeader={t('grades-report.tables.classroom')}
        rows={rows}
        columns={bands.map((b, i) => ({
          header: bandLabel(i, b.key),
          cell: (f: ScoreFigures) => `${formatNumber(lang, f.bands[i]?.count ?? 0)} (${rate(f.bands[i]?.percentage ?? null)})`,
        }))}
      />
      <GroupTable
        caption={t('grades-report.topWeak.title')}
        groupHeader={t('grades-report.tables.classroom')}
        rows={rows}
        columns={[
          { header: t('grades-report.topWeak.topCount'), cell: (f: ScoreFigures) => num(f.top.count) },
          { header: t('grades-report.topWeak.topAverage'), cell: (f: ScoreFigures) => rate(f.top.average) },
          { header: t('grades-report.topWeak.weakCount'), cell: (f: ScoreFigures) => num(f.weak.count) },
          { header: t('grades-report.topWeak.weakAverage'), cell: (f: ScoreFigures) => rate(f.weak.average) },
          {
            header: t('grades-report.topWeak.gap'),
            cell: (f: ScoreFigures) => (f.gap === null ? '—' : t('grades-report.topWeak.points', { value: num(f.gap) })),
          },
        ]}
      />

      <div className="card-grid card-grid-2">
        <StudentList title={t('grades-report.topWeak.highest5')} students={s.highest5} num={num} />
        <StudentList title={t('grades-report.topWeak.lowest5')} students={s.lowest5} num={num} />
      </div>
    </section>
  )
}

function StudentList({ title, students, num }: { title: string; students: ScoreFigures['highest5']; num: (v: number) => string }) {
  const { t } = useT()
  return (
    <div className="card">
      <h3>{title}</h3>
      {students.length ? (
        <ol className="student-list">
          {students.map((st, i) => (
            <li key={`${st.name}-${i}`}>
              <span>{st.name}</span> <strong className="num">{num(st.score)}</strong>
            </li>
          ))}
        </ol>
      ) : (
        <p>{t('grades-report.topWeak.none')}</p>
      )}
    </div>
  )
}
