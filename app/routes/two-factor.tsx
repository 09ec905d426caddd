import { Form, redirect, useNavigation, useSearchParams } from 'react-router'
import { secondFactorSchema } from '#app/features/accounts/schemas.ts'
import {
  clearTwoFactorCookie,
  isFullNameToAsk,
  completeLoginChallenge,
  flashCookie,
  isLoginChallengeOpen,
  readTwoFactorToken,
  requireGuest,
  startWebSession,
} from '#app/features/accounts/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { parseForm, runForm } from '#app/lib/action.server.ts'
import { safeRedirect } from '#app/lib/safe-redirect.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { localPath } from '#app/ui/app-link.tsx'
import { FormErrorNotice } from '#app/ui/form-error-notice.tsx'
import { FormField } from '#app/ui/form-field.tsx'
import { useSchemaForm } from '#app/ui/use-schema-form.ts'
import type { Route } from './+types/two-factor'

// The second step of signing in, for a teacher who turned the second factor on: the password
// was right; a code from the authenticator app (or a recovery code) signs the device in.

const fields = ['code'] as const

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  await requireGuest(request, context, lang)
  if (!(await isLoginChallengeOpen({ ...context, token: readTwoFactorToken(request) ?? '' }))) {
    const headers = new Headers()
    headers.append('Set-Cookie', clearTwoFactorCookie(context.env))
    headers.append('Set-Cookie', flashCookie('error', 'accounts.errors.twoFactorExpired'))
    throw redirect(localPath(lang, 'login'), { headers })
  }
  return { messages: getMessages(lang, ['accounts']) }
}

// Re-exported, not declared here: the actions' own `headers` variables would shadow it.
export { keepRetryAfter as headers } from '#app/lib/route-headers.ts'

export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  await requireGuest(request, context, lang)
  const form = await request.formData()
  const parsed = parseForm(secondFactorSchema, form, fields)
  if (!parsed.ok) return parsed.response
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get('redirectTo'), localPath(lang))
  return runForm({}, async () => {
    const user = await completeLoginChallenge({ ...context, input: { token: readTwoFactorToken(request) ?? '', code: parsed.data.code } })
    const headers = new Headers()
    headers.append('Set-Cookie', await startWebSession({ ...context, request, userId: user.id }))
    headers.append('Set-Cookie', clearTwoFactorCookie(context.env))
    headers.append('Set-Cookie', flashCookie('success', 'accounts.messages.loggedIn'))
    // An account never asked for its full name is asked now, once, then goes on.
    throw redirect(isFullNameToAsk(user) ? `${localPath(lang, 'full-name')}?redirectTo=${encodeURIComponent(redirectTo)}` : redirectTo, {
      headers,
    })
  })
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'accounts.meta.twoFactor', 'two-factor', { noindex: true })

export default function TwoFactor({ actionData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  const [search] = useSearchParams()
  const navigation = useNavigation()
  const serverErrors = actionData && !actionData.ok ? actionData.errors : undefined
  const { errors, onSubmit } = useSchemaForm(secondFactorSchema, fields, serverErrors)
  const redirectTo = search.get('redirectTo')
  return (
    <>
      <h1>{t('accounts.twoFactor.login.title')}</h1>
      <p className="muted">{t('accounts.twoFactor.login.lead')}</p>
      <FormErrorNotice errors={errors} />
      <Form method="post" noValidate className="form" onSubmit={onSubmit}>
        <FormField
          id="tf-code"
          label={t('accounts.twoFactor.login.code')}
          hint={t('accounts.twoFactor.login.codeHint')}
          errors={errors.code}
          required
        >
          {(p) => (
            <input
              {...p}
              name="code"
              className="otp-input"
              dir="ltr"
              autoComplete="one-time-code"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={16}
              required
            />
          )}
        </FormField>
        <button type="submit" className="button button-primary" disabled={navigation.state === 'submitting'}>
          {t('accounts.twoFactor.login.submit')}
        </button>
      </Form>
      <p className="auth-alt">
        <a href={`${localPath(lang, 'login')}${redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ''}`}>
          {t('accounts.twoFactor.login.back')}
        </a>
      </p>
    </>
  )
}
