import { data, Form, redirect } from 'react-router'
import { flashCookie } from '#app/features/accounts/index.server.ts'
import { requireSubscriberPage } from '#app/features/billing/index.server.ts'
import { examsStylesHref } from '#app/features/exams/index.ts'
import { deleteExam, duplicateExam, examSummaryToJson, listExams } from '#app/features/exams/index.server.ts'
import { formatDay, formatNumber } from '#app/i18n/format.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { createTranslator } from '#app/i18n/translate.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink, localPath } from '#app/ui/app-link.tsx'
import { ConfirmDelete } from '#app/ui/confirm-delete.tsx'
import { PageHero } from '#app/ui/page-hero.tsx'
import type { Route } from './+types/exams'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: examsStylesHref }]

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  return { messages: getMessages(lang, ['exams']), exams: (await listExams({ db: context.db, userId: user.id })).map(examSummaryToJson) }
}

/** Duplicate or delete one of the teacher's tests; another teacher's is not found. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  const form = await request.formData()
  const id = String(form.get('id') ?? '')
  const done = (key: string) => redirect(localPath(lang, 'exams'), { headers: { 'Set-Cookie': flashCookie('success', key) } })
  switch (form.get('intent')) {
    case 'duplicate': {
      const { t } = createTranslator(lang, getMessages(lang, ['exams']))
      const copy = await duplicateExam({ db: context.db, userId: user.id, id, title: (title) => t('exams.list.copyTitle', { title }) })
      if (!copy) throw data(null, { status: 404 })
      return done('exams.messages.duplicated')
    }
    case 'delete': {
      if (!(await deleteExam({ db: context.db, files: context.files, userId: user.id, id }))) throw data(null, { status: 404 })
      return done('exams.messages.deleted')
    }
    default:
      throw data(null, { status: 400 })
  }
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'exams.meta.list', 'exams')

export default function Exams({ loaderData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  const { exams } = loaderData
  return (
    <>
      <PageHero title={t('exams.list.title')} lead={t('exams.list.lead')}>
        <p className="tool-hero-actions">
          <AppLink className="button button-primary" to="exams-test">
            {t('exams.list.new')}
          </AppLink>
          {/* What a printed test looks like, made by scripts/product-shots.ts. */}
          <a href={`/product/sample-test-${lang}.pdf`}>{t('exams.list.sample')}</a>
        </p>
      </PageHero>
      <section className="section">
        <div className="container">
          {exams.length === 0 ? (
            <div className="empty-state">
              <p>{t('exams.list.empty')}</p>
              <p>{t('exams.list.emptyLead')}</p>
              <AppLink className="button button-primary" to="exams-test">
                {t('exams.list.new')}
              </AppLink>
            </div>
          ) : (
            <div className="table-wrap">
              <table className="data-table exam-list row-cards">
                <caption className="visually-hidden">{t('exams.list.caption')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('exams.list.columns.title')}</th>
                    <th scope="col">{t('exams.list.columns.subject')}</th>
                    <th scope="col">{t('exams.list.columns.grade')}</th>
                    <th scope="col">{t('exams.list.columns.date')}</th>
                    <th scope="col" className="num">
                      {t('exams.list.columns.questions')}
                    </th>
                    <th scope="col" className="num">
                      {t('exams.list.columns.marks')}
                    </th>
                    <th scope="col">{t('exams.list.columns.actions')}</th>
                  </tr>
                </thead>
                <tbody>
                  {exams.map((exam) => {
                    const day = exam.date ? formatDay(lang, exam.date) : null
                    return (
                      <tr key={exam.id}>
                        <th scope="row" className="exam-list-title">
                          <AppLink to={`exams-test?id=${exam.id}`} dir="auto">
                            {exam.title}
                          </AppLink>
                        </th>
                        {/* The teacher's words in their own direction, the cell aligned with the page's (a "—" alone would turn it). */}
                        <td data-label={t('exams.list.columns.subject')}>
                          <bdi>{exam.subject || t('exams.list.none')}</bdi>
                        </td>
                        <td data-label={t('exams.list.columns.grade')}>
                          <bdi>{exam.grade || t('exams.list.none')}</bdi>
                        </td>
                        <td data-label={t('exams.list.columns.date')}>
                          {day ? (
                            <>
                              <span className="nowrap">{day.gregorian}</span>
                              <br />
                              <span className="muted nowrap">{day.hijri}</span>
                            </>
                          ) : (
                            t('exams.list.none')
                          )}
                        </td>
                        <td className="num" data-label={t('exams.list.columns.questions')}>
                          {formatNumber(lang, exam.question_count)}
                        </td>
                        <td className="num" data-label={t('exams.list.columns.marks')}>
                          {formatNumber(lang, exam.total_marks, { maximumFractionDigits: 2 })}
                        </td>
                        <td>
                          <div className="row-actions" role="group" aria-label={t('exams.list.actionsFor', { title: exam.title })}>
                            <AppLink className="button button-small button-primary" to={`exams-test?id=${exam.id}`}>
                              {t('exams.list.open')}
                            </AppLink>
                            <Form method="post">
                              <input type="hidden" name="id" value={exam.id} />
                              <button type="submit" name="intent" value="duplicate" className="button button-small button-ghost">
                                {t('exams.list.duplicate')}
                              </button>
                            </Form>
                            {/* Not prefetched: opening the list must not render every test it shows. */}
                            <AppLink className="button button-small button-ghost" to={`exams/${exam.id}/print`} prefetch="none">
                              {t('exams.list.print')}
                            </AppLink>
                            <ConfirmDelete
                              id={exam.id}
                              small
                              label={t('exams.list.delete')}
                              confirmLabel={t('exams.list.deleteConfirm')}
                              message={
                                <>
                                  <strong>{t('exams.list.deleteTitle')}</strong> {t('exams.list.deleteText', { title: exam.title })}
                                </>
                              }
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
