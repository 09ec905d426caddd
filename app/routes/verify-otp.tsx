import { useEffect, useState } from 'react'
import { data, Form, redirect, useNavigation } from 'react-router'
import { z } from '#app/lib/zod-mini.ts'
import { codeField, emailField } from '#app/features/accounts/schemas.ts'
import {
  activateAccount,
  confirmEmailChange,
  confirmPasswordChange,
  findUserByEmail,
  findUserById,
  flashCookie,
  getCurrentSession,
  readResetFlowToken,
  requireGuest,
  requireUser,
  resendCode,
  resendWaitSeconds,
  resetFlowCookie,
  resetFlowUserId,
  startWebSession,
  verifyResetCode,
} from '#app/features/accounts/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import type { Lang } from '#app/i18n/config.ts'
import { formFailure, runForm } from '#app/lib/action.server.ts'
import { fieldErrorsOf } from '#app/lib/forms.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import type { RequestContext } from '#app/platform/context.server.ts'
import { localPath } from '#app/ui/app-link.tsx'
import { FormErrorNotice } from '#app/ui/form-error-notice.tsx'
import { FormField } from '#app/ui/form-field.tsx'
import { SLOT, WithSlot } from '#app/ui/with-slot.tsx'
import type { Route } from './+types/verify-otp'

const purposes = ['activation', 'reset', 'change_email', 'change_password'] as const
type Purpose = (typeof purposes)[number]

function purposeOf(request: Request): Purpose {
  const value = new URL(request.url).searchParams.get('purpose')
  return (purposes as readonly string[]).includes(value ?? '') ? (value as Purpose) : 'activation'
}

/** Who the code belongs to, and the guard for each purpose: guests activate and reset; teachers change. */
async function subjectOf(request: Request, context: RequestContext, lang: Lang, purpose: Purpose) {
  if (purpose === 'change_email' || purpose === 'change_password') {
    const { user } = await requireUser(request, context, lang)
    return { userId: user.id, email: user.email }
  }
  await requireGuest(request, context, lang)
  if (purpose === 'reset') {
    const token = readResetFlowToken(request)
    const userId = token ? await resetFlowUserId({ ...context, token, stage: 'code_sent' }) : undefined
    if (userId === undefined) throw redirect(localPath(lang, 'forget-password'))
    return { userId, email: null }
  }
  const email = emailField.safeParse(new URL(request.url).searchParams.get('email') ?? '')
  if (!email.success) throw redirect(localPath(lang, 'SignIn'))
  const user = await findUserByEmail({ db: context.db, email: email.data })
  return { userId: user?.id ?? null, email: email.data }
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const purpose = purposeOf(request)
  const subject = await subjectOf(request, context, lang, purpose)
  const wait = subject.userId ? await resendWaitSeconds({ db: context.db, userId: subject.userId, purpose }) : 0
  return { messages: getMessages(lang, ['accounts']), purpose, email: subject.email, resendIn: wait }
}

// Re-exported, not declared here: the actions' own `headers` variables would shadow it.
export { keepRetryAfter as headers } from '#app/lib/route-headers.ts'

export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  const purpose = purposeOf(request)
  const subject = await subjectOf(request, context, lang, purpose)
  const form = await request.formData()
  const intent = form.get('intent')
  return runForm({}, async () => {
    if (intent === 'resend') {
      const current = await getCurrentSession(request, context)
      // A reset for an unknown email has no one to send to; the page answers the same.
      const owner = !subject.email && subject.userId ? await findUserById({ db: context.db, id: subject.userId }) : null
      const email = subject.email ?? owner?.email ?? null
      if (email) await resendCode({ ...context, input: { email, purpose, lang }, currentUser: current?.user ?? null })
      return data({ ok: true as const, resent: true })
    }
    const parsed = z.object({ code: codeField }).safeParse({ code: form.get('code') ?? '' })
    if (!parsed.success) return formFailure(422, fieldErrorsOf(parsed.error), {})
    const code = parsed.data.code
    switch (purpose) {
      case 'activation': {
        const user = await activateAccount({ ...context, input: { email: subject.email ?? '', code } })
        const headers = new Headers()
        headers.append('Set-Cookie', await startWebSession({ ...context, request, userId: user.id }))
        headers.append('Set-Cookie', flashCookie('success', 'accounts.messages.activated'))
        // Her full name is asked next, once (she may skip it).
        throw redirect(localPath(lang, 'full-name'), { headers })
      }
      case 'reset': {
        const token = readResetFlowToken(request) ?? ''
        const next = await verifyResetCode({ ...context, input: { temporary_token: token, code } })
        throw redirect(localPath(lang, 'reset-password'), { headers: { 'Set-Cookie': resetFlowCookie(context.env, next.temporaryToken) } })
      }
      case 'change_password': {
        const { user } = await requireUser(request, context, lang)
        await confirmPasswordChange({ ...context, user, input: { code } })
        // Every session ended with the old password; this device signs in again.
        const headers = new Headers()
        headers.append('Set-Cookie', await startWebSession({ ...context, request, userId: user.id }))
        headers.append('Set-Cookie', flashCookie('success', 'accounts.messages.passwordChanged'))
        throw redirect(localPath(lang, 'profile'), { headers })
      }
      case 'change_email': {
        const { user } = await requireUser(request, context, lang)
        await confirmEmailChange({ ...context, user, input: { code } })
        throw redirect(localPath(lang, 'profile'), { headers: { 'Set-Cookie': flashCookie('success', 'accounts.profile.emailChanged') } })
      }
    }
  })
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'accounts.meta.verify', 'verify-otp', { noindex: true })

/** Counts down from the server's figure; the server refuses an early resend anyway (429). */
function useCountdown(start: number) {
  const [left, setLeft] = useState(start)
  useEffect(() => setLeft(start), [start])
  useEffect(() => {
    if (left <= 0) return
    const timer = window.setTimeout(() => setLeft((n) => n - 1), 1000)
    return () => window.clearTimeout(timer)
  }, [left])
  return left
}

export default function VerifyOtp({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  const navigation = useNavigation()
  const resent = actionData && 'resent' in actionData
  const left = useCountdown(resent ? 60 : loaderData.resendIn)
  const errors = actionData && 'errors' in actionData ? actionData.errors : {}
  const back =
    loaderData.purpose === 'change_email' || loaderData.purpose === 'change_password'
      ? 'profile'
      : loaderData.purpose === 'reset'
        ? 'forget-password'
        : 'SignIn'
  return (
    <>
      <h1>{t('accounts.verify.title')}</h1>
      <p className="muted">{t(`accounts.verify.lead.${loaderData.purpose}`)}</p>
      {resent ? (
        <div className="notice notice-success" role="status">
          <p>{t('accounts.verify.resent')}</p>
        </div>
      ) : null}
      <FormErrorNotice errors={errors} />
      <Form method="post" noValidate className="form">
        <FormField
          id="otp-code"
          label={t('accounts.fields.code')}
          hint={
            loaderData.email ? (
              <WithSlot text={t('accounts.fields.codeHint', { email: SLOT })}>
                <bdi dir="ltr">{loaderData.email}</bdi>
              </WithSlot>
            ) : undefined
          }
          errors={errors.code}
          required
        >
          {(p) => (
            <input
              {...p}
              name="code"
              className="otp-input"
              dir="ltr"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={12}
              required
            />
          )}
        </FormField>
        <button type="submit" name="intent" value="verify" className="button button-primary" disabled={navigation.state === 'submitting'}>
          {t('accounts.verify.submit')}
        </button>
      </Form>
      <Form method="post" className="resend-form">
        <button
          type="submit"
          name="intent"
          value="resend"
          className="button button-ghost"
          disabled={left > 0}
          aria-describedby="resend-status"
        >
          {t('accounts.verify.resend')}
        </button>
        <p id="resend-status" className="muted" aria-live="polite">
          {left > 0 ? t('accounts.verify.resendIn', { seconds: left }) : ''}
        </p>
      </Form>
      <p className="auth-alt">
        <a href={localPath(lang, back)}>{t('accounts.verify.back')}</a>
      </p>
    </>
  )
}
