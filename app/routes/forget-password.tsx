import { Form, redirect, useNavigation } from 'react-router'
import { forgotPasswordSchema } from '#app/features/accounts/schemas.ts'
import { flashCookie, requestPasswordReset, requireGuest, resetFlowCookie } from '#app/features/accounts/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useT } from '#app/i18n/use-t.ts'
import { parseForm, runForm } from '#app/lib/action.server.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink, localPath } from '#app/ui/app-link.tsx'
import { AuthShell } from '#app/ui/auth-shell.tsx'
import { FormErrorNotice } from '#app/ui/form-error-notice.tsx'
import { FormField } from '#app/ui/form-field.tsx'
import { useSchemaForm } from '#app/ui/use-schema-form.ts'
import type { Route } from './+types/forget-password'
import { staticForGuests } from '#app/document/static-pages.ts'

const fields = ['email'] as const

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
  const parsed = parseForm(forgotPasswordSchema, await request.formData(), fields)
  if (!parsed.ok) return parsed.response
  return runForm(parsed.values, async () => {
    const { temporaryToken } = await requestPasswordReset({ ...context, input: { email: parsed.data.email, lang } })
    const headers = new Headers()
    headers.append('Set-Cookie', resetFlowCookie(context.env, temporaryToken))
    headers.append('Set-Cookie', flashCookie('success', 'accounts.messages.resetSent'))
    throw redirect(`${localPath(lang, 'verify-otp')}?purpose=reset`, { headers })
  })
}

// Sent to guests without React in the browser (app/document/static-pages.ts): the form is checked on
// the server, with the same schema, and the enhancement script puts the focus on the first error.
export const handle = staticForGuests

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'accounts.meta.forgot', 'forget-password', { noindex: true })

export default function ForgetPassword({ actionData }: Route.ComponentProps) {
  const { t } = useT()
  const navigation = useNavigation()
  const serverErrors = actionData && !actionData.ok ? actionData.errors : undefined
  const { errors, onSubmit } = useSchemaForm(forgotPasswordSchema, fields, serverErrors)
  const values = actionData && !actionData.ok ? actionData.values : {}
  return (
    <AuthShell>
      <h1>{t('accounts.forgot.title')}</h1>
      <p className="muted">{t('accounts.forgot.lead')}</p>
      <FormErrorNotice errors={errors} />
      <Form method="post" noValidate className="form" onSubmit={onSubmit}>
        <FormField id="forgot-email" label={t('accounts.fields.email')} errors={errors.email} required>
          {(p) => (
            <input {...p} name="email" type="email" dir="ltr" autoComplete="email" maxLength={254} defaultValue={values.email} required />
          )}
        </FormField>
        <button type="submit" className="button button-primary" disabled={navigation.state === 'submitting'}>
          {t('accounts.forgot.submit')}
        </button>
      </Form>
      <p className="auth-alt">
        <AppLink to="login">{t('accounts.forgot.back')}</AppLink>
      </p>
    </AuthShell>
  )
}
