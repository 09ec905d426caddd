import { Form } from 'react-router'
import { formatDay, formatNumber, formatRate } from '#app/i18n/format.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { AppLink } from '#app/ui/app-link.tsx'
import { FormField } from '#app/ui/form-field.tsx'
import { KeyFigures } from '#app/ui/report-parts.tsx'
import { dayOf, type Comparison, type UploadFigures, type UploadHead } from './figures.ts'

export interface CompareViewData {
  /** The teacher's absence analyses to choose from, newest first. */
  readonly choices: readonly UploadHead[]
  readonly a: string | null
  readonly b: string | null
  readonly comparison: (Comparison & { readonly a: UploadFigures; readonly b: UploadFigures }) | null
  readonly error: string | null
}

const classroomLabel = (g: { grade: string; classroom: string }) => `${g.grade} / ${g.classroom}`
/** A title inside a sentence of the other direction keeps its own (first-strong isolate). */
const isolated = (text: string) => `\u2068${text}\u2069`

/** Two analyses side by side: the choice, the change per classroom, the rises, the new steps. */
export function AbsenceCompareView({ data }: { data: CompareViewData }) {
  const { t } = useT()
  const lang = useLang()
  const rate = (v: number) => formatRate(lang, v)
  const day = (u: Pick<UploadHead, 'to' | 'createdAt'>) => formatDay(lang, dayOf(u)).gregorian
  // A change carries its sign: a fall in attendance reads as one without colour.
  const signed = (v: number, text: string) => `${v > 0 ? '+' : v < 0 ? '−' : ''}${text}`
  const points = (v: number) => signed(v, t('absence-trends.compare.classrooms.points', { value: formatNumber(lang, Math.abs(v)) }))
  const days = (v: number) => signed(v, formatNumber(lang, Math.abs(v)))
  const c = data.comparison
  const stepName = (s: { stepName: string | null; document: string }) => s.stepName ?? t(`absence-trends.documents.${s.document}`)
  return (
    <>
      <section className="report-section" aria-labelledby="compare-choose-title">
        <h2 id="compare-choose-title" className="visually-hidden">
          {t('absence-trends.compare.submit')}
        </h2>
        {data.choices.length < 2 ? (
          <p>{t('absence-trends.compare.needTwo')}</p>
        ) : (
          <Form method="get" className="form compare-form" aria-labelledby="compare-choose-title">
            {(['a', 'b'] as const).map((side) => (
              <FormField
                key={side}
                id={`compare-${side}`}
                label={t(`absence-trends.compare.${side}`)}
                errors={side === 'b' && data.error ? [data.error] : undefined}
              >
                {(p) => (
                  <select {...p} name={side} defaultValue={data[side] ?? ''}>
                    {data.choices.map((u) => (
                      <option key={u.id} value={u.id}>
                        {t('absence-trends.compare.option', { title: isolated(u.title), date: isolated(day(u)) })}
                      </option>
                    ))}
                  </select>
                )}
              </FormField>
            ))}
            <button type="submit" className="button button-primary">
              {t('absence-trends.compare.submit')}
            </button>
          </Form>
        )}
      </section>

      {c ? (
        <>
          <section className="report-section" aria-labelledby="compare-classrooms-title">
            <p className="compare-sides">
              <span>{t('absence-trends.compare.from', { title: isolated(c.a.title), date: day(c.a) })}</span>
              <span>{t('absence-trends.compare.to', { title: isolated(c.b.title), date: day(c.b) })}</span>
            </p>
            <KeyFigures
              isSmall
              items={[
                { label: t('absence-trends.compare.students.matched'), value: formatNumber(lang, c.students.matched) },
                { label: t('absence-trends.compare.students.joined'), value: formatNumber(lang, c.students.joined) },
                { label: t('absence-trends.compare.students.left'), value: formatNumber(lang, c.students.left) },
              ]}
            />
            <h2 id="compare-classrooms-title">{t('absence-trends.compare.classrooms.title')}</h2>
            {/* oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- scrolls on a phone: the keyboard can scroll it */}
            <div className="table-wrap table-sticky" tabIndex={0} role="region" aria-labelledby="compare-classrooms-title">
              <table className="data-table">
                <thead>
                  <tr>
                    <th scope="col">{t('absence-trends.compare.classrooms.classroom')}</th>
                    {(['attendanceA', 'attendanceB', 'attendanceChange', 'unexcusedA', 'unexcusedB', 'unexcusedChange'] as const).map(
                      (k) => (
                        <th key={k} scope="col" className="num">
                          {t(`absence-trends.compare.classrooms.${k}`)}
                        </th>
                      ),
                    )}
                  </tr>
                </thead>
                <tbody>
                  {c.classrooms.map((g) => (
                    <tr key={classroomLabel(g)}>
                      <th scope="row">{classroomLabel(g)}</th>
                      <td className="num">{g.a ? rate(g.a.attendanceRate) : '—'}</td>
                      <td className="num">{g.b ? rate(g.b.attendanceRate) : '—'}</td>
                      <td className="num nowrap">{g.change ? points(g.change.attendanceRate) : '—'}</td>
                      <td className="num">{g.a ? formatNumber(lang, g.a.unexcused) : '—'}</td>
                      <td className="num">{g.b ? formatNumber(lang, g.b.unexcused) : '—'}</td>
                      <td className="num">{g.change ? days(g.change.unexcused) : '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>

          <section className="report-section" aria-labelledby="compare-rose-title">
            <h2 id="compare-rose-title">{t('absence-trends.compare.rose.title')}</h2>
            <p className="muted">{t('absence-trends.compare.rose.lead')}</p>
            {c.roseMost.length ? (
              // oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- scrolls on a phone: the keyboard can scroll it
              <div className="table-wrap table-sticky" tabIndex={0} role="region" aria-labelledby="compare-rose-title">
                <table className="data-table">
                  <thead>
                    <tr>
                      <th scope="col">{t('absence-trends.compare.rose.student')}</th>
                      <th scope="col">{t('absence-trends.compare.rose.classroom')}</th>
                      {(['absentA', 'absentB', 'change', 'unexcusedChange'] as const).map((k) => (
                        <th key={k} scope="col" className="num">
                          {t(`absence-trends.compare.rose.${k}`)}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {c.roseMost.map((s) => (
                      <tr key={`${s.name}-${s.studentId ?? ''}-${classroomLabel(s)}`}>
                        <th scope="row">{s.name}</th>
                        <td>
                          {classroomLabel(s)}
                          {s.previousClassroom ? (
                            <span className="muted">
                              {' '}
                              ({t('absence-trends.compare.rose.moved', { classroom: classroomLabel(s.previousClassroom) })})
                            </span>
                          ) : null}
                        </td>
                        <td className="num">{formatNumber(lang, s.a.absent)}</td>
                        <td className="num">{formatNumber(lang, s.b.absent)}</td>
                        <td className="num">{days(s.change.absent)}</td>
                        <td className="num">{days(s.change.unexcused)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : (
              <p>{t('absence-trends.compare.rose.none')}</p>
            )}
          </section>

          <section className="report-section" aria-labelledby="compare-steps-title">
            <h2 id="compare-steps-title">{t('absence-trends.compare.steps.title')}</h2>
            <p className="muted">{t('absence-trends.compare.steps.lead')}</p>
            {c.newToStep.length ? (
              <>
                {/* oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- scrolls on a phone: the keyboard can scroll it */}
                <div className="table-wrap table-sticky" tabIndex={0} role="region" aria-labelledby="compare-steps-title">
                  <table className="data-table">
                    <thead>
                      <tr>
                        <th scope="col">{t('absence-trends.compare.steps.student')}</th>
                        <th scope="col">{t('absence-trends.compare.steps.classroom')}</th>
                        <th scope="col">{t('absence-trends.compare.steps.step')}</th>
                        <th scope="col" className="num">
                          {t('absence-trends.compare.steps.before')}
                        </th>
                        <th scope="col" className="num">
                          {t('absence-trends.compare.steps.unexcused')}
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {c.newToStep.map((s) => (
                        <tr key={`${s.name}-${s.studentId ?? ''}-${classroomLabel(s)}`}>
                          <th scope="row">{s.name}</th>
                          <td>{classroomLabel(s)}</td>
                          <td>{stepName(s)}</td>
                          <td className="num">
                            {s.previousUnexcused === null ? t('absence-trends.compare.steps.new') : formatNumber(lang, s.previousUnexcused)}
                          </td>
                          <td className="num">{formatNumber(lang, s.unexcused)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
                {c.newToStepTotal > c.newToStep.length ? (
                  <p className="muted">{t('absence-trends.compare.steps.more', { shown: c.newToStep.length, total: c.newToStepTotal })}</p>
                ) : null}
              </>
            ) : (
              <p>{t('absence-trends.compare.steps.none')}</p>
            )}
          </section>
        </>
      ) : null}
      <p>
        <AppLink to="absence-trends">{t('absence-trends.compare.toTrends')}</AppLink>
      </p>
    </>
  )
}
