import { Form, redirect, useNavigation, useSearchParams } from 'react-router'
import { loginSchema } from '#app/features/accounts/schemas.ts'
import {
  flashCookie,
  isFullNameToAsk,
  requireGuest,
  resendCode,
  signIn,
  startWebSession,
  twoFactorCookie,
} from '#app/features/accounts/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { parseForm, runForm } from '#app/lib/action.server.ts'
import { safeRedirect } from '#app/lib/safe-redirect.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink, localPath } from '#app/ui/app-link.tsx'
import { AuthShell } from '#app/ui/auth-shell.tsx'
import { FormErrorNotice } from '#app/ui/form-error-notice.tsx'
import { FormField } from '#app/ui/form-field.tsx'
import { useSchemaForm } from '#app/ui/use-schema-form.ts'
import type { Route } from './+types/login'
import { staticForGuests } from '#app/document/static-pages.ts'

const fields = ['email', 'password'] as const

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
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get('redirectTo') ?? form.get('redirectTo'), localPath(lang))
  if (form.get('intent') === 'resend-activation') {
    const email = String(form.get('email') ?? '')
      .trim()
      .toLowerCase()
    return runForm({ email }, async () => {
      await resendCode({ ...context, input: { email, purpose: 'activation', lang } })
      throw redirect(`${localPath(lang, 'verify-otp')}?purpose=activation&email=${encodeURIComponent(email)}`, {
        headers: { 'Set-Cookie': flashCookie('success', 'accounts.messages.codeSent') },
      })
    })
  }
  const parsed = parseForm(loginSchema, form, fields)
  if (!parsed.ok) return parsed.response
  return runForm(parsed.values, async () => {
    const { user, challenge } = await signIn({ ...context, input: parsed.data })
    if (challenge !== null) {
      // The second factor is on: the code from the app finishes signing in.
      throw redirect(`${localPath(lang, 'two-factor')}?redirectTo=${encodeURIComponent(redirectTo)}`, {
        headers: { 'Set-Cookie': twoFactorCookie(context.env, challenge) },
      })
    }
    const headers = new Headers()
    headers.append('Set-Cookie', await startWebSession({ ...context, request, userId: user.id }))
    headers.append('Set-Cookie', flashCookie('success', 'accounts.messages.loggedIn'))
    // An account never asked for its full name is asked now, once, then goes on.
    throw redirect(isFullNameToAsk(user) ? `${localPath(lang, 'full-name')}?redirectTo=${encodeURIComponent(redirectTo)}` : redirectTo, {
      headers,
    })
  })
}

// Sent to guests without React in the browser (app/document/static-pages.ts): the form is checked on
// the server, with the same schema, and the enhancement script puts the focus on the first error.
export const handle = staticForGuests

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'accounts.meta.login', 'login', { noindex: true })

export default function Login({ actionData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  const [search] = useSearchParams()
  const navigation = useNavigation()
  const serverErrors = actionData && !actionData.ok ? actionData.errors : undefined
  const { errors, onSubmit } = useSchemaForm(loginSchema, fields, serverErrors)
  const values = actionData && !actionData.ok ? actionData.values : {}
  const notActivated = errors._form?.includes('accounts.errors.notActivated')
  const redirectTo = search.get('redirectTo') ?? ''
  return (
    <AuthShell>
      <h1>{t('accounts.login.title')}</h1>
      <p className="muted">{t('accounts.login.lead')}</p>
      <FormErrorNotice errors={errors} />
      {notActivated ? (
        <Form method="post" className="notice notice-info">
          <p>{t('accounts.login.notActivatedHint')}</p>
          <input type="hidden" name="email" value={values.email ?? ''} />
          <button type="submit" name="intent" value="resend-activation" className="button button-ghost button-small">
            {t('accounts.login.sendCode')}
          </button>
        </Form>
      ) : null}
      <Form method="post" noValidate className="form" onSubmit={onSubmit}>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <FormField id="login-email" label={t('accounts.fields.email')} errors={errors.email} required>
          {(p) => (
            <input {...p} name="email" type="email" dir="ltr" autoComplete="email" maxLength={254} defaultValue={values.email} required />
          )}
        </FormField>
        <FormField id="login-password" label={t('accounts.fields.password')} errors={errors.password} required>
          {(p) => <input {...p} name="password" type="password" dir="ltr" autoComplete="current-password" maxLength={128} required />}
        </FormField>
        <p className="form-aside">
          <AppLink to="forget-password">{t('accounts.login.forgot')}</AppLink>
        </p>
        <button type="submit" className="button button-primary" disabled={navigation.state === 'submitting'}>
          {t('accounts.login.submit')}
        </button>
      </Form>
      <p className="auth-alt">
        {t('accounts.login.noAccount')} <a href={localPath(lang, 'SignIn')}>{t('accounts.login.register')}</a>
      </p>
    </AuthShell>
  )
}
