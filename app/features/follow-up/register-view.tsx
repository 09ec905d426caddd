import { Form } from 'react-router'
import { formatDay, formatNumber } from '#app/i18n/format.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import type { FieldErrors } from '#app/lib/forms.ts'
import { ConfirmDelete } from '#app/ui/confirm-delete.tsx'
import { FormErrorNotice } from '#app/ui/form-error-notice.tsx'
import { FormField } from '#app/ui/form-field.tsx'
import { KeyFigures } from '#app/ui/report-parts.tsx'
import type { LadderStep } from './ladder.ts'
import { registerStatuses, type ClassroomFollowUp, type RegisterEntry } from './register-status.ts'

/** A student owed a document, as the page shows it (`ref` names the student to the form). */
export interface OutstandingRow {
  readonly ref: string
  readonly name: string
  readonly grade: string
  readonly classroom: string
  readonly unexcused: number
  readonly step: number
  readonly ladderStep: LadderStep
  readonly analysisTitle: string
}

export interface RegisterPageData {
  readonly schoolYear: number
  readonly schoolYears: readonly number[]
  readonly reached: number
  readonly outstanding: readonly OutstandingRow[]
  readonly issued: readonly RegisterEntry[]
  readonly byClassroom: readonly ClassroomFollowUp[]
}

/** A form the server refused: which one (`target`: a student's ref and step, or an entry's id), its errors and what was typed. */
export interface RegisterFailure {
  readonly target: string
  readonly errors: FieldErrors
  readonly values: Record<string, string>
}

const classroomLabel = (c: { grade: string; classroom: string }) => `${c.grade} / ${c.classroom}`

/**
 * The follow-up register page (docs/follow-up.md): per classroom the students at a step, the
 * documents issued and those still due; the students owed a document, each with a form to record
 * it; the entries, each with its status and notes to change. Every form works without JavaScript.
 */
export function FollowUpRegisterView({
  data,
  failure,
  issuedBy,
  today,
  exportHref,
  settingsHref,
  uploadHref,
  isBusy,
}: {
  data: RegisterPageData
  failure: RegisterFailure | null
  /** Who issues, filled in: the teacher's name as her documents print it. */
  issuedBy: string
  /** Today as YYYY-MM-DD, the date filled in. */
  today: string
  exportHref: (format: 'xlsx' | 'pdf') => string
  settingsHref: string
  uploadHref: string
  isBusy: boolean
}) {
  const { t } = useT()
  const lang = useLang()
  const count = (v: number) => formatNumber(lang, v)
  const stepName = (s: Pick<LadderStep, 'name' | 'document'>) => s.name ?? t(`followUp.documents.${s.document}`)
  const yearLabel = (y: number) => t('follow-up-register.yearValue', { start: String(y), end: String(y + 1) })
  const statusCount = (status: RegisterEntry['status']) => data.issued.filter((e) => e.status === status).length
  const failed = (target: string) => (failure?.target === target ? failure : null)

  return (
    <>
      <section className="section">
        <div className="container">
          <p className="muted">{t('follow-up-register.rules')}</p>
          <div className="register-bar">
            <Form method="get" className="form register-year">
              <div className="field">
                <label htmlFor="register-year">{t('follow-up-register.year')}</label>
                <select id="register-year" name="year" defaultValue={String(data.schoolYear)}>
                  {(data.schoolYears.length ? data.schoolYears : [data.schoolYear]).map((y) => (
                    <option key={y} value={y}>
                      {yearLabel(y)}
                    </option>
                  ))}
                </select>
              </div>
              <button type="submit" className="button button-ghost">
                {t('follow-up-register.showYear')}
              </button>
            </Form>
            <p className="register-links">
              <a className="button button-ghost" href={exportHref('xlsx')} download>
                {t('follow-up-register.exports.xlsx')}
              </a>{' '}
              <a className="button button-ghost" href={exportHref('pdf')} download>
                {t('follow-up-register.exports.pdf')}
              </a>{' '}
              <a href={settingsHref}>{t('follow-up-register.ladderLink')}</a>
            </p>
          </div>

          <section className="report-section" aria-labelledby="register-figures">
            <h2 id="register-figures">{yearLabel(data.schoolYear)}</h2>
            <KeyFigures
              items={[
                { label: t('follow-up-register.figures.reached'), value: count(data.reached) },
                { label: t('follow-up-register.figures.outstanding'), value: count(data.outstanding.length), tone: 'unexcused' },
                { label: t('follow-up-register.figures.issued'), value: count(data.issued.length), tone: 'present' },
                { label: t('follow-up-register.figures.signed'), value: count(statusCount('signed')) },
                { label: t('follow-up-register.figures.declined'), value: count(statusCount('declined')) },
                { label: t('follow-up-register.figures.awaiting'), value: count(statusCount('awaiting')) },
              ]}
            />
          </section>

          <section className="report-section" aria-labelledby="register-classrooms">
            <h2 id="register-classrooms">{t('follow-up-register.byClassroom.title')}</h2>
            {data.byClassroom.length ? (
              // A table that scrolls on a phone takes the keyboard's focus so it can be scrolled (axe scrollable-region-focusable).
              // oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex
              <div className="table-wrap" tabIndex={0} role="region" aria-labelledby="register-classrooms">
                <table className="data-table">
                  <thead>
                    <tr>
                      <th scope="col">{t('follow-up-register.byClassroom.classroom')}</th>
                      <th scope="col" className="num">
                        {t('follow-up-register.byClassroom.reached')}
                      </th>
                      <th scope="col" className="num">
                        {t('follow-up-register.byClassroom.issued')}
                      </th>
                      <th scope="col" className="num">
                        {t('follow-up-register.byClassroom.outstanding')}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.byClassroom.map((c) => (
                      <tr key={classroomLabel(c)}>
                        <th scope="row">{classroomLabel(c)}</th>
                        <td className="num">{count(c.reached)}</td>
                        <td className="num">{count(c.issued)}</td>
                        <td className="num">{count(c.outstanding)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : (
              <p>
                {t('follow-up-register.noAnalyses')} <a href={uploadHref}>{t('follow-up-register.uploadLink')}</a>
              </p>
            )}
          </section>

          <section className="report-section" aria-labelledby="register-outstanding">
            <h2 id="register-outstanding">{t('follow-up-register.outstanding.title')}</h2>
            <p className="muted">{t('follow-up-register.outstanding.lead')}</p>
            <p className="tiers-total" aria-live="polite">
              {t('follow-up-register.outstanding.count', { count: data.outstanding.length })}
            </p>
            <ul className="register-list">
              {data.outstanding.map((s) => {
                const target = `${s.ref}:${s.step}`
                const f = failed(target)
                const errors = f?.errors ?? {}
                const typed = f?.values ?? {}
                const id = `issue-${s.ref}-${s.step}`
                return (
                  <li key={target} className="card register-card">
                    <h3>{s.name}</h3>
                    {/* The classroom isolated: an Arabic name must not carry the figures beside it into its direction. */}
                    <p className="muted">
                      <bdi>{classroomLabel(s)}</bdi> · {t('follow-up-register.outstanding.days', { count: s.unexcused })} ·{' '}
                      {t('follow-up-register.outstanding.fromAnalysis', { analysis: s.analysisTitle })}
                    </p>
                    <p>
                      <span className="step-badge">{stepName(s.ladderStep)}</span>
                    </p>
                    <details className="register-record" open={Boolean(f)}>
                      <summary className="button button-primary button-small">
                        {t('follow-up-register.outstanding.record', { step: stepName(s.ladderStep) })}
                      </summary>
                      <FormErrorNotice errors={errors} />
                      <Form method="post" className="form register-form">
                        <input type="hidden" name="intent" value="issue" />
                        <input type="hidden" name="student" value={s.ref} />
                        <input type="hidden" name="step" value={s.step} />
                        <input type="hidden" name="school_year" value={data.schoolYear} />
                        <EntryFields idPrefix={id} errors={errors} typed={typed} issuedBy={issuedBy} today={today} />
                        <button type="submit" className="button button-primary" disabled={isBusy}>
                          {t('follow-up-register.outstanding.submit')}
                        </button>
                      </Form>
                    </details>
                  </li>
                )
              })}
            </ul>
            {data.outstanding.length === 0 ? <p>{t('follow-up-register.outstanding.none')}</p> : null}
          </section>

          <section className="report-section" aria-labelledby="register-issued">
            <h2 id="register-issued">{t('follow-up-register.issued.title')}</h2>
            {data.issued.length === 0 ? <p>{t('follow-up-register.issued.none')}</p> : null}
            <ul className="register-list">
              {data.issued.map((e) => {
                const f = failed(e.id)
                const errors = f?.errors ?? {}
                const typed = f?.values ?? {}
                const day = formatDay(lang, e.issuedOn)
                return (
                  <li key={e.id} className={`card register-card status-${e.status}`}>
                    <h3>{e.studentName}</h3>
                    <p className="muted">
                      <bdi>{classroomLabel(e)}</bdi>
                      {e.studentId ? ` · ${t('follow-up-register.issued.studentId')} ${e.studentId}` : ''}
                    </p>
                    <dl className="register-facts">
                      <div>
                        <dt>{t('follow-up-register.issued.step')}</dt>
                        <dd>
                          {t('follow-up-register.issued.stepValue', {
                            step: stepName({ name: e.stepName, document: e.document }),
                            days: count(e.stepDays),
                          })}
                        </dd>
                      </div>
                      <div>
                        <dt>{t('follow-up-register.issued.issuedOn')}</dt>
                        <dd>
                          <span className="nowrap">{day.gregorian}</span> <span className="nowrap muted">{day.hijri}</span>
                        </dd>
                      </div>
                      <div>
                        <dt>{t('follow-up-register.issued.issuedBy')}</dt>
                        <dd>{e.issuedBy}</dd>
                      </div>
                      <div>
                        <dt>{t('follow-up-register.issued.status')}</dt>
                        <dd className="register-status">{t(`follow-up-register.statuses.${e.status}`)}</dd>
                      </div>
                    </dl>
                    <details className="register-record" open={Boolean(f)}>
                      <summary className="button button-ghost button-small">
                        {t('follow-up-register.issued.editTitle', {
                          step: stepName({ name: e.stepName, document: e.document }),
                          name: e.studentName,
                        })}
                      </summary>
                      <FormErrorNotice errors={errors} />
                      <Form method="post" className="form register-form">
                        <input type="hidden" name="intent" value="update" />
                        <input type="hidden" name="id" value={e.id} />
                        <EntryFields
                          idPrefix={`entry-${e.id}`}
                          errors={errors}
                          typed={typed}
                          issuedBy={e.issuedBy}
                          today={e.issuedOn}
                          status={e.status}
                          notes={e.notes}
                        />
                        <button type="submit" className="button button-primary" disabled={isBusy}>
                          {t('follow-up-register.issued.save')}
                        </button>
                      </Form>
                      <ConfirmDelete
                        id={e.id}
                        small
                        label={t('follow-up-register.issued.delete')}
                        message={t('follow-up-register.issued.deleteConfirm')}
                        confirmLabel={t('follow-up-register.issued.delete')}
                      />
                    </details>
                    {e.notes ? <p className="register-notes">{e.notes}</p> : null}
                  </li>
                )
              })}
            </ul>
          </section>
        </div>
      </section>
    </>
  )
}

/** Date, issuer, status and notes: the same fields to record a document and to change one. */
function EntryFields({
  idPrefix,
  errors,
  typed,
  issuedBy,
  today,
  status = 'awaiting',
  notes = '',
}: {
  idPrefix: string
  errors: FieldErrors
  typed: Record<string, string>
  issuedBy: string
  today: string
  status?: RegisterEntry['status']
  notes?: string
}) {
  const { t } = useT()
  return (
    <div className="register-fields">
      <FormField id={`${idPrefix}-on`} label={t('follow-up-register.issued.issuedOn')} errors={errors.issued_on} required>
        {(p) => <input {...p} name="issued_on" type="date" required defaultValue={typed.issued_on ?? today} />}
      </FormField>
      <FormField id={`${idPrefix}-by`} label={t('follow-up-register.issued.issuedBy')} errors={errors.issued_by} required>
        {(p) => <input {...p} name="issued_by" type="text" required maxLength={120} defaultValue={typed.issued_by ?? issuedBy} />}
      </FormField>
      <FormField id={`${idPrefix}-status`} label={t('follow-up-register.issued.status')} errors={errors.status}>
        {(p) => (
          <select {...p} name="status" defaultValue={typed.status ?? status}>
            {registerStatuses.map((s) => (
              <option key={s} value={s}>
                {t(`follow-up-register.statuses.${s}`)}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField id={`${idPrefix}-notes`} label={t('follow-up-register.issued.notes')} errors={errors.notes}>
        {(p) => <textarea {...p} name="notes" rows={2} maxLength={1000} defaultValue={typed.notes ?? notes} />}
      </FormField>
    </div>
  )
}
