import { useLang, useT } from '#app/i18n/use-t.ts'
import type { LadderDocument } from './ladder.ts'

export interface StepDocumentsBlockProps {
  readonly analysisId: string
  /** Every step of the ladder in force with its count of students (stepDocumentsSummary). */
  readonly steps: readonly {
    readonly number: number
    readonly days: number
    readonly name: string | null
    readonly document: LadderDocument
    readonly students: number
    /** The classrooms of the step's students (`grade / classroom`), to print one classroom's letters. */
    readonly classrooms: readonly string[]
  }[]
  /** Whether the teacher has entered her school's details (else the letters leave lines for them). */
  readonly hasSchool: boolean
}

/**
 * The report's "Letters by step": each step of the ladder with its count of students and its
 * letters (PDF) and list (Excel), for all classrooms or one. Plain GET forms: the downloads work
 * without a script.
 */
export function StepDocumentsBlock({ analysisId, steps, hasSchool }: StepDocumentsBlockProps) {
  const { t } = useT()
  const lang = useLang()
  const base = `/${lang}/analyses/${analysisId}/steps`
  return (
    <section className="report-section step-documents" aria-labelledby="step-documents-title">
      <h2 id="step-documents-title">{t('letters.block.title')}</h2>
      <p className="muted">{t('letters.block.lead')}</p>
      {hasSchool ? null : (
        <p className="notice notice-info">
          {t('letters.block.schoolMissing')} <a href={`/${lang}/profile#school`}>{t('letters.block.schoolLink')}</a>
        </p>
      )}
      <ol className="step-documents-list">
        {steps.map((step) => {
          const title = step.name ?? t(`letters.documents.${step.document}.title`)
          const headingId = `step-${step.number}-title`
          return (
            <li key={step.number} className="step-documents-step" aria-labelledby={headingId}>
              <div className="step-documents-head">
                <h3 id={headingId}>{t('letters.block.step', { number: step.number, document: title, count: step.days })}</h3>
                <span className={step.students > 0 ? 'badge-inline' : 'muted'}>
                  {t('letters.block.students', { count: step.students })}
                </span>
              </div>
              {step.students > 0 ? (
                <form method="get" action={`${base}/${step.number}/letters.pdf`} className="step-documents-form">
                  {step.classrooms.length > 1 ? (
                    <div className="field">
                      <label htmlFor={`step-${step.number}-classroom`}>{t('letters.block.classroom')}</label>
                      <select id={`step-${step.number}-classroom`} name="classroom" defaultValue="">
                        <option value="">{t('letters.block.allClassrooms')}</option>
                        {step.classrooms.map((c) => (
                          <option key={c} value={c}>
                            {c}
                          </option>
                        ))}
                      </select>
                    </div>
                  ) : null}
                  <div className="step-documents-actions">
                    <button type="submit" className="button button-primary" aria-describedby={headingId}>
                      {t('letters.block.pdf')}
                    </button>
                    <button
                      type="submit"
                      formAction={`${base}/${step.number}/letters.xlsx`}
                      className="button button-ghost"
                      aria-describedby={headingId}
                    >
                      {t('letters.block.excel')}
                    </button>
                  </div>
                </form>
              ) : null}
            </li>
          )
        })}
      </ol>
    </section>
  )
}
