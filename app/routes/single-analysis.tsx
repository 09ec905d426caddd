import { data, redirect } from 'react-router'
import { absenceReportPage, schoolDaysFromQuery, tierThresholdsOf } from '#app/features/absence/index.server.ts'
import { AbsenceReportView, maxSchoolDays } from '#app/features/absence/index.ts'
import { ParentMessages } from '#app/features/parent-messages/index.ts'
import { studentsMessages } from '#app/features/parent-messages/index.server.ts'
import { bandsFromQuery, bandsQuery, GradesReportView, recomputeGrades } from '#app/features/grades/index.ts'
import { deleteAnalysis, findAnalysis } from '#app/features/analyses/index.server.ts'
import { ladderOf, stepDocumentsSummary } from '#app/features/follow-up/index.server.ts'
import { loadGradeRecords } from '#app/features/grades/index.server.ts'
import { flashCookie, schoolDetailsOf } from '#app/features/accounts/index.server.ts'
import { ladderDocuments, StepDocumentsBlock } from '#app/features/follow-up/index.ts'
import { requireSubscriberPage } from '#app/features/billing/index.server.ts'
import { formatDate } from '#app/i18n/format.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink } from '#app/ui/app-link.tsx'
import { ConfirmDelete } from '#app/ui/confirm-delete.tsx'
import type { Route } from './+types/single-analysis'

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  const url = new URL(request.url)
  const stored = await findAnalysis({ db: context.db, userId: user.id, id: url.searchParams.get('id') ?? '' })
  if (!stored) throw data(null, { status: 404 })
  const analysis = { id: stored.id, kind: stored.kind, title: stored.title, meta: stored.meta, createdAt: stored.createdAt.toISOString() }
  if (stored.kind === 'grades') {
    // Other thresholds (or the elementary preset) recompute the report from the stored scores.
    const choice = bandsFromQuery(url.searchParams)
    const report =
      choice.custom || choice.preset !== 'default'
        ? recomputeGrades(await loadGradeRecords({ db: context.db, stored }), choice.bands)
        : stored.report
    return {
      messages: getMessages(lang, ['grades-report', 'analyses', 'grades']),
      analysis,
      absence: null,
      grades: { report, choice, query: bandsQuery(choice) },
      followUp: null,
    }
  }
  // A totals analysis recomputed for the school days the teacher typed (`days`), as the exports are.
  const schoolDays = schoolDaysFromQuery(url.searchParams, maxSchoolDays)
  // The teacher's settings, each read once: the ladder (the steps, the parent messages and the
  // letters' block), the tiers' thresholds as they are now (not as at the upload), the school.
  const [ladder, thresholds, school] = await Promise.all([
    ladderOf({ db: context.db, userId: user.id }),
    tierThresholdsOf({ db: context.db, userId: user.id }),
    schoolDetailsOf({ db: context.db, userId: user.id }),
  ])
  const page = await absenceReportPage({ db: context.db, stored, q: url.searchParams.get('q'), schoolDays, thresholds, ladder })
  // The found students' parent messages, with the teacher's templates and ladder (issue 18).
  const parentMessages =
    page.search && 'students' in page.search
      ? await studentsMessages({
          db: context.db,
          userId: user.id,
          lang,
          school: stored.meta.school,
          students: page.search.students,
          ladder,
        })
      : []
  // The follow-up letters by step (issue 18): the ladder in force, its counts, the school details.
  const followUp = {
    steps: await stepDocumentsSummary({ db: context.db, userId: user.id, stored, ladder }),
    hasSchool: school !== null,
  }
  return {
    messages: getMessages(lang, [
      'absence-report',
      'analyses',
      'absence',
      'parent-messages.card',
      'parent-messages.kinds',
      'parent-messages.list.open',
      'absence-trends.title',
      'followUp.documents',
      'followUp.steps',
      'letters.block',
      ...ladderDocuments.map((d) => `letters.documents.${d}.title`),
    ]),
    analysis,
    absence: { ...page, query: schoolDays === null || page.schoolDaysError ? '' : `days=${schoolDays}`, parentMessages },
    grades: null,
    followUp,
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  const form = await request.formData()
  const id = new URL(request.url).searchParams.get('id') ?? ''
  if (form.get('intent') !== 'delete') throw data(null, { status: 400 })
  if (!(await deleteAnalysis({ db: context.db, userId: user.id, id }))) throw data(null, { status: 404 })
  return redirect(`/${lang}/last-multiple`, { headers: { 'Set-Cookie': flashCookie('success', 'analyses.list.deleted') } })
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'analyses.meta.report', 'single-analysis')

export default function SingleAnalysis({ loaderData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  const { analysis, absence, grades, followUp } = loaderData
  const query = grades?.query || absence?.query
  const exportQuery = query ? `?${query}` : ''
  const created = formatDate(lang, analysis.createdAt)
  const info = analysis.meta
  return (
    <section className="section">
      <div className="container">
        <header className="report-header">
          <div>
            <p className="muted">{t(`analyses.kinds.${analysis.kind}`)}</p>
            <h1>{analysis.title}</h1>
            <dl className="report-meta">
              {info.school ? (
                <div>
                  <dt>{t('analyses.report.school')}</dt>
                  <dd>{info.school}</dd>
                </div>
              ) : null}
              {info.from && info.to ? (
                <div>
                  <dt>{t('analyses.report.period')}</dt>
                  <dd>{t('analyses.report.periodValue', { from: info.from, to: info.to })}</dd>
                </div>
              ) : null}
              {info.term ? (
                <div>
                  <dt>{t('analyses.report.term')}</dt>
                  <dd>{info.term}</dd>
                </div>
              ) : null}
              <div>
                <dd>{t('analyses.report.uploaded', { date: `${created.gregorian} (${created.hijri})` })}</dd>
              </div>
            </dl>
          </div>
        </header>
        {/* Every way out of the report in one bar: the exports (which follow the school days or
            bands chosen on the page) together, the deletion apart at the other end. */}
        <div className="report-toolbar no-print">
          <div className="report-exports" role="group" aria-labelledby="report-exports-label">
            <span id="report-exports-label" className="report-toolbar-label">
              {t('analyses.report.exports')}
            </span>
            <a className="button button-primary" href={`/${lang}/analyses/${analysis.id}/export.pdf${exportQuery}`}>
              {t('analyses.report.exportPdf')}
            </a>
            <a className="button button-ghost" href={`/${lang}/analyses/${analysis.id}/export.xlsx${exportQuery}`}>
              {t('analyses.report.exportExcel')}
            </a>
          </div>
          {absence ? (
            <div className="report-exports">
              <AppLink className="button button-ghost" to={`parent-messages?id=${analysis.id}`}>
                {t('parent-messages.list.open')}
              </AppLink>
              <AppLink className="button button-ghost" to="absence-trends">
                {t('absence-trends.title')}
              </AppLink>
            </div>
          ) : null}
          <div className="report-toolbar-end">
            <ConfirmDelete
              label={t('analyses.report.delete')}
              confirmLabel={t('analyses.list.delete')}
              message={t('analyses.report.confirmDelete')}
            />
          </div>
        </div>
        {absence ? (
          <AbsenceReportView
            report={absence.report}
            warned={absence.warned}
            thresholds={absence.thresholds}
            tiers={absence.tiers}
            steps={absence.steps}
            settingsHref={`/${lang}/absence-settings`}
            registerHref={`/${lang}/follow-up`}
            search={absence.search}
            searchAction={`/${lang}/single-analysis`}
            analysisId={analysis.id}
            maxSchoolDays={maxSchoolDays}
            schoolDaysError={absence.schoolDaysError}
            studentExtra={
              absence.search && 'students' in absence.search
                ? absence.search.students.map((st, index) => (
                    <ParentMessages key={index} messages={absence.parentMessages[index] ?? []} studentName={st.name} />
                  ))
                : undefined
            }
            afterWarnings={followUp ? <StepDocumentsBlock analysisId={analysis.id} {...followUp} /> : null}
          />
        ) : null}
        {grades ? (
          <GradesReportView report={grades.report} choice={grades.choice} analysisId={analysis.id} action={`/${lang}/single-analysis`} />
        ) : null}
        <p className="no-print">
          <AppLink to="last-multiple">{t('analyses.report.backToList')}</AppLink>
        </p>
      </div>
    </section>
  )
}
