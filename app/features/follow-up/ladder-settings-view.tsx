import { Form } from 'react-router'
import { formatNumber } from '#app/i18n/format.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import type { FieldErrors } from '#app/lib/forms.ts'
import { FormErrorNotice } from '#app/ui/form-error-notice.tsx'
import { FormField } from '#app/ui/form-field.tsx'
import { useSchemaForm } from '#app/ui/use-schema-form.ts'
import { ladderDocuments, ladderLimits, ladderPresetNames, presetOf, type LadderStep } from './ladder.ts'
import { ladderFormFields, ladderFormRows, ladderFormSchema, ladderFormValues } from './ladder-form.ts'

/**
 * The ladder's part of the absence settings page: a ready ladder to choose, or the steps to edit
 * (one row per step and an empty row to add one; "delete" ticks a step off). Works without
 * JavaScript; with it, the same schema as the server checks before sending.
 */
export function LadderSettings({
  steps,
  errors: serverErrors,
  typed,
  isBusy,
}: {
  steps: readonly LadderStep[]
  /** The steps form's errors and what was typed, when the server refused it. */
  errors: FieldErrors | undefined
  typed: Record<string, string> | undefined
  isBusy: boolean
}) {
  const { t } = useT()
  const lang = useLang()
  const { errors, onSubmit } = useSchemaForm(ladderFormSchema, ladderFormFields, serverErrors)
  const preset = presetOf(steps)
  const values = typed ?? ladderFormValues(steps)
  // The saved (or typed) steps, then one empty row for a new step while there is room.
  const filled = Array.from({ length: ladderFormRows }, (_, i) => i).filter(
    (i) => (values[`days_${i}`] ?? '') !== '' || (values[`name_${i}`] ?? '') !== '',
  )
  const last = filled.length ? Math.max(...filled) : -1
  const rows = Array.from({ length: Math.min(last + 2, ladderLimits.maxSteps) }, (_, i) => i)
  return (
    <article className="card" aria-labelledby="ladder-title">
      <h2 id="ladder-title">{t('followUp.ladder.title')}</h2>
      <p className="muted">{t('followUp.ladder.lead')}</p>
      <p className="notice notice-info ladder-source">{t('followUp.ladder.source')}</p>
      <p>
        {t('followUp.ladder.current', {
          name: preset ? t(`followUp.ladder.presetNames.${preset}`) : t('followUp.ladder.custom'),
        })}
      </p>

      <h3>{t('followUp.ladder.presetsTitle')}</h3>
      <Form method="post" className="form">
        <input type="hidden" name="intent" value="ladder-preset" />
        <fieldset className="ladder-presets">
          <legend>{t('followUp.ladder.presetLegend')}</legend>
          {ladderPresetNames.map((name) => (
            <label key={name} className="method-option">
              <input type="radio" name="preset" value={name} defaultChecked={(preset ?? 'standard') === name} />
              <span>{t(`followUp.ladder.presets.${name}`)}</span>
            </label>
          ))}
        </fieldset>
        <button type="submit" className="button button-ghost" disabled={isBusy}>
          {t('followUp.ladder.choosePreset')}
        </button>
      </Form>

      <h3 id="ladder-steps-title" className="ladder-steps-title">
        {t('followUp.ladder.stepsTitle')}
      </h3>
      <p className="muted">{t('followUp.ladder.stepsLead')}</p>
      <FormErrorNotice errors={errors} />
      <Form method="post" noValidate className="form ladder-form" onSubmit={onSubmit} aria-labelledby="ladder-steps-title">
        <input type="hidden" name="intent" value="ladder-steps" />
        {rows.map((i) => {
          const isNew = i > last
          return (
            <fieldset key={i} className="ladder-step">
              <legend>
                {isNew ? t('followUp.ladder.newStepLegend') : t('followUp.ladder.stepLegend', { number: formatNumber(lang, i + 1) })}
              </legend>
              <FormField id={`ladder-days-${i}`} label={t('followUp.ladder.days')} errors={errors[`days_${i}`]} required={!isNew}>
                {(p) => (
                  <input
                    {...p}
                    name={`days_${i}`}
                    type="text"
                    inputMode="numeric"
                    autoComplete="off"
                    maxLength={4}
                    defaultValue={values[`days_${i}`] ?? ''}
                  />
                )}
              </FormField>
              <FormField
                id={`ladder-name-${i}`}
                label={t('followUp.ladder.name')}
                hint={t('followUp.ladder.nameHint')}
                errors={errors[`name_${i}`]}
              >
                {(p) => (
                  <input
                    {...p}
                    name={`name_${i}`}
                    type="text"
                    autoComplete="off"
                    maxLength={ladderLimits.maxNameLength}
                    defaultValue={values[`name_${i}`] ?? ''}
                  />
                )}
              </FormField>
              <FormField id={`ladder-document-${i}`} label={t('followUp.ladder.document')} errors={errors[`document_${i}`]}>
                {(p) => (
                  <select
                    {...p}
                    name={`document_${i}`}
                    defaultValue={values[`document_${i}`] ?? ladderDocuments[Math.min(i, ladderDocuments.length - 1)]}
                  >
                    {ladderDocuments.map((d) => (
                      <option key={d} value={d}>
                        {t(`followUp.documents.${d}`)}
                      </option>
                    ))}
                  </select>
                )}
              </FormField>
              {isNew ? null : (
                <label className="ladder-remove">
                  <input type="checkbox" name={`remove_${i}`} defaultChecked={values[`remove_${i}`] === 'on'} />
                  <span>{t('followUp.ladder.remove')}</span>
                </label>
              )}
            </fieldset>
          )
        })}
        <button type="submit" className="button button-primary" disabled={isBusy}>
          {t('followUp.ladder.submit')}
        </button>
      </Form>
    </article>
  )
}
