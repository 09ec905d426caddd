import { Form, useNavigation } from 'react-router'
import {
  actOnTeacher,
  operatorOf,
  operatorPageWrite,
  parseOperatorForm,
  requireOperatorPage,
  searchTeachers,
  teacherActionSchema,
} from '#app/features/operators/index.server.ts'
import { formatDate } from '#app/i18n/format.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { localPath } from '#app/ui/app-link.tsx'
import { Sentence } from '#app/ui/sentence.tsx'
import type { Route } from './+types/admin-teachers'

// Teachers' accounts: search, deactivate and reactivate, end all sessions, turn off two-step
// verification (docs/operators.md). Each button is a form of its own, answered with a redirect.

const doneKeys = {
  deactivate: 'operators.teachers.done.deactivate',
  reactivate: 'operators.teachers.done.reactivate',
  'end-sessions': 'operators.teachers.done.endSessions',
  'two-factor-off': 'operators.teachers.done.twoFactorOff',
} as const

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireOperatorPage(request, context, lang)
  const query = (new URL(request.url).searchParams.get('q') ?? '').trim().slice(0, 100)
  const rows = await searchTeachers({ db: context.db, query })
  return {
    messages: getMessages(lang, ['operators']),
    query,
    selfId: user.id,
    teachers: rows.map((r) => ({
      ...r,
      createdAt: r.createdAt.toISOString(),
      deactivatedAt: r.deactivatedAt?.toISOString() ?? null,
    })),
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  const { user } = await requireOperatorPage(request, context, lang)
  const form = await request.formData()
  const query = String(form.get('q') ?? '').slice(0, 100)
  const back = `${localPath(lang, 'admin/teachers')}${query ? `?q=${encodeURIComponent(query)}` : ''}`
  return operatorPageWrite({
    context,
    operator: operatorOf(user),
    back,
    run: async () => {
      const chosen = parseOperatorForm(teacherActionSchema, { action: form.get('action') }).action
      await actOnTeacher({
        db: context.db,
        logger: context.logger,
        operator: operatorOf(user),
        userId: String(form.get('id') ?? ''),
        action: chosen,
      })
      return doneKeys[chosen]
    },
  })
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'operators.meta.teachers', 'admin/teachers')

type Teacher = Route.ComponentProps['loaderData']['teachers'][number]

function ActionButton({
  teacher,
  name,
  label,
  query,
  tone,
}: {
  teacher: Teacher
  name: string
  label: string
  query: string
  tone?: 'danger'
}) {
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('id') === teacher.id
  return (
    <Form method="post">
      <input type="hidden" name="id" value={teacher.id} />
      <input type="hidden" name="q" value={query} />
      <button
        type="submit"
        name="action"
        value={name}
        className={`button button-small ${tone === 'danger' ? 'button-danger' : 'button-ghost'}`}
        disabled={busy}
        aria-describedby={`teacher-${teacher.id}`}
      >
        {label}
      </button>
    </Form>
  )
}

export default function AdminTeachers({ loaderData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  const { teachers, query, selfId } = loaderData
  return (
    <>
      <h1>{t('operators.teachers.title')}</h1>
      <p className="muted">{t('operators.teachers.lead')}</p>
      <Form method="get" role="search" className="admin-search">
        <label htmlFor="teacher-search">{t('operators.teachers.searchLabel')}</label>
        <div className="admin-search-row">
          <input id="teacher-search" type="search" name="q" defaultValue={query} maxLength={100} dir="auto" />
          <button type="submit" className="button button-primary">
            {t('operators.teachers.search')}
          </button>
        </div>
      </Form>
      <div className="table-wrap">
        <table className="data-table row-cards">
          <caption>
            {query ? (
              <Sentence text={t('operators.teachers.results', { count: teachers.length })} values={{ query: <bdi>{query}</bdi> }} />
            ) : (
              t('operators.teachers.recent')
            )}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t('operators.teachers.account')}</th>
              <th scope="col">{t('operators.teachers.status')}</th>
              <th scope="col">{t('operators.teachers.joined')}</th>
              <th scope="col">{t('operators.teachers.sessionsColumn')}</th>
              <th scope="col">{t('operators.teachers.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {teachers.map((teacher) => {
              const name = (lang === 'en' ? teacher.fullNameEn : null) ?? teacher.fullNameAr ?? teacher.username
              const isSelf = teacher.id === selfId
              return (
                <tr key={teacher.id}>
                  <th scope="row" id={`teacher-${teacher.id}`}>
                    <bdi>{name}</bdi>
                    <br />
                    <bdi dir="ltr" className="admin-email">
                      {teacher.email}
                    </bdi>
                  </th>
                  <td data-label={t('operators.teachers.status')}>
                    <ul className="admin-badges">
                      {teacher.deactivatedAt ? (
                        <li className="admin-badge admin-badge-danger">{t('operators.teachers.badges.deactivated')}</li>
                      ) : teacher.isActivated ? (
                        <li className="admin-badge">{t('operators.teachers.badges.active')}</li>
                      ) : (
                        <li className="admin-badge admin-badge-muted">{t('operators.teachers.badges.notActivated')}</li>
                      )}
                      {teacher.role === 'operator' ? <li className="admin-badge">{t('operators.teachers.badges.operator')}</li> : null}
                      {teacher.hasTwoFactor ? <li className="admin-badge">{t('operators.teachers.badges.twoFactor')}</li> : null}
                      {isSelf ? <li className="admin-badge">{t('operators.teachers.badges.you')}</li> : null}
                    </ul>
                  </td>
                  <td data-label={t('operators.teachers.joined')} className="nowrap">
                    <time dateTime={teacher.createdAt}>{formatDate(lang, teacher.createdAt).gregorian}</time>
                  </td>
                  <td data-label={t('operators.teachers.sessionsColumn')}>
                    {t('operators.teachers.sessions', { count: teacher.sessions })}
                  </td>
                  <td className="row-actions">
                    {isSelf ? null : (
                      <div className="admin-actions">
                        {teacher.deactivatedAt ? (
                          <ActionButton teacher={teacher} name="reactivate" label={t('operators.teachers.reactivate')} query={query} />
                        ) : (
                          <ActionButton
                            teacher={teacher}
                            name="deactivate"
                            label={t('operators.teachers.deactivate')}
                            query={query}
                            tone="danger"
                          />
                        )}
                        {teacher.sessions > 0 ? (
                          <ActionButton teacher={teacher} name="end-sessions" label={t('operators.teachers.endSessions')} query={query} />
                        ) : null}
                        {teacher.hasTwoFactor ? (
                          <ActionButton
                            teacher={teacher}
                            name="two-factor-off"
                            label={t('operators.teachers.twoFactorOff')}
                            query={query}
                          />
                        ) : null}
                      </div>
                    )}
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
      {teachers.some((teacher) => teacher.hasTwoFactor && teacher.id !== selfId) ? (
        <p className="muted">{t('operators.teachers.twoFactorOffHint')}</p>
      ) : null}
    </>
  )
}
