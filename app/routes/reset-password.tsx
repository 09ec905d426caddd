import { Form, redirect, useNavigation } from 'react-router'
import { z } from '#app/lib/zod-mini.ts'
import { confirmationField, newPasswordField, passwordsMatch } from '#app/features/accounts/schemas.ts'
import {
  clearResetFlowCookie,
  flashCookie,
  readResetFlowToken,
  requireGuest,
  resetFlowUserId,
  resetPassword,
} from '#app/features/accounts/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useT } from '#app/i18n/use-t.ts'
import { parseForm, runForm } from '#app/lib/action.server.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { localPath } from '#app/ui/app-link.tsx'
import { FormErrorNotice } from '#app/ui/form-error-notice.tsx'
import { FormField } from '#app/ui/form-field.tsx'
import { useSchemaForm } from '#app/ui/use-schema-form.ts'
import type { Route } from './+types/reset-password'

const fields = ['password', 'password_confirmation'] as const
// The page form: the temporary token is in its cookie, not in the form.
const schema = z.object({ password: newPasswordField, password_confirmation: confirmationField }).check(passwordsMatch)

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  await requireGuest(request, context, lang)
  const token = readResetFlowToken(request)
  if (!token || !(await resetFlowUserId({ ...context, token, stage: 'verified' }))) throw redirect(localPath(lang, 'forget-password'))
  return { messages: getMessages(lang, ['accounts']) }
}

// Re-exported, not declared here: the actions' own `headers` variables would shadow it.
export { keepRetryAfter as headers } from '#app/lib/route-headers.ts'

export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  await requireGuest(request, context, lang)
  const parsed = parseForm(schema, await request.formData(), fields)
  if (!parsed.ok) return parsed.response
  return runForm({}, async () => {
    await resetPassword({ ...context, input: { temporary_token: readResetFlowToken(request) ?? '', password: parsed.data.password } })
    const headers = new Headers()
    headers.append('Set-Cookie', clearResetFlowCookie(context.env))
    headers.append('Set-Cookie', flashCookie('success', 'accounts.messages.resetDone'))
    throw redirect(localPath(lang, 'login'), { headers })
  })
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'accounts.meta.reset', 'reset-password', { noindex: true })

export default function ResetPassword({ actionData }: Route.ComponentProps) {
  const { t } = useT()
  const navigation = useNavigation()
  const serverErrors = actionData && !actionData.ok ? actionData.errors : undefined
  const { errors, onSubmit } = useSchemaForm(schema, fields, serverErrors)
  return (
    <>
      <h1>{t('accounts.reset.title')}</h1>
      <p className="muted">{t('accounts.reset.lead')}</p>
      <FormErrorNotice errors={errors} />
      <Form method="post" noValidate className="form" onSubmit={onSubmit}>
        <FormField
          id="reset-password"
          label={t('accounts.fields.newPassword')}
          hint={t('accounts.fields.passwordHint')}
          errors={errors.password}
          required
        >
          {(p) => <input {...p} name="password" type="password" dir="ltr" autoComplete="new-password" maxLength={128} required />}
        </FormField>
        <FormField id="reset-confirm" label={t('accounts.fields.confirmPassword')} errors={errors.password_confirmation} required>
          {(p) => (
            <input {...p} name="password_confirmation" type="password" dir="ltr" autoComplete="new-password" maxLength={128} required />
          )}
        </FormField>
        <button type="submit" className="button button-primary" disabled={navigation.state === 'submitting'}>
          {t('accounts.reset.submit')}
        </button>
      </Form>
    </>
  )
}
