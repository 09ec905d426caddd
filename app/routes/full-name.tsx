import { Form, redirect, useNavigation, useSearchParams } from 'react-router'
import { fullNameSchema } from '#app/features/accounts/schemas.ts'
import { answerFullName, isFullNameToAsk, requireUser } from '#app/features/accounts/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useT } from '#app/i18n/use-t.ts'
import { parseForm, runForm } from '#app/lib/action.server.ts'
import { safeRedirect } from '#app/lib/safe-redirect.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { localPath } from '#app/ui/app-link.tsx'
import { FormErrorNotice } from '#app/ui/form-error-notice.tsx'
import { FormField } from '#app/ui/form-field.tsx'
import { useSchemaForm } from '#app/ui/use-schema-form.ts'
import type { Route } from './+types/full-name'

// The step after activation (and after the first sign-in of an account never asked): the full
// name documents and invoices print. Asked once: saved or skipped, it is not asked again; the
// profile changes it later.

const fields = ['full_name_ar', 'full_name_en'] as const

const nextPage = (request: Request, lang: 'ar' | 'en') => safeRedirect(new URL(request.url).searchParams.get('redirectTo'), localPath(lang))

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireUser(request, context, lang)
  if (!isFullNameToAsk(user)) throw redirect(nextPage(request, lang))
  return { messages: getMessages(lang, ['accounts']) }
}

// Re-exported, not declared here: a refusal's Retry-After (runForm) reaches the page's answer.
export { keepRetryAfter as headers } from '#app/lib/route-headers.ts'

export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  const { user } = await requireUser(request, context, lang)
  const form = await request.formData()
  if (form.get('intent') === 'skip') {
    await answerFullName({ db: context.db, user, answer: 'skip' })
    throw redirect(nextPage(request, lang))
  }
  const parsed = parseForm(fullNameSchema, form, fields)
  if (!parsed.ok) return parsed.response
  return runForm(parsed.values, async () => {
    await answerFullName({ db: context.db, user, answer: parsed.data })
    throw redirect(nextPage(request, lang))
  })
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'accounts.meta.fullName', 'full-name', { noindex: true })

export default function FullName({ actionData }: Route.ComponentProps) {
  const { t } = useT()
  const [search] = useSearchParams()
  const navigation = useNavigation()
  const serverErrors = actionData && !actionData.ok ? actionData.errors : undefined
  const { errors, onSubmit } = useSchemaForm(fullNameSchema, fields, serverErrors)
  const values = actionData && !actionData.ok ? actionData.values : {}
  const redirectTo = search.get('redirectTo')
  const target = redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : undefined
  return (
    <>
      <h1>{t('accounts.fullName.title')}</h1>
      <p className="muted">{t('accounts.fullName.lead')}</p>
      <FormErrorNotice errors={errors} />
      <Form method="post" action={target} noValidate className="form" onSubmit={onSubmit}>
        <FormField
          id="fn-ar"
          label={t('accounts.fields.fullNameAr')}
          hint={t('accounts.fields.fullNameArHint')}
          errors={errors.full_name_ar}
          required
        >
          {(p) => (
            <input
              {...p}
              name="full_name_ar"
              dir="rtl"
              lang="ar"
              autoComplete="name"
              maxLength={100}
              defaultValue={values.full_name_ar}
              required
            />
          )}
        </FormField>
        <FormField
          id="fn-en"
          label={t('accounts.fields.fullNameEn')}
          hint={t('accounts.fields.fullNameEnHint')}
          errors={errors.full_name_en}
        >
          {(p) => (
            <input {...p} name="full_name_en" dir="ltr" lang="en" autoComplete="name" maxLength={100} defaultValue={values.full_name_en} />
          )}
        </FormField>
        <button type="submit" className="button button-primary" disabled={navigation.state === 'submitting'}>
          {t('accounts.fullName.save')}
        </button>
      </Form>
      <Form method="post" action={target} className="auth-alt">
        <button type="submit" name="intent" value="skip" className="button button-ghost" disabled={navigation.state === 'submitting'}>
          {t('accounts.fullName.skip')}
        </button>
      </Form>
    </>
  )
}
