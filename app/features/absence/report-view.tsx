import type { ReactNode } from 'react'
import { Form } from 'react-router'
import { dirOf } from '#app/i18n/config.ts'
import { formatDay, formatNumber, formatRate, weekdayName } from '#app/i18n/format.ts'
import { percent } from '#app/features/analyses/index.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { LineChart, StackedBarChart, type ChartRow, type ChartTone } from '#app/ui/charts.tsx'
import { FormField } from '#app/ui/form-field.tsx'
import { RecognisedSummary } from '#app/ui/recognised-summary.tsx'
import { GroupTable, KeyFigures, SkippedRows } from '#app/ui/report-parts.tsx'
import type { AbsenceReport, GroupFigures, StudentFigures } from './analyse-absence.ts'
import { tierKeys, type AbsenceTier, type AbsenceTiers, type ClassroomTiers, type TierTally } from './tiers.ts'
import type { AbsenceSteps, StudentStep } from './steps.ts'
import { StepsSection, useStepName } from './steps-view.tsx'

/** A student's tier with the teacher's thresholds (null without school days), and step on the teacher's ladder (null below the first). */
type WithTier = { tier: AbsenceTier | null; step: StudentStep | null }

export type WarnedStudent = Pick<StudentFigures, 'name' | 'grade' | 'classroom' | 'unexcused' | 'absenceRate' | 'warningLevel'> & WithTier

export type StudentSearch =
  | { q: string; error: string }
  | {
      q: string
      students: (Pick<
        StudentFigures,
        | 'name'
        | 'grade'
        | 'classroom'
        | 'section'
        | 'records'
        | 'present'
        | 'excused'
        | 'unexcused'
        | 'late'
        | 'absenceRate'
        | 'warningLevel'
        | 'absences'
        | 'guardianMobile'
      > &
        WithTier)[]
    }
  | null

/** The chart tone of each tier (green to red). */
const tierTones = {
  satisfactory: 'tier-satisfactory',
  atRisk: 'tier-at-risk',
  chronic: 'tier-chronic',
  severe: 'tier-severe',
} as const satisfies Record<AbsenceTier, ChartTone>

const warningKeys = ['none', 'first', 'second', 'third'] as const

/** The figures of an absence analysis: key figures, charts, tables, warnings, search, skipped rows. */
export function AbsenceReportView({
  report,
  warned,
  thresholds,
  tiers,
  steps,
  settingsHref,
  registerHref,
  search,
  searchAction,
  analysisId,
  maxSchoolDays,
  schoolDaysError = null,
  studentExtra,
  afterWarnings = null,
}: {
  report: AbsenceReport
  /** The most school days a teacher may enter for a totals file. */
  maxSchoolDays: number
  /** Why the school days typed were not used (so few that no student's totals fit). */
  schoolDaysError?: string | null
  warned: WarnedStudent[]
  thresholds: readonly number[]
  /** The students per tier, with the teacher's thresholds as they are now. */
  tiers: AbsenceTiers
  /** The students per follow-up step, on the teacher's ladder as it is now. */
  steps: AbsenceSteps
  /** Where the teacher changes the thresholds and the ladder. */
  settingsHref: string
  /** The follow-up register's page. */
  registerHref: string
  search: StudentSearch
  searchAction: string
  analysisId: string
  /** What the page adds under each found student (the parent messages), in the results' order. */
  studentExtra?: readonly ReactNode[]
  /** What the page shows after the warnings (the follow-up letters by step, issue 18). */
  afterWarnings?: ReactNode
}) {
  const { t } = useT()
  const lang = useLang()
  const stepName = useStepName()
  const rate = (v: number) => formatRate(lang, v)
  const count = (v: number) => formatNumber(lang, v)
  const s = report.summary
  const segments = (g: GroupFigures) => [
    { key: 'present', label: t('absence-report.series.present'), value: g.attendanceRate, tone: 'present' as const },
    { key: 'excused', label: t('absence-report.series.excused'), value: g.excusedRate, tone: 'excused' as const },
    { key: 'unexcused', label: t('absence-report.series.unexcused'), value: g.unexcusedRate, tone: 'unexcused' as const },
  ]
  const classroomLabel = (g: { grade: string; classroom: string }) => `${g.grade} / ${g.classroom}`
  const groupColumns = [
    ...(['records', 'present', 'excused', 'unexcused', 'late'] as const).map((key) => ({
      header: t(`absence-report.tables.${key}`),
      cell: (g: GroupFigures) => count(g[key]),
    })),
    ...(['attendanceRate', 'excusedRate', 'unexcusedRate'] as const).map((key) => ({
      header: t(`absence-report.tables.${key}`),
      cell: (g: GroupFigures) => rate(g[key]),
    })),
  ]
  const rows = {
    classroom: report.byClassroom.map((g): ChartRow => ({ key: classroomLabel(g), label: classroomLabel(g), segments: segments(g) })),
    section: report.bySection.map((g): ChartRow => ({ key: g.section, label: g.section, segments: segments(g) })),
    system: report.bySystem.map((g): ChartRow => ({ key: g.system, label: g.system, segments: segments(g) })),
    weekday: (report.byWeekday ?? []).map((g): ChartRow => ({
      key: String(g.weekday),
      label: weekdayName(lang, g.weekday),
      segments: segments(g),
    })),
  }
  // A totals file (Noor's absence report) has no days: no weekday or date figures.
  const byDate = report.byDate

  return (
    <>
      {report.recognised ? (
        <RecognisedSummary
          recognised={report.recognised}
          {...(report.recognised.layout === 'absence-totals' && {
            schoolDaysForm: { action: searchAction, analysisId, max: maxSchoolDays, error: schoolDaysError },
          })}
        />
      ) : null}
      <section className="report-section" aria-labelledby="figures-title">
        <h2 id="figures-title">{t('absence-report.figures.title')}</h2>
        <KeyFigures
          items={[
            { label: t('absence-report.figures.attendance'), value: rate(s.attendanceRate), tone: 'present' },
            { label: t('absence-report.figures.excused'), value: rate(s.excusedRate), tone: 'excused' },
            { label: t('absence-report.figures.unexcused'), value: rate(s.unexcusedRate), tone: 'unexcused' },
            { label: t('absence-report.figures.late'), value: rate(s.lateRate), tone: 'late' },
            { label: t('absence-report.figures.students'), value: count(s.students) },
            { label: t('absence-report.figures.days'), value: count(s.days) },
            { label: t('absence-report.figures.records'), value: count(s.records) },
            Boolean(report.periodAbsences) && {
              label: t('absence-report.figures.periodAbsences'),
              value: count(report.periodAbsences ?? 0),
            },
          ]}
        />
      </section>

      <section className="report-section" aria-labelledby="charts-title">
        <h2 id="charts-title" className="visually-hidden">
          {t('absence-report.charts.overall')}
        </h2>
        <div className="chart-grid">
          <StackedBarChart
            id="chart-overall"
            title={t('absence-report.charts.overall')}
            rows={[{ key: 'all', label: t('absence-report.figures.attendance'), segments: segments(s) }]}
            formatValue={rate}
          />
          <StackedBarChart id="chart-classroom" title={t('absence-report.charts.byClassroom')} rows={rows.classroom} formatValue={rate} />
          <StackedBarChart id="chart-section" title={t('absence-report.charts.bySection')} rows={rows.section} formatValue={rate} />
          <StackedBarChart id="chart-system" title={t('absence-report.charts.bySystem')} rows={rows.system} formatValue={rate} />
          {report.byWeekday ? (
            <StackedBarChart id="chart-weekday" title={t('absence-report.charts.byWeekday')} rows={rows.weekday} formatValue={rate} />
          ) : null}
          {byDate ? (
            <LineChart
              id="chart-dates"
              title={t('absence-report.charts.byDate')}
              dir={dirOf(lang)}
              labels={byDate.map((d) => formatDay(lang, d.date).gregorian)}
              formatValue={rate}
              series={[
                { key: 'present', label: t('absence-report.series.present'), tone: 'present', values: byDate.map((d) => d.attendanceRate) },
                { key: 'excused', label: t('absence-report.series.excused'), tone: 'excused', values: byDate.map((d) => d.excusedRate) },
                {
                  key: 'unexcused',
                  label: t('absence-report.series.unexcused'),
                  tone: 'unexcused',
                  values: byDate.map((d) => d.unexcusedRate),
                },
              ]}
            />
          ) : null}
        </div>
        {byDate ? null : <p className="muted">{t('analyses.recognised.totalsNoDays')}</p>}
      </section>

      <TiersSection tiers={tiers} settingsHref={settingsHref} />

      <StepsSection steps={steps} settingsHref={settingsHref} registerHref={registerHref} />

      <section className="report-section" aria-labelledby="search-title">
        <h2 id="search-title">{t('absence-report.search.title')}</h2>
        <Form method="get" action={searchAction} className="form search-form" role="search">
          <input type="hidden" name="id" value={analysisId} />
          <FormField
            id="student-q"
            label={t('absence-report.search.label')}
            hint={t('absence-report.search.hint')}
            errors={search && 'error' in search ? [search.error] : undefined}
          >
            {(p) => <input {...p} name="q" type="search" defaultValue={search?.q ?? ''} autoComplete="off" maxLength={120} />}
          </FormField>
          <button type="submit" className="button button-primary">
            {t('absence-report.search.submit')}
          </button>
        </Form>
        {search && 'students' in search ? (
          <div className="search-results" aria-live="polite">
            <p>{t('absence-report.search.results', { count: search.students.length })}</p>
            {search.students.map((st, index) => (
              <article key={`${st.name}-${st.grade}-${st.classroom}`} className="card student-card">
                <h3>{st.name}</h3>
                <p className="muted">
                  {classroomLabel(st)} · {st.section}
                </p>
                <KeyFigures
                  isSmall
                  items={[
                    { label: t('absence-report.search.records'), value: count(st.records) },
                    { label: t('absence-report.tables.excused'), value: count(st.excused), tone: 'excused' },
                    { label: t('absence-report.tables.unexcused'), value: count(st.unexcused), tone: 'unexcused' },
                    { label: t('absence-report.tables.late'), value: count(st.late), tone: 'late' },
                    { label: t('absence-report.warnings.absenceRate'), value: rate(st.absenceRate) },
                    { label: t('absence-report.warnings.level'), value: t(`absence.warning.${warningKeys[st.warningLevel]}`) },
                    {
                      label: t('absence.tiers.tier'),
                      value: t(`absence.tiers.names.${st.tier ?? 'none'}`),
                      ...(st.tier && { tone: tierTones[st.tier] }),
                    },
                    { label: t('followUp.steps.step'), value: stepName(st.step) },
                  ]}
                />
                {st.absences === undefined ? null : st.absences.length ? (
                  // A table that scrolls on a phone takes the keyboard's focus so it can be scrolled (axe scrollable-region-focusable).
                  // oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex
                  <div className="table-wrap" tabIndex={0} role="region" aria-label={`${t('absence-report.search.absences')}: ${st.name}`}>
                    <table className="data-table">
                      <thead>
                        <tr>
                          <th scope="col">{t('absence-report.search.date')}</th>
                          <th scope="col">{t('absence-report.search.hijri')}</th>
                          <th scope="col">{t('absence-report.search.weekday')}</th>
                          <th scope="col">{t('absence-report.search.type')}</th>
                        </tr>
                      </thead>
                      <tbody>
                        {st.absences.map((a) => {
                          const day = formatDay(lang, a.date)
                          return (
                            <tr key={a.date}>
                              <td className="nowrap">{day.gregorian}</td>
                              <td className="nowrap">{day.hijri}</td>
                              <td>{weekdayName(lang, a.weekday)}</td>
                              <td>{t(`absence.types.${a.type}`)}</td>
                            </tr>
                          )
                        })}
                      </tbody>
                    </table>
                  </div>
                ) : (
                  <p>{t('absence-report.search.noAbsences')}</p>
                )}
                {studentExtra?.[index]}
              </article>
            ))}
          </div>
        ) : null}
      </section>

      <section className="report-section" aria-labelledby="warnings-title">
        <h2 id="warnings-title">{t('absence-report.warnings.title')}</h2>
        <p className="muted">
          {t('absence-report.warnings.lead', { first: thresholds[0] ?? 3, second: thresholds[1] ?? 5, third: thresholds[2] ?? 10 })}
        </p>
        {warned.length ? (
          // Scrolls under the student's name on a phone (see GroupTable); focusable so a keyboard can scroll it.
          // oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex
          <div className="table-wrap table-sticky" tabIndex={0} role="region" aria-labelledby="warnings-title">
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">{t('absence-report.warnings.student')}</th>
                  <th scope="col">{t('absence-report.warnings.classroom')}</th>
                  <th scope="col" className="num">
                    {t('absence-report.warnings.unexcused')}
                  </th>
                  <th scope="col" className="num">
                    {t('absence-report.warnings.absenceRate')}
                  </th>
                  <th scope="col">{t('absence-report.warnings.level')}</th>
                  <th scope="col">{t('absence.tiers.tier')}</th>
                  <th scope="col">{t('followUp.steps.step')}</th>
                </tr>
              </thead>
              <tbody>
                {warned.map((st) => (
                  <tr key={`${st.name}-${st.grade}-${st.classroom}`} className={`warning-${st.warningLevel}`}>
                    <td>{st.name}</td>
                    <td>{classroomLabel(st)}</td>
                    <td className="num">{count(st.unexcused)}</td>
                    <td className="num">{rate(st.absenceRate)}</td>
                    <td>{t(`absence.warning.${warningKeys[st.warningLevel]}`)}</td>
                    <td className="nowrap">
                      <TierMark tier={st.tier} />
                    </td>
                    <td>{stepName(st.step)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p>{t('absence-report.warnings.none')}</p>
        )}
      </section>

      {afterWarnings}

      <section className="report-section" aria-labelledby="tables-title">
        <h2 id="tables-title">{t('absence-report.tables.title')}</h2>
        {[
          {
            caption: 'byClassroom',
            head: 'classroom',
            rows: report.byClassroom.map((g) => ({ label: classroomLabel(g), group: g as GroupFigures })),
          },
          { caption: 'bySection', head: 'section', rows: report.bySection.map((g) => ({ label: g.section, group: g as GroupFigures })) },
          { caption: 'bySystem', head: 'system', rows: report.bySystem.map((g) => ({ label: g.system, group: g as GroupFigures })) },
          ...(report.byWeekday
            ? [
                {
                  caption: 'byWeekday',
                  head: 'weekday',
                  rows: report.byWeekday.map((g) => ({ label: weekdayName(lang, g.weekday), group: g as GroupFigures })),
                },
              ]
            : []),
          ...(byDate
            ? [
                {
                  caption: 'byDate',
                  head: 'date',
                  rows: byDate.map((g) => {
                    const day = formatDay(lang, g.date)
                    return {
                      label: `${day.gregorian} — ${day.hijri}`,
                      // Each date whole on its line: the line may break between the two calendars, never inside one.
                      content: (
                        <>
                          <span className="nowrap">{day.gregorian}</span> <span className="nowrap muted">{day.hijri}</span>
                        </>
                      ),
                      group: g as GroupFigures,
                    }
                  }),
                },
              ]
            : []),
        ].map((table) => (
          <GroupTable
            key={table.caption}
            caption={t(`absence-report.tables.${table.caption}`)}
            groupHeader={t(`absence-report.tables.${table.head}`)}
            rows={table.rows}
            columns={groupColumns}
          />
        ))}
      </section>

      <SkippedRows rows={report.skipped} />
    </>
  )
}

/** A tier's name with its colour beside it (the colour only repeats the word). */
function TierMark({ tier }: { tier: AbsenceTier | null }) {
  const { t } = useT()
  return (
    <span className={`tier-mark${tier ? ` tone-${tierTones[tier]}` : ''}`}>
      <span className="legend-swatch" aria-hidden="true" />
      {t(`absence.tiers.names.${tier ?? 'none'}`)}
    </span>
  )
}

/**
 * The tiers: what they mean with the teacher's thresholds (and where to change them), the count
 * in each, then per classroom a stacked bar of the shares and a table of the counts.
 */
function TiersSection({ tiers, settingsHref }: { tiers: AbsenceTiers; settingsHref: string }) {
  const { t } = useT()
  const lang = useLang()
  const count = (v: number) => formatNumber(lang, v)
  const boundary = (v: number) => formatNumber(lang, v / 100, { style: 'percent', maximumFractionDigits: 2 })
  const name = (tier: AbsenceTier) => t(`absence.tiers.names.${tier}`)
  const { summary, thresholds } = tiers
  const share = (g: TierTally, tier: AbsenceTier) => (g.students > 0 ? percent(g[tier], g.students) : 0)
  const classroomLabel = (g: { grade: string; classroom: string }) => `${g.grade} / ${g.classroom}`
  const rows: ChartRow[] = tiers.byClassroom.map((g) => ({
    key: classroomLabel(g),
    label: classroomLabel(g),
    segments: tierKeys.map((tier) => ({ key: tier, label: name(tier), value: share(g, tier), tone: tierTones[tier] })),
  }))
  const hasNoTier = summary.noTier > 0
  // A no-break space: a count never leaves its share on a narrow table.
  const cell = (tier: AbsenceTier) => (g: TierTally) => `${count(g[tier])}\u00a0(${formatRate(lang, share(g, tier))})`
  return (
    <section className="report-section" aria-labelledby="tiers-title">
      <h2 id="tiers-title">{t('absence.tiers.title')}</h2>
      <p className="muted">
        {t('absence.tiers.lead', {
          atRisk: boundary(thresholds.atRisk),
          chronic: boundary(thresholds.chronic),
          severe: boundary(thresholds.severe),
        })}
      </p>
      <p>
        <a href={settingsHref}>{t('absence.tiers.change')}</a>
      </p>
      <KeyFigures items={tierKeys.map((tier) => ({ label: name(tier), value: count(summary[tier]), tone: tierTones[tier] }))} />
      <p className="tiers-total">{t('absence.tiers.atRiskOrWorse', { count: summary.atRisk + summary.chronic + summary.severe })}</p>
      {hasNoTier ? <p className="muted">{t('absence.tiers.noTierCount', { count: summary.noTier })}</p> : null}
      <div className="chart-grid">
        <StackedBarChart
          id="chart-tiers"
          title={t('absence.tiers.byClassroom')}
          note={t('absence.tiers.chartNote')}
          rows={rows}
          formatValue={(v) => formatRate(lang, v)}
        />
      </div>
      <GroupTable<TierTally>
        caption={t('absence.tiers.byClassroom')}
        groupHeader={t('absence-report.tables.classroom')}
        rows={[
          ...tiers.byClassroom.map((g: ClassroomTiers) => ({ label: classroomLabel(g), group: g as TierTally })),
          { label: t('absence.tiers.overall'), group: summary },
        ]}
        columns={[
          { header: t('absence.tiers.students'), cell: (g) => count(g.students) },
          ...tierKeys.map((tier) => ({ header: name(tier), cell: cell(tier) })),
          ...(hasNoTier ? [{ header: t('absence.tiers.names.none'), cell: (g: TierTally) => count(g.noTier) }] : []),
        ]}
      />
    </section>
  )
}
