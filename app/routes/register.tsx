import { Form, redirect, useNavigation } from 'react-router'
import { registerSchema } from '#app/features/accounts/schemas.ts'
import { flashCookie, registerUser, requireGuest } from '#app/features/accounts/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { parseForm, runForm } from '#app/lib/action.server.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink, localPath } from '#app/ui/app-link.tsx'
import { FormErrorNotice } from '#app/ui/form-error-notice.tsx'
import { FileChooser } from '#app/ui/file-chooser.tsx'
import { FormField } from '#app/ui/form-field.tsx'
import { SLOT, WithSlot } from '#app/ui/with-slot.tsx'
import { useSchemaForm } from '#app/ui/use-schema-form.ts'
import type { Route } from './+types/register'
import { staticForGuests } from '#app/document/static-pages.ts'

const fields = ['username', 'email', 'phone', 'password', 'password_confirmation', 'terms'] as const

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  await requireGuest(request, context, lang)
  return { messages: getMessages(lang, ['accounts']) }
}

// Re-exported, not declared here: the actions' own `headers` variables would shadow it.
export { keepRetryAfter as headers } from '#app/lib/route-headers.ts'

export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  await requireGuest(request, context, lang)
  const form = await request.formData()
  const parsed = parseForm(registerSchema, form, fields)
  if (!parsed.ok) return parsed.response
  const avatar = form.get('avatar')
  const avatarBytes = avatar instanceof File && avatar.size > 0 ? new Uint8Array(await avatar.arrayBuffer()) : null
  return runForm(parsed.values, async () => {
    const user = await registerUser({ ...context, input: { ...parsed.data, lang, avatar: avatarBytes } })
    throw redirect(`${localPath(lang, 'verify-otp')}?purpose=activation&email=${encodeURIComponent(user.email)}`, {
      headers: { 'Set-Cookie': flashCookie('success', 'accounts.messages.registered') },
    })
  })
}

// Sent to guests without React in the browser (app/document/static-pages.ts): the form is checked on
// the server, with the same schema, and the enhancement script puts the focus on the first error.
export const handle = staticForGuests

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'accounts.meta.signIn', 'SignIn', { noindex: true })

export default function SignIn({ actionData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  const navigation = useNavigation()
  const serverErrors = actionData && !actionData.ok ? actionData.errors : undefined
  const { errors, onSubmit } = useSchemaForm(registerSchema, fields, serverErrors)
  const values = actionData && !actionData.ok ? actionData.values : {}
  return (
    <>
      <h1>{t('accounts.signIn.title')}</h1>
      <p className="muted">{t('accounts.signIn.lead')}</p>
      <FormErrorNotice errors={errors} />
      <Form method="post" encType="multipart/form-data" noValidate className="form" onSubmit={onSubmit}>
        <FormField id="su-username" label={t('accounts.fields.username')} errors={errors.username} required>
          {(p) => <input {...p} name="username" autoComplete="username" maxLength={40} defaultValue={values.username} required />}
        </FormField>
        <FormField id="su-email" label={t('accounts.fields.email')} errors={errors.email} required>
          {(p) => (
            <input {...p} name="email" type="email" dir="ltr" autoComplete="email" maxLength={254} defaultValue={values.email} required />
          )}
        </FormField>
        <FormField id="su-phone" label={t('accounts.fields.phone')} hint={t('accounts.fields.phoneHint')} errors={errors.phone} required>
          {(p) => (
            <input
              {...p}
              name="phone"
              type="tel"
              dir="ltr"
              inputMode="tel"
              autoComplete="tel"
              maxLength={20}
              defaultValue={values.phone}
              required
            />
          )}
        </FormField>
        <FormField
          id="su-password"
          label={t('accounts.fields.password')}
          hint={t('accounts.fields.passwordHint')}
          errors={errors.password}
          required
        >
          {(p) => <input {...p} name="password" type="password" dir="ltr" autoComplete="new-password" maxLength={128} required />}
        </FormField>
        <FormField id="su-confirm" label={t('accounts.fields.confirmPassword')} errors={errors.password_confirmation} required>
          {(p) => (
            <input {...p} name="password_confirmation" type="password" dir="ltr" autoComplete="new-password" maxLength={128} required />
          )}
        </FormField>
        <FormField id="su-avatar" label={t('accounts.fields.avatar')} hint={t('accounts.fields.avatarHint')} errors={errors.avatar}>
          {(p) => (
            <FileChooser {...p} name="avatar" accept="image/png,image/jpeg,image/webp" buttonLabel={t('common.fileChooser.chooseImage')} />
          )}
        </FormField>
        <div className={`field field-check${errors.terms ? ' has-error' : ''}`}>
          <label>
            <input
              type="checkbox"
              name="terms"
              value="on"
              aria-invalid={errors.terms ? true : undefined}
              aria-describedby={errors.terms ? 'su-terms-error' : undefined}
              required
            />{' '}
            <span>
              <WithSlot text={t('accounts.fields.terms', { link: SLOT })}>
                <a href={localPath(lang, 'terms')} target="_blank" rel="noopener">
                  {t('accounts.fields.termsLink')}
                </a>
              </WithSlot>
            </span>
          </label>
          <div aria-live="polite">
            {errors.terms ? (
              <p id="su-terms-error" className="field-error">
                {errors.terms.map((k) => t(k)).join(' · ')}
              </p>
            ) : null}
          </div>
        </div>
        <button type="submit" className="button button-primary" disabled={navigation.state === 'submitting'}>
          {t('accounts.signIn.submit')}
        </button>
      </Form>
      <p className="auth-alt">
        {t('accounts.signIn.haveAccount')} <AppLink to="login">{t('accounts.signIn.login')}</AppLink>
      </p>
    </>
  )
}
