import { listOperatorActions, requireOperatorPage } from '#app/features/operators/index.server.ts'
import { formatDateTime } from '#app/i18n/format.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { lookup } from '#app/i18n/translate.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink } from '#app/ui/app-link.tsx'
import type { Route } from './+types/admin-audit'

// The operators' audit log, newest first, fifty to a page (docs/operators.md).

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  await requireOperatorPage(request, context, lang)
  const messages = getMessages(lang, ['operators'])
  const page = Number(new URL(request.url).searchParams.get('page') ?? '1')
  const log = await listOperatorActions({ db: context.db, page })
  return {
    messages,
    page: log.page,
    pages: log.pages,
    total: log.total,
    entries: log.entries.map((e) => ({
      id: e.id,
      at: e.createdAt.toISOString(),
      operatorEmail: e.operatorEmail,
      isOperatorDeleted: e.operatorId === null,
      // An action or a kind of record this page has no name for shows as stored.
      actionKey: lookup(messages, `operators.audit.actions.${e.action}`) ? `operators.audit.actions.${e.action}` : null,
      action: e.action,
      targetKey: lookup(messages, `operators.audit.targets.${e.targetType}`) ? `operators.audit.targets.${e.targetType}` : null,
      targetType: e.targetType,
      targetId: e.targetId,
      // A fact this page has no name for shows with its stored name.
      detail: Object.entries(e.detail).map(([k, v]) => ({
        labelKey: lookup(messages, `operators.audit.details.${k}`) ? `operators.audit.details.${k}` : null,
        name: k,
        value: String(v),
      })),
    })),
  }
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'operators.meta.audit', 'admin/audit')

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  const { entries, page, pages, total } = loaderData
  return (
    <>
      <h1>{t('operators.audit.title')}</h1>
      <p className="muted">{t('operators.audit.lead')}</p>
      {entries.length === 0 ? (
        <p className="empty-state">{t('operators.audit.empty')}</p>
      ) : (
        <div className="table-wrap">
          <table className="data-table row-cards">
            <caption>{t('operators.audit.count', { count: total })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('operators.audit.when')}</th>
                <th scope="col">{t('operators.audit.what')}</th>
                <th scope="col">{t('operators.audit.who')}</th>
                <th scope="col">{t('operators.audit.record')}</th>
                <th scope="col">{t('operators.audit.detail')}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id}>
                  <th scope="row" className="nowrap">
                    <time dateTime={e.at}>{formatDateTime(lang, e.at)}</time>
                  </th>
                  <td data-label={t('operators.audit.what')}>{e.actionKey ? t(e.actionKey) : <code>{e.action}</code>}</td>
                  <td data-label={t('operators.audit.who')}>
                    <bdi dir="ltr">{e.operatorEmail}</bdi>
                    {e.isOperatorDeleted ? ` ${t('operators.audit.deletedAccount')}` : null}
                  </td>
                  <td data-label={t('operators.audit.record')}>
                    {e.targetKey ? t(e.targetKey) : e.targetType}{' '}
                    <code className="admin-id" dir="ltr">
                      {e.targetId}
                    </code>
                  </td>
                  <td data-label={t('operators.audit.detail')}>
                    {e.detail.length > 0 ? (
                      <ul className="admin-details">
                        {e.detail.map((d) => (
                          <li key={d.name}>
                            {d.labelKey ? t(d.labelKey) : d.name}: <bdi>{d.value}</bdi>
                          </li>
                        ))}
                      </ul>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pages > 1 ? (
        <nav className="admin-pager" aria-label={t('operators.audit.pagerLabel')}>
          {page > 1 ? <AppLink to={`admin/audit?page=${page - 1}`}>{t('operators.pager.previous')}</AppLink> : <span />}
          <span>{t('operators.pager.page', { page, pages })}</span>
          {page < pages ? <AppLink to={`admin/audit?page=${page + 1}`}>{t('operators.pager.next')}</AppLink> : <span />}
        </nav>
      ) : null}
    </>
  )
}
