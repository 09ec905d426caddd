import { Form } from 'react-router'
import { useLang, useT } from '#app/i18n/use-t.ts'

/** What an analysis recognised in its file (the analyses' `recognised` object), as the report shows it. */
export interface RecognisedView {
  readonly layout: string
  readonly sheets: number
  readonly sheetsSkipped: number
  readonly classrooms: number
  readonly students: number | null
  readonly idsIgnored?: boolean
  readonly schoolDays?: number
  readonly period?: { readonly from: string; readonly to: string } | null
  readonly gradeCodes?: readonly string[]
  readonly assumedMaxima?: Readonly<Record<string, number>>
}

/**
 * The line the report opens with ("Noor absence totals · 2 sheets · 2 classrooms · 35 students ·
 * 1447/03/01 – 1447/04/15 · 33 school days"), the notes a teacher needs to trust the figures,
 * and, for totals, the school days with a way to change them (the page recomputes the report).
 */
export function RecognisedSummary({
  recognised,
  schoolDaysForm,
}: {
  recognised: RecognisedView
  schoolDaysForm?: { action: string; analysisId: string; max: number; error?: string | null }
}) {
  const { t } = useT()
  const list = useLang() === 'ar' ? '، ' : ', '
  const parts = [
    t(`analyses.recognised.layouts.${recognised.layout}`),
    t('analyses.recognised.sheets', { count: recognised.sheets }),
    t('analyses.recognised.classrooms', { count: recognised.classrooms }),
    ...(recognised.students === null ? [] : [t('analyses.recognised.students', { count: recognised.students })]),
    ...(recognised.period ? [t('analyses.recognised.period', { from: recognised.period.from, to: recognised.period.to })] : []),
    ...(recognised.schoolDays !== undefined ? [t('analyses.recognised.schoolDays', { count: recognised.schoolDays })] : []),
  ]
  const assumed = Object.entries(recognised.assumedMaxima ?? {})
  return (
    <section className="report-section recognised" aria-labelledby="recognised-title">
      <h2 id="recognised-title">{t('analyses.recognised.title')}</h2>
      <p className="recognised-line">
        {parts.map((part, i) => (
          <span key={part}>
            {i > 0 ? ' · ' : null}
            <bdi>{part}</bdi>
          </span>
        ))}
      </p>
      {recognised.sheetsSkipped > 0 ? (
        <p className="muted">{t('analyses.recognised.sheetsSkipped', { count: recognised.sheetsSkipped })}</p>
      ) : null}
      {recognised.idsIgnored ? <p className="muted">{t('analyses.recognised.idsIgnored')}</p> : null}
      {recognised.gradeCodes?.length ? (
        <p className="muted">{t('analyses.recognised.gradeCodes', { codes: recognised.gradeCodes.join(list) })}</p>
      ) : null}
      {assumed.length ? (
        <p className="muted">
          {t('analyses.recognised.assumedMaxima', {
            list: assumed.map(([subject, max]) => t('analyses.recognised.assumedMax', { subject, max })).join(list),
          })}
        </p>
      ) : null}
      {schoolDaysForm && recognised.schoolDays !== undefined ? (
        <Form method="get" action={schoolDaysForm.action} className="form school-days-form">
          <input type="hidden" name="id" value={schoolDaysForm.analysisId} />
          <div className="field">
            <label htmlFor="school-days">{t('analyses.recognised.schoolDaysLabel')}</label>
            <p className="field-hint" id="school-days-hint">
              {t('analyses.recognised.schoolDaysHint')}
            </p>
            <input
              id="school-days"
              name="days"
              type="number"
              inputMode="numeric"
              min={1}
              max={schoolDaysForm.max}
              step={1}
              required
              defaultValue={recognised.schoolDays}
              aria-describedby={schoolDaysForm.error ? 'school-days-hint school-days-error' : 'school-days-hint'}
              aria-invalid={schoolDaysForm.error ? true : undefined}
            />
            {schoolDaysForm.error ? (
              <p className="field-error" id="school-days-error" role="alert">
                {t(schoolDaysForm.error)}
              </p>
            ) : null}
          </div>
          <button type="submit" className="button button-ghost">
            {t('analyses.recognised.schoolDaysSubmit')}
          </button>
        </Form>
      ) : null}
    </section>
  )
}
