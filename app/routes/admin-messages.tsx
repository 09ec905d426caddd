import { listContactMessages, requireOperatorPage } from '#app/features/operators/index.server.ts'
import { messageFilters, type MessageFilter } from '#app/features/operators/index.ts'
import { formatDate } from '#app/i18n/format.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink } from '#app/ui/app-link.tsx'
import type { Route } from './+types/admin-messages'

// Contact messages, newest first: the open ones by default; each opens on its own page.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  await requireOperatorPage(request, context, lang)
  const search = new URL(request.url).searchParams
  const asked = search.get('state')
  const filter: MessageFilter = messageFilters.includes(asked as MessageFilter) ? (asked as MessageFilter) : 'open'
  const list = await listContactMessages({ db: context.db, filter, page: Number(search.get('page') ?? '1') })
  return {
    messages: getMessages(lang, ['operators', 'contact.types']),
    filter,
    // Sent with the data: the component may not import the server module that defines them.
    filters: messageFilters,
    page: list.page,
    pages: list.pages,
    open: list.open,
    items: list.messages.map((m) => ({
      id: m.id,
      name: m.name,
      email: m.email,
      type: m.type,
      // The first words, enough to tell messages apart.
      excerpt: m.message.length > 140 ? `${m.message.slice(0, 140)}…` : m.message,
      createdAt: m.createdAt.toISOString(),
      state: m.answeredAt ? 'answered' : m.handledAt ? 'handled' : 'open',
    })),
  }
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'operators.meta.messages', 'admin/messages')

export default function AdminMessages({ loaderData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  const { filter, filters, items, open, page, pages } = loaderData
  const pageLink = (n: number) => `admin/messages?state=${filter}&page=${n}`
  return (
    <>
      <h1>{t('operators.messages.title')}</h1>
      <p className="muted">{t('operators.messages.lead')}</p>
      <nav className="admin-tabs" aria-label={t('operators.messages.filtersLabel')}>
        {filters.map((f) => (
          <AppLink key={f} to={`admin/messages?state=${f}`} aria-current={f === filter ? 'page' : undefined}>
            {t(`operators.messages.filters.${f}`)}
            {f === 'open' ? <span className="admin-count"> {open}</span> : null}
          </AppLink>
        ))}
      </nav>
      {items.length === 0 ? (
        <p className="empty-state">{t(`operators.messages.empty.${filter}`)}</p>
      ) : (
        <ul className="admin-cards">
          {items.map((m) => (
            <li key={m.id} className={`card card-plain admin-message is-${m.state}`}>
              <h2 className="admin-message-title">
                <AppLink to={`admin/messages/${m.id}`}>
                  <bdi>{m.name}</bdi>
                  <span className="visually-hidden"> · {t('operators.messages.read')}</span>
                </AppLink>
              </h2>
              <p className="muted">
                <bdi dir="ltr">{m.email}</bdi> · {t(`contact.types.${m.type}`)} ·{' '}
                <time dateTime={m.createdAt}>{formatDate(lang, m.createdAt).gregorian}</time> ·{' '}
                <span className={`admin-badge${m.state === 'open' ? ' admin-badge-accent' : ''}`}>
                  {t(`operators.messages.states.${m.state}`)}
                </span>
              </p>
              <p dir="auto" className="admin-excerpt">
                {m.excerpt}
              </p>
            </li>
          ))}
        </ul>
      )}
      {pages > 1 ? (
        <nav className="admin-pager" aria-label={t('operators.messages.pagerLabel')}>
          {page > 1 ? <AppLink to={pageLink(page - 1)}>{t('operators.pager.previous')}</AppLink> : <span />}
          <span>{t('operators.pager.page', { page, pages })}</span>
          {page < pages ? <AppLink to={pageLink(page + 1)}>{t('operators.pager.next')}</AppLink> : <span />}
        </nav>
      ) : null}
    </>
  )
}
