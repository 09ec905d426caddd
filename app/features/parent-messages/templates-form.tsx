import { Form } from 'react-router'
import { useT } from '#app/i18n/use-t.ts'
import type { FieldErrors } from '#app/lib/forms.ts'
import { FormErrorNotice } from '#app/ui/form-error-notice.tsx'
import { FormField } from '#app/ui/form-field.tsx'
import { useSchemaForm } from '#app/ui/use-schema-form.ts'
import { messageKinds, messageLangs, messageTemplatesSchema, templateField, templateFields, templateMaxLength } from './templates.ts'

/**
 * The parent message templates as a form: Arabic, then English, a text area per escalation
 * document and one for a same-day absence, with the placeholders named once above them. Posts
 * `intent=message-templates` (or `message-templates-defaults` to restore the defaults).
 */
export function MessageTemplatesForm({
  saved,
  typed,
  serverErrors,
  isBusy,
}: {
  /** The teacher's templates as the form writes them (`templatesWire`). */
  saved: Record<string, string>
  /** What she typed, when the server refused it. */
  typed: Record<string, string>
  serverErrors: FieldErrors | undefined
  isBusy: boolean
}) {
  const { t } = useT()
  const { errors, onSubmit } = useSchemaForm(messageTemplatesSchema, templateFields, serverErrors)
  return (
    <article className="card" aria-labelledby="message-templates-title">
      <h2 id="message-templates-title">{t('parent-messages.formTitle')}</h2>
      <p className="muted">{t('parent-messages.placeholders')}</p>
      <FormErrorNotice errors={errors} />
      <Form method="post" noValidate className="form" onSubmit={onSubmit}>
        <input type="hidden" name="intent" value="message-templates" />
        {messageLangs.map((lang) => (
          <fieldset key={lang} className="templates-group">
            <legend>{t(lang === 'ar' ? 'parent-messages.arabic' : 'parent-messages.english')}</legend>
            {messageKinds.map((kind) => {
              const field = templateField(lang, kind)
              return (
                <FormField key={field} id={`template-${field}`} label={t(`parent-messages.kinds.${kind}`)} errors={errors[field]} required>
                  {(p) => (
                    <textarea
                      {...p}
                      name={field}
                      lang={lang}
                      dir={lang === 'ar' ? 'rtl' : 'ltr'}
                      rows={4}
                      maxLength={templateMaxLength}
                      defaultValue={typed[field] ?? saved[field] ?? ''}
                      required
                    />
                  )}
                </FormField>
              )
            })}
          </fieldset>
        ))}
        <button type="submit" className="button button-primary" disabled={isBusy}>
          {t('parent-messages.submit')}
        </button>
      </Form>
      <Form method="post" className="form tiers-restore">
        <input type="hidden" name="intent" value="message-templates-defaults" />
        <button type="submit" className="button button-ghost" disabled={isBusy}>
          {t('parent-messages.restore')}
        </button>
      </Form>
    </article>
  )
}
