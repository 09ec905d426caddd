import { Form, redirect } from 'react-router'
import { listNotifications, markAllNotificationsRead, markNotificationRead, requireUser } from '#app/features/accounts/index.server.ts'
import { formatDate } from '#app/i18n/format.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { lookup } from '#app/i18n/translate.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink, localPath } from '#app/ui/app-link.tsx'
import { PageHero } from '#app/ui/page-hero.tsx'
import { Sentence } from '#app/ui/sentence.tsx'
import type { Route } from './+types/notifications'

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireUser(request, context, lang)
  const messages = getMessages(lang, ['accounts', 'notifications'])
  const list = await listNotifications({ db: context.db, userId: user.id })
  return {
    messages,
    items: list.map((n) => ({
      id: n.id,
      kind: lookup(messages, `notifications.kinds.${n.kind}.title`) ? n.kind : 'unknown',
      params: n.params,
      isRead: Boolean(n.readAt),
      createdAt: n.createdAt.toISOString(),
    })),
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  const { user } = await requireUser(request, context, lang)
  const form = await request.formData()
  if (form.get('intent') === 'read-all') await markAllNotificationsRead({ db: context.db, userId: user.id })
  else await markNotificationRead({ db: context.db, userId: user.id, id: String(form.get('id') ?? '') })
  return redirect(localPath(lang, 'notifications'))
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'accounts.meta.notifications', 'notifications')

export default function Notifications({ loaderData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  const { items } = loaderData
  const unread = items.filter((n) => !n.isRead).length
  return (
    <>
      <PageHero title={t('accounts.notifications.title')} lead={t('session.menu.unread', { count: unread })} />
      <section className="section">
        <div className="container narrow">
          {unread > 0 ? (
            <Form method="post" className="toolbar">
              <button type="submit" name="intent" value="read-all" className="button button-ghost button-small">
                {t('accounts.notifications.markAllRead')}
              </button>
            </Form>
          ) : null}
          {items.length === 0 ? (
            <div className="empty-state">
              <p>{t('accounts.notifications.empty')}</p>
              <p>{t('accounts.notifications.emptyLead')}</p>
              <AppLink className="button button-primary" to="">
                {t('accounts.notifications.backToTools')}
              </AppLink>
            </div>
          ) : null}
          <ol className="notification-list">
            {items.map((n) => {
              const date = formatDate(lang, n.createdAt)
              // A value in the sentence (an address, a serial, a name) keeps its own direction; a count picks the plural.
              const counts = Object.fromEntries(Object.entries(n.params).filter(([, v]) => typeof v === 'number'))
              const values = Object.fromEntries(Object.entries(n.params).map(([k, v]) => [k, <bdi key={k}>{String(v)}</bdi>]))
              return (
                <li key={n.id} className={`notification${n.isRead ? '' : ' is-unread'}`}>
                  <div>
                    <h2>
                      {n.isRead ? null : <span className="visually-hidden">{t('accounts.notifications.unread')}: </span>}
                      <Sentence text={t(`notifications.kinds.${n.kind}.title`, counts)} values={values} />
                    </h2>
                    <p>
                      <Sentence text={t(`notifications.kinds.${n.kind}.body`, counts)} values={values} />
                    </p>
                    <p className="muted">
                      <time dateTime={n.createdAt}>
                        {date.gregorian} · {date.hijri}
                      </time>
                    </p>
                  </div>
                  {n.isRead ? null : (
                    <Form method="post">
                      <input type="hidden" name="id" value={n.id} />
                      <button type="submit" name="intent" value="read" className="button button-ghost button-small">
                        {t('accounts.notifications.markRead')}
                      </button>
                    </Form>
                  )}
                </li>
              )
            })}
          </ol>
        </div>
      </section>
    </>
  )
}
