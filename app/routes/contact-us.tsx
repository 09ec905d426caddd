import { useEffect } from 'react'
import { data, Form, redirect, useLocation, useNavigation, useRouteLoaderData, useSearchParams } from 'react-router'
import { contactSchema } from '#app/features/content/schemas.ts'
import { flashCookie } from '#app/features/accounts/index.server.ts'
import { sendContactMessage } from '#app/features/content/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useT } from '#app/i18n/use-t.ts'
import { contactMessageTypes } from '#app/lib/constants.ts'
import { fieldErrorsOf, formValues, type FieldErrors } from '#app/lib/forms.ts'
import { useSchemaForm } from '#app/ui/use-schema-form.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { FormField } from '#app/ui/form-field.tsx'
import { SupportList, type SupportContacts } from '#app/ui/site-footer.tsx'
import { useToast } from '#app/ui/toaster.tsx'
import { PageHero } from '#app/ui/page-hero.tsx'
import type { Route } from './+types/contact-us'
import { staticForGuests } from '#app/document/static-pages.ts'
import { localPath } from '#app/ui/app-link.tsx'

// In the order of the form, so the first invalid one gets the focus.
const fields = ['name', 'email', 'type', 'message'] as const

export function loader({ params }: Route.LoaderArgs) {
  return { messages: getMessages(langParam(params), ['contact']) }
}

// Re-exported, not declared here: the actions' own `headers` variables would shadow it.
export { keepRetryAfter as headers } from '#app/lib/route-headers.ts'

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData()
  const values = formValues(form, fields)
  const parsed = contactSchema.safeParse(values)
  if (!parsed.success) {
    return data({ ok: false as const, errors: fieldErrorsOf(parsed.error), values }, { status: 422 })
  }
  const result = await sendContactMessage({
    db: context.db,
    input: parsed.data,
    lang: langParam(params),
    clientIp: context.clientIp,
  })
  if (!result.ok) {
    return data(
      { ok: false as const, errors: { _form: ['common.errors.tooManyRequests'] } as FieldErrors, values },
      { status: 429, headers: { 'Retry-After': String(result.retryAfterSeconds) } },
    )
  }
  // Post, redirect, get: the message shows as a toast on the next page (also without React in
  // the browser), the form comes back empty and a reload does not send it twice.
  throw redirect(`${localPath(langParam(params), 'contact-us')}?sent=1`, {
    headers: { 'Set-Cookie': flashCookie('success', 'contact.sent') },
  })
}

// Sent to guests without React in the browser (app/document/static-pages.ts): the form is checked on
// the server with the same schema; a signed-in teacher gets the React page and instant feedback.
export const handle = staticForGuests

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'contact', 'contact-us')

export default function ContactUs({ actionData }: Route.ComponentProps) {
  const { t } = useT()
  const toast = useToast()
  const root = useRouteLoaderData('root') as { support?: SupportContacts } | undefined
  const navigation = useNavigation()
  const location = useLocation()
  const [search] = useSearchParams()
  const { errors, onSubmit } = useSchemaForm(contactSchema, fields, actionData?.errors)
  const values = actionData?.ok === false ? actionData.values : {}
  const sending = navigation.state === 'submitting'
  const sent = search.get('sent') === '1' && !actionData

  useEffect(() => {
    if (actionData?.errors._form) toast.push('error', t(actionData.errors._form[0] ?? 'common.errors.unexpected'))
    // Only when a new answer arrives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [actionData])

  return (
    <>
      <PageHero title={t('contact.title')} lead={t('contact.lead')} />
      <section className="section">
        <div className="container contact-grid">
          <div className="card">
            <h2>{t('contact.form.title')}</h2>
            {sent ? (
              <div className="notice notice-success" role="status">
                <p>
                  <strong>{t('contact.sent')}</strong>
                </p>
                <p>{t('contact.sentHint')}</p>
              </div>
            ) : null}
            {errors._form ? (
              <div className="notice notice-error" role="alert">
                <p>{errors._form.map((key) => t(key)).join(' ')}</p>
              </div>
            ) : null}
            {/* A new key after each navigation: the fields come back empty after a message was sent. */}
            <Form key={location.key} method="post" noValidate className="form" onSubmit={onSubmit}>
              <FormField id="contact-name" label={t('contact.form.name')} errors={errors.name} required>
                {(props) => (
                  <input {...props} name="name" type="text" autoComplete="name" maxLength={100} defaultValue={values.name} required />
                )}
              </FormField>
              <FormField id="contact-email" label={t('contact.form.email')} errors={errors.email} required>
                {(props) => (
                  <input
                    {...props}
                    name="email"
                    type="email"
                    autoComplete="email"
                    dir="ltr"
                    maxLength={254}
                    defaultValue={values.email}
                    required
                  />
                )}
              </FormField>
              <FormField id="contact-type" label={t('contact.form.type')} errors={errors.type} required>
                {(props) => (
                  <select {...props} name="type" defaultValue={values.type ?? ''} required>
                    <option value="" disabled>
                      {t('contact.form.typePlaceholder')}
                    </option>
                    {contactMessageTypes.map((type) => (
                      <option key={type} value={type}>
                        {t(`contact.types.${type}`)}
                      </option>
                    ))}
                  </select>
                )}
              </FormField>
              <FormField
                id="contact-message"
                label={t('contact.form.message')}
                hint={t('contact.form.messageHint')}
                errors={errors.message}
                required
              >
                {(props) => <textarea {...props} name="message" rows={6} maxLength={5000} defaultValue={values.message} required />}
              </FormField>
              <button type="submit" className="button button-primary" disabled={sending}>
                {sending ? t('common.form.sending') : t('contact.form.submit')}
              </button>
            </Form>
          </div>
          <aside className="card card-plain">
            <h2>{t('contact.direct.title')}</h2>
            <p>{t('contact.direct.lead')}</p>
            {root?.support ? <SupportList support={root.support} /> : null}
            <p className="muted">{t('contact.direct.hours')}</p>
          </aside>
        </div>
      </section>
    </>
  )
}
