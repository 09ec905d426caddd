import { Form } from 'react-router'
import { dirOf } from '#app/i18n/config.ts'
import { formatDay, formatNumber, formatRate } from '#app/i18n/format.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { AppLink } from '#app/ui/app-link.tsx'
import { LineChart } from '#app/ui/charts.tsx'
import { FormField } from '#app/ui/form-field.tsx'
import { KeyFigures } from '#app/ui/report-parts.tsx'
import { dayOf, timelineLimit, type ClassroomTimeline, type Point, type StudentTimeline, type UploadFigures } from './figures.ts'
import type { TrendSchool } from './trends.server.ts'

export interface TrendsViewData {
  readonly schools: readonly TrendSchool[]
  readonly school: string | null
  readonly uploads: readonly UploadFigures[]
  readonly classrooms: readonly ClassroomTimeline[]
  readonly students: readonly StudentTimeline[] | null
  /** The classroom charted (`grade / classroom`), one of `classrooms`. */
  readonly classroom: string | null
  readonly q: string | null
  readonly searchError: string | null
}

const classroomLabel = (g: { grade: string; classroom: string }) => `${g.grade} / ${g.classroom}`

/**
 * The trend page's body. Time runs with the reading direction everywhere: in the charts (right to
 * left in Arabic) and in the tables, whose columns go from the oldest upload at the inline start
 * to the newest at the inline end.
 */
export function AbsenceTrendsView({ data }: { data: TrendsViewData }) {
  const { t } = useT()
  const lang = useLang()
  const { uploads } = data
  const rate = (v: number) => formatRate(lang, v)
  const dayLabel = (u: UploadFigures) => formatDay(lang, dayOf(u)).gregorian
  const schoolParam = data.school ?? ''
  const charted = data.classrooms.find((c) => classroomLabel(c) === data.classroom) ?? data.classrooms[0] ?? null
  const cell = (p: Point | null) =>
    p ? t('absence-trends.classrooms.cell', { rate: rate(p.attendanceRate), days: t('absence-trends.days', { count: p.unexcused }) }) : '—'
  const along = <P,>(points: readonly (P | null)[]) => points.flatMap((p, i) => (p && uploads[i] ? [{ point: p, upload: uploads[i] }] : []))

  return (
    <>
      <section className="report-section" aria-labelledby="school-title">
        <h2 id="school-title" className="visually-hidden">
          {t('absence-trends.school')}
        </h2>
        {data.schools.length === 0 ? (
          <p>{t('absence-trends.empty')}</p>
        ) : (
          <Form method="get" className="form inline-form" aria-labelledby="school-title">
            <FormField id="trend-school" label={t('absence-trends.school')}>
              {(p) => (
                <select {...p} name="school" defaultValue={schoolParam}>
                  {data.schools.map((s) => (
                    <option key={s.school ?? ''} value={s.school ?? ''}>
                      {t('absence-trends.schoolOption', {
                        school: `\u2068${s.school ?? t('absence-trends.noSchool')}\u2069`,
                        count: s.analyses,
                      })}
                    </option>
                  ))}
                </select>
              )}
            </FormField>
            <button type="submit" className="button button-primary">
              {t('absence-trends.show')}
            </button>
          </Form>
        )}
        {uploads.length === 1 ? <p className="muted">{t('absence-trends.one')}</p> : null}
      </section>

      {uploads.length > 0 ? (
        <>
          <section className="report-section" aria-labelledby="uploads-title">
            <h2 id="uploads-title">{t('absence-trends.uploads.title')}</h2>
            <div className="chart-grid">
              <LineChart
                id="chart-school"
                title={t('absence-trends.charts.school')}
                dir={dirOf(lang)}
                labels={uploads.map(dayLabel)}
                formatValue={rate}
                series={[
                  {
                    key: 'attendance',
                    label: t('absence-trends.charts.attendance'),
                    tone: 'present',
                    values: uploads.map((u) => u.attendanceRate),
                  },
                  {
                    key: 'unexcused',
                    label: t('absence-trends.charts.unexcused'),
                    tone: 'unexcused',
                    values: uploads.map((u) => u.unexcusedRate),
                  },
                ]}
              />
            </div>
            {/* oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- scrolls on a phone: the keyboard can scroll it */}
            <div className="table-wrap" tabIndex={0} role="region" aria-labelledby="uploads-title">
              <table className="data-table">
                <thead>
                  <tr>
                    <th scope="col">{t('absence-trends.uploads.upload')}</th>
                    <th scope="col">{t('absence-trends.uploads.period')}</th>
                    <th scope="col" className="num">
                      {t('absence-trends.uploads.attendance')}
                    </th>
                    <th scope="col" className="num">
                      {t('absence-trends.uploads.unexcused')}
                    </th>
                    <th scope="col" className="num">
                      {t('absence-trends.uploads.students')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {uploads.map((u) => (
                    <tr key={u.id}>
                      <th scope="row">
                        <AppLink to={`single-analysis?id=${u.id}`}>{u.title}</AppLink>
                      </th>
                      <td className="nowrap">{dayLabel(u)}</td>
                      <td className="num">{rate(u.attendanceRate)}</td>
                      <td className="num">{formatNumber(lang, u.unexcused)}</td>
                      <td className="num">{formatNumber(lang, u.students)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {uploads.length >= 2 ? (
              <p>
                <AppLink to={`absence-compare?a=${uploads.at(-2)?.id}&b=${uploads.at(-1)?.id}`}>{t('absence-trends.toCompare')}</AppLink>
              </p>
            ) : null}
          </section>

          <section className="report-section" aria-labelledby="classrooms-title">
            <h2 id="classrooms-title">{t('absence-trends.classrooms.title')}</h2>
            <p className="muted">{t('absence-trends.classrooms.lead')}</p>
            {charted ? (
              <div className="chart-grid">
                <LineChart
                  id="chart-classroom"
                  title={`${t('absence-trends.charts.classrooms')}: ${classroomLabel(charted)}`}
                  dir={dirOf(lang)}
                  labels={along(charted.points).map(({ upload }) => dayLabel(upload))}
                  formatValue={rate}
                  series={[
                    {
                      key: 'attendance',
                      label: t('absence-trends.charts.attendance'),
                      tone: 'present',
                      values: along(charted.points).map(({ point }) => point.attendanceRate),
                    },
                  ]}
                />
              </div>
            ) : null}
            {/* oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- scrolls on a phone: the keyboard can scroll it */}
            <div className="table-wrap table-sticky" tabIndex={0} role="region" aria-labelledby="classrooms-title">
              <table className="data-table trend-table">
                <thead>
                  <tr>
                    <th scope="col">{t('absence-trends.classrooms.classroom')}</th>
                    {uploads.map((u) => (
                      <th key={u.id} scope="col" className="nowrap">
                        {dayLabel(u)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {data.classrooms.map((c) => (
                    <tr key={classroomLabel(c)}>
                      <th scope="row">
                        <AppLink
                          to={`absence-trends?school=${encodeURIComponent(schoolParam)}&classroom=${encodeURIComponent(classroomLabel(c))}#classrooms-title`}
                          aria-current={c === charted ? 'true' : undefined}
                        >
                          {classroomLabel(c)}
                        </AppLink>
                      </th>
                      {c.points.map((p, i) => (
                        <td key={uploads[i]?.id ?? i} className="nowrap">
                          {cell(p)}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>

          <section className="report-section" aria-labelledby="student-trend-title">
            <h2 id="student-trend-title">{t('absence-trends.search.title')}</h2>
            <Form method="get" className="form search-form" role="search" aria-labelledby="student-trend-title">
              <input type="hidden" name="school" value={schoolParam} />
              <FormField
                id="trend-q"
                label={t('absence-trends.search.label')}
                hint={t('absence-trends.search.hint')}
                errors={data.searchError ? [data.searchError] : undefined}
              >
                {(p) => <input {...p} name="q" type="search" defaultValue={data.q ?? ''} autoComplete="off" maxLength={120} />}
              </FormField>
              <button type="submit" className="button button-primary">
                {t('absence-trends.search.submit')}
              </button>
            </Form>
            {data.students ? (
              <div className="search-results" aria-live="polite">
                <p>
                  {data.students.length
                    ? t('absence-trends.search.found', { count: data.students.length })
                    : t('absence-trends.search.none')}
                </p>
                {data.students.map((s) => (
                  <StudentTrend key={s.key} student={s} uploads={uploads} />
                ))}
              </div>
            ) : null}
          </section>
        </>
      ) : null}
    </>
  )
}

function StudentTrend({ student, uploads }: { student: StudentTimeline; uploads: readonly UploadFigures[] }) {
  const { t } = useT()
  const lang = useLang()
  const rate = (v: number) => formatRate(lang, v)
  const shown = student.points.flatMap((p, i) => (p && uploads[i] ? [{ point: p, upload: uploads[i] }] : []))
  const id = `student-${student.key.replace(/[^\w]/g, '').slice(0, 24) || 'x'}-${shown.length}`
  const latest = shown.at(-1)?.point
  return (
    <article className="card student-card" aria-labelledby={`${id}-name`}>
      <h3 id={`${id}-name`}>{student.name}</h3>
      <p className="muted">{classroomLabel(student)}</p>
      {latest ? (
        <KeyFigures
          isSmall
          items={[
            { label: t('absence-trends.uploads.attendance'), value: rate(latest.attendanceRate), tone: 'present' },
            { label: t('absence-trends.uploads.unexcused'), value: formatNumber(lang, latest.unexcused), tone: 'unexcused' },
          ]}
        />
      ) : null}
      <LineChart
        id={`${id}-chart`}
        title={t('absence-trends.charts.student', { name: student.name })}
        dir={dirOf(lang)}
        labels={shown.map(({ upload }) => formatDay(lang, dayOf(upload)).gregorian)}
        formatValue={rate}
        series={[
          {
            key: 'attendance',
            label: t('absence-trends.charts.attendance'),
            tone: 'present',
            values: shown.map(({ point }) => point.attendanceRate),
          },
        ]}
      />
      {/* oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- scrolls on a phone: the keyboard can scroll it */}
      <div className="table-wrap" tabIndex={0} role="region" aria-labelledby={`${id}-name`}>
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{t('absence-trends.uploads.period')}</th>
              <th scope="col">{t('absence-trends.search.classroomThen')}</th>
              <th scope="col" className="num">
                {t('absence-trends.uploads.attendance')}
              </th>
              <th scope="col" className="num">
                {t('absence-trends.uploads.unexcused')}
              </th>
            </tr>
          </thead>
          <tbody>
            {student.points.map((p, i) => {
              const u = uploads[i]
              if (!u) return null
              return (
                <tr key={u.id}>
                  <th scope="row" className="nowrap">
                    {formatDay(lang, dayOf(u)).gregorian}
                  </th>
                  {p ? (
                    <>
                      <td className="nowrap">{classroomLabel(p)}</td>
                      <td className="num">{rate(p.attendanceRate)}</td>
                      <td className="num">{formatNumber(lang, p.unexcused)}</td>
                    </>
                  ) : (
                    <td colSpan={3} className="muted">
                      {t('absence-trends.search.notIn')}
                    </td>
                  )}
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
    </article>
  )
}

export { timelineLimit }
