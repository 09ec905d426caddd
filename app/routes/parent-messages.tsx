import { data, Form } from 'react-router'
import { requireSubscriberPage } from '#app/features/billing/index.server.ts'
import { ParentMessageCard } from '#app/features/parent-messages/index.ts'
import { stepMessages, stepMessagesLimit } from '#app/features/parent-messages/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useT } from '#app/i18n/use-t.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink } from '#app/ui/app-link.tsx'
import { FormField } from '#app/ui/form-field.tsx'
import { PageHero } from '#app/ui/page-hero.tsx'
import type { Route } from './+types/parent-messages'

// The parent messages of one analysis, a step of the teacher's ladder at a time (issue 18): the
// students at the step, each with the step's message to copy or open in WhatsApp.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  const url = new URL(request.url)
  const list = await stepMessages({
    db: context.db,
    userId: user.id,
    analysisId: url.searchParams.get('id') ?? '',
    step: Number(url.searchParams.get('step') ?? 0),
    lang,
  })
  if (!list) throw data(null, { status: 404 })
  return { messages: getMessages(lang, ['parent-messages']), list, limit: stepMessagesLimit }
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'parent-messages', 'parent-messages')

export default function ParentMessagesPage({ loaderData }: Route.ComponentProps) {
  const { t } = useT()
  const { list } = loaderData
  const stepName = (s: { name: string | null; document: string }) => s.name ?? t(`parent-messages.kinds.${s.document}`)
  return (
    <>
      <PageHero title={t('parent-messages.list.title')} lead={t('parent-messages.list.lead')}>
        <p className="muted">{list.analysis.title}</p>
      </PageHero>
      <section className="section">
        <div className="container narrow">
          <Form method="get" className="form inline-form" aria-label={t('parent-messages.list.step')}>
            <input type="hidden" name="id" value={list.analysis.id} />
            <FormField id="message-step" label={t('parent-messages.list.step')}>
              {(p) => (
                <select {...p} name="step" defaultValue={String(list.step)}>
                  {list.ladder.map((s, i) => (
                    <option key={s.days} value={i}>
                      {t('parent-messages.list.stepOption', { name: stepName(s), days: s.days })}
                    </option>
                  ))}
                </select>
              )}
            </FormField>
            <button type="submit" className="button button-primary">
              {t('parent-messages.list.show')}
            </button>
          </Form>
          <p aria-live="polite">{t('parent-messages.list.students', { count: list.total })}</p>
          {list.total > list.students.length ? (
            <p className="muted">{t('parent-messages.list.more', { shown: loaderData.limit })}</p>
          ) : null}
          {list.students.map((s) => (
            <article key={`${s.name}-${s.grade}-${s.classroom}`} className="card student-card">
              <h2 className="student-card-name">{s.name}</h2>
              <p className="muted">
                {s.grade} / {s.classroom}
              </p>
              {s.message ? <ParentMessageCard message={s.message} studentName={s.name} /> : null}
            </article>
          ))}
          <p>
            <AppLink to={`single-analysis?id=${list.analysis.id}`}>{t('parent-messages.list.back')}</AppLink>
            {' · '}
            <AppLink to="message-templates">{t('parent-messages.edit')}</AppLink>
          </p>
        </div>
      </section>
    </>
  )
}
