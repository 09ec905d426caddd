import { formatNumber } from '#app/i18n/format.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import type { LadderStep } from '#app/features/follow-up/index.ts'
import type { AbsenceSteps, StepTally } from './steps.ts'

/** A step's name: the teacher's, else the document's standard name in the page's language. */
export function useStepName() {
  const { t } = useT()
  return (step: Pick<LadderStep, 'name' | 'document'> | null) =>
    step === null ? t('followUp.steps.none') : (step.name ?? t(`followUp.documents.${step.document}`))
}

/**
 * The follow-up steps of the report (issue 18): what the ladder is (and where to change it), how
 * many students reached a step, and the students at each step per classroom.
 */
export function StepsSection({ steps, settingsHref, registerHref }: { steps: AbsenceSteps; settingsHref: string; registerHref: string }) {
  const { t } = useT()
  const lang = useLang()
  const stepName = useStepName()
  const count = (v: number) => formatNumber(lang, v)
  const list = new Intl.ListFormat(lang, { type: 'conjunction' }).format(
    steps.ladder.map((s) => t('followUp.steps.stepDays', { name: stepName(s), days: count(s.days) })),
  )
  const rows: { label: string; tally: StepTally }[] = [
    ...steps.byClassroom.map((g) => ({ label: `${g.grade} / ${g.classroom}`, tally: g })),
    { label: t('followUp.steps.overall'), tally: steps.summary },
  ]
  return (
    <section className="report-section" aria-labelledby="steps-title">
      <h2 id="steps-title">{t('followUp.steps.title')}</h2>
      <p className="muted">{t('followUp.steps.lead', { steps: list })}</p>
      <p>
        <a href={settingsHref}>{t('followUp.steps.change')}</a> · <a href={registerHref}>{t('followUp.steps.toRegister')}</a>
      </p>
      <p className="tiers-total">{t('followUp.steps.reached', { count: steps.summary.reached })}</p>
      {/* Scrolls sideways on a phone; focusable so a keyboard can scroll it (axe scrollable-region-focusable). */}
      {/* oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <div className="table-wrap table-sticky" tabIndex={0} role="region" aria-labelledby="steps-table-caption">
        <table className="data-table">
          <caption id="steps-table-caption">{t('followUp.steps.byClassroom')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('followUp.steps.classroom')}</th>
              {steps.ladder.map((s, i) => (
                <th key={i} scope="col" className="num">
                  {stepName(s)}
                </th>
              ))}
              <th scope="col" className="num">
                {t('followUp.steps.total')}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.label}>
                <th scope="row">{row.label}</th>
                {steps.ladder.map((_, i) => (
                  <td key={i} className="num">
                    {count(row.tally.atStep[i] ?? 0)}
                  </td>
                ))}
                <td className="num">{count(row.tally.reached)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}
