import { data, redirect, useNavigation } from 'react-router'
import { documentName } from '#app/features/accounts/index.ts'
import { flashCookie } from '#app/features/accounts/index.server.ts'
import { requireSubscriberPage } from '#app/features/billing/index.server.ts'
import { FollowUpRegisterView, issueFields, issueSchema, updateFields, updateSchema } from '#app/features/follow-up/index.ts'
import { deleteRegisterEntry, followUpRegisterPage, recordIssue, updateRegisterEntry } from '#app/features/follow-up/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { parseForm } from '#app/lib/action.server.ts'
import { isDomainError } from '#app/lib/errors.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { localPath } from '#app/ui/app-link.tsx'
import { PageHero } from '#app/ui/page-hero.tsx'
import type { Route } from './+types/follow-up'

// The follow-up register (issue 18, docs/follow-up.md): the documents issued at each step of the
// ladder and the students still owed one, for a school year; record, change and delete entries.

const yearOf = (url: URL) => {
  const year = Number(url.searchParams.get('year'))
  return Number.isInteger(year) && year > 0 ? year : null
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  const register = await followUpRegisterPage({ db: context.db, userId: user.id, schoolYear: yearOf(new URL(request.url)) })
  return {
    messages: getMessages(lang, ['follow-up-register', 'followUp.documents']),
    register,
    issuedBy: documentName(user, lang),
    today: new Date().toISOString().slice(0, 10),
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  const form = await request.formData()
  const intent = form.get('intent')
  const back = (key: string, year?: number) =>
    redirect(`${localPath(lang, 'follow-up')}${year ? `?year=${year}` : ''}`, { headers: { 'Set-Cookie': flashCookie('success', key) } })
  const refused = (target: string, status: number, errors: Record<string, string[]>, values: Record<string, string>) =>
    data({ target, errors, values }, { status })
  try {
    if (intent === 'issue') {
      const target = `${String(form.get('student') ?? '')}:${String(form.get('step') ?? '')}`
      const parsed = parseForm(issueSchema, form, issueFields)
      if (!parsed.ok) return refused(target, 422, parsed.response.data.errors, parsed.response.data.values)
      try {
        await recordIssue({ db: context.db, userId: user.id, issue: parsed.data })
      } catch (error) {
        if (!isDomainError(error) || error.status === 404) throw error
        return refused(target, error.status, error.fields ?? { _form: [error.messageKey] }, parsed.values)
      }
      return back('follow-up-register.saved', parsed.data.school_year)
    }
    const id = String(form.get('id') ?? '')
    if (intent === 'update') {
      const parsed = parseForm(updateSchema, form, updateFields)
      if (!parsed.ok) return refused(id, 422, parsed.response.data.errors, parsed.response.data.values)
      const entry = await updateRegisterEntry({ db: context.db, userId: user.id, id, changes: parsed.data })
      return back('follow-up-register.updated', entry.schoolYear)
    }
    if (intent === 'delete') {
      await deleteRegisterEntry({ db: context.db, userId: user.id, id })
      return back('follow-up-register.deleted')
    }
  } catch (error) {
    // Another teacher's student or entry, or one that is gone: not found, as every page answers it.
    if (isDomainError(error) && error.status === 404) throw data(null, { status: 404 })
    throw error
  }
  throw data(null, { status: 400 })
}

export { keepRetryAfter as headers } from '#app/lib/route-headers.ts'

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'follow-up-register', 'follow-up')

export default function FollowUp({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  const navigation = useNavigation()
  const { register } = loaderData
  return (
    <>
      <PageHero title={t('follow-up-register.title')} lead={t('follow-up-register.lead')} />
      <FollowUpRegisterView
        data={register}
        failure={actionData ?? null}
        issuedBy={loaderData.issuedBy}
        today={loaderData.today}
        exportHref={(format) => `/${lang}/follow-up/export.${format}?year=${register.schoolYear}`}
        settingsHref={`/${lang}/absence-settings`}
        uploadHref={`/${lang}/analysis`}
        isBusy={navigation.state === 'submitting'}
      />
    </>
  )
}
