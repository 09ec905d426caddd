import { redirect, useNavigation } from 'react-router'
import { flashCookie } from '#app/features/accounts/index.server.ts'
import { requireSubscriberPage } from '#app/features/billing/index.server.ts'
import { MessageTemplatesForm, messageTemplatesSchema, templateFields, templatesWire } from '#app/features/parent-messages/index.ts'
import { messageTemplatesOf, restoreMessageTemplates, saveMessageTemplates } from '#app/features/parent-messages/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useT } from '#app/i18n/use-t.ts'
import { parseForm, runForm } from '#app/lib/action.server.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink, localPath } from '#app/ui/app-link.tsx'
import { PageHero } from '#app/ui/page-hero.tsx'
import type { Route } from './+types/message-templates'

// The teacher's parent message templates (issue 18), which every message on her reports is
// filled from as soon as they are saved.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  return {
    messages: getMessages(lang, ['parent-messages']),
    templates: templatesWire(await messageTemplatesOf({ db: context.db, userId: user.id })),
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  const form = await request.formData()
  const back = localPath(lang, 'message-templates')
  if (form.get('intent') === 'message-templates-defaults') {
    await restoreMessageTemplates({ db: context.db, userId: user.id })
    throw redirect(back, { headers: { 'Set-Cookie': flashCookie('success', 'parent-messages.restored') } })
  }
  const parsed = parseForm(messageTemplatesSchema, form, templateFields)
  if (!parsed.ok) return parsed.response
  return runForm(parsed.values, async () => {
    await saveMessageTemplates({ db: context.db, userId: user.id, templates: parsed.data })
    throw redirect(back, { headers: { 'Set-Cookie': flashCookie('success', 'parent-messages.saved') } })
  })
}

export { keepRetryAfter as headers } from '#app/lib/route-headers.ts'

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'parent-messages', 'message-templates')

export default function MessageTemplates({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT()
  const navigation = useNavigation()
  const failed = actionData && !actionData.ok ? actionData : undefined
  return (
    <>
      <PageHero title={t('parent-messages.title')} lead={t('parent-messages.lead')} />
      <section className="section">
        <div className="container narrow">
          <MessageTemplatesForm
            saved={loaderData.templates}
            typed={failed?.values ?? {}}
            serverErrors={failed?.errors}
            isBusy={navigation.state === 'submitting'}
          />
          <p>
            <AppLink to="absence-settings">{t('parent-messages.toSettings')}</AppLink>
          </p>
        </div>
      </section>
    </>
  )
}
