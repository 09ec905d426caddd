import { data, Form, redirect } from 'react-router'
import { deleteAnalysis, listAnalyses, renameAnalysis } from '#app/features/analyses/index.server.ts'
import { flashCookie } from '#app/features/accounts/index.server.ts'
import { requireSubscriberPage } from '#app/features/billing/index.server.ts'
import { formatDate, formatDay, formatRate } from '#app/i18n/format.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink } from '#app/ui/app-link.tsx'
import { ConfirmDelete } from '#app/ui/confirm-delete.tsx'
import { PageHero } from '#app/ui/page-hero.tsx'
import type { Route } from './+types/last-multiple'

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  const list = await listAnalyses({ db: context.db, userId: user.id })
  return {
    messages: getMessages(lang, ['analyses', 'absence-trends.title', 'absence-trends.toCompare']),
    analyses: list.map((a) => ({ id: a.id, kind: a.kind, title: a.title, headline: a.headline, createdAt: a.createdAt.toISOString() })),
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  const form = await request.formData()
  const id = String(form.get('id') ?? '')
  const intent = form.get('intent')
  if (intent === 'delete') {
    if (!(await deleteAnalysis({ db: context.db, userId: user.id, id }))) throw data(null, { status: 404 })
    return redirect(`/${lang}/last-multiple`, { headers: { 'Set-Cookie': flashCookie('success', 'analyses.list.deleted') } })
  }
  if (intent === 'rename') {
    const title = String(form.get('title') ?? '').trim()
    if (!title) return data({ renameError: id }, { status: 422 })
    if (!(await renameAnalysis({ db: context.db, userId: user.id, id, title }))) throw data(null, { status: 404 })
    return redirect(`/${lang}/last-multiple`, { headers: { 'Set-Cookie': flashCookie('success', 'analyses.list.renamed') } })
  }
  throw data(null, { status: 400 })
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'analyses.meta.list', 'last-multiple')

export default function LastMultiple({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  return (
    <>
      <PageHero title={t('analyses.list.title')} lead={t('analyses.list.lead')}>
        <p className="report-actions">
          <AppLink className="button button-primary" to="analysis">
            {t('analyses.list.newAbsence')}
          </AppLink>
          {loaderData.analyses.some((a) => a.kind === 'absence') ? (
            <>
              <AppLink className="button button-ghost" to="absence-trends">
                {t('absence-trends.title')}
              </AppLink>
              <AppLink className="button button-ghost" to="absence-compare">
                {t('absence-trends.toCompare')}
              </AppLink>
            </>
          ) : null}
        </p>
      </PageHero>
      <section className="section">
        <div className="container">
          {loaderData.analyses.length === 0 ? (
            <div className="empty-state">
              <p>{t('analyses.list.empty')}</p>
              <p>{t('analyses.list.emptyLead')}</p>
              <p className="empty-actions">
                <AppLink className="button button-primary" to="analysis">
                  {t('analyses.list.newAbsence')}
                </AppLink>
                <AppLink className="button button-ghost" to="analysis-grade">
                  {t('analyses.list.newGrades')}
                </AppLink>
              </p>
            </div>
          ) : (
            <div className="table-wrap">
              <table className="data-table analyses-table row-cards">
                <thead>
                  <tr>
                    <th scope="col">{t('analyses.list.columns.title')}</th>
                    <th scope="col">{t('analyses.list.columns.kind')}</th>
                    <th scope="col">{t('analyses.list.columns.created')}</th>
                    <th scope="col">{t('analyses.list.columns.period')}</th>
                    <th scope="col" className="num">
                      {t('analyses.list.columns.figure')}
                    </th>
                    <th scope="col">{t('analyses.list.columns.actions')}</th>
                  </tr>
                </thead>
                <tbody>
                  {loaderData.analyses.map((a) => {
                    const created = formatDate(lang, a.createdAt)
                    const from = typeof a.headline.from === 'string' ? formatDay(lang, a.headline.from).gregorian : null
                    const to = typeof a.headline.to === 'string' ? formatDay(lang, a.headline.to).gregorian : null
                    const figure =
                      typeof a.headline.attendanceRate === 'number'
                        ? t('analyses.list.attendance', { value: formatRate(lang, a.headline.attendanceRate) })
                        : typeof a.headline.average === 'number'
                          ? t('analyses.list.average', { value: formatRate(lang, a.headline.average) })
                          : '—'
                    return (
                      <tr key={a.id}>
                        <th scope="row">
                          <AppLink to={`single-analysis?id=${a.id}`}>{a.title}</AppLink>
                        </th>
                        <td data-label={t('analyses.list.columns.kind')}>{t(`analyses.kinds.${a.kind}`)}</td>
                        <td data-label={t('analyses.list.columns.created')}>
                          <span className="nowrap">{created.gregorian}</span>
                          <br />
                          <span className="muted nowrap">{created.hijri}</span>
                        </td>
                        <td data-label={t('analyses.list.columns.period')}>
                          {from && to ? t('analyses.report.periodValue', { from, to }) : '—'}
                        </td>
                        <td className="num" data-label={t('analyses.list.columns.figure')}>
                          {figure}
                        </td>
                        <td>
                          <div className="row-actions">
                            <AppLink
                              className="button button-small button-primary"
                              to={`single-analysis?id=${a.id}`}
                              aria-label={`${t('analyses.list.open')}: ${a.title}`}
                            >
                              {t('analyses.list.open')}
                            </AppLink>
                            <details className="confirm-delete">
                              <summary className="button button-small button-ghost">{t('analyses.list.rename')}</summary>
                              <div className="confirm-panel">
                                <Form method="post" className="form">
                                  <input type="hidden" name="id" value={a.id} />
                                  <label htmlFor={`rename-${a.id}`}>{t('analyses.list.renameLabel')}</label>
                                  <input
                                    id={`rename-${a.id}`}
                                    name="title"
                                    defaultValue={a.title}
                                    maxLength={200}
                                    required
                                    aria-invalid={actionData?.renameError === a.id || undefined}
                                  />
                                  <button type="submit" name="intent" value="rename" className="button button-small button-primary">
                                    {t('analyses.list.save')}
                                  </button>
                                </Form>
                              </div>
                            </details>
                            <ConfirmDelete
                              id={a.id}
                              small
                              label={t('analyses.list.delete')}
                              confirmLabel={t('analyses.list.delete')}
                              message={t('analyses.list.confirmDelete', { title: a.title })}
                            />
                          </div>
                        </td>
                      </tr>
                    )
                  })}
                </tbody>
              </table>
            </div>
          )}
        </div>
      </section>
    </>
  )
}
