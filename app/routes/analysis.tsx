import { data, redirect } from 'react-router'
import { uploadAbsence } from '#app/features/absence/index.server.ts'
import { UploadForm } from '#app/ui/upload-form.tsx'
import { uploadedFile, uploadFailure } from '#app/features/analyses/index.server.ts'
import { requireSubscriberPage } from '#app/features/billing/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { PageHero } from '#app/ui/page-hero.tsx'
import type { Route } from './+types/analysis'

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  await requireSubscriberPage(request, context, lang)
  return { messages: getMessages(lang, ['absence-report', 'analyses', 'absence']), maxMb: context.env.ANALYSIS_MAX_UPLOAD_MB }
}

/** The form sent before JavaScript loads (with JavaScript the page uploads to `analysis/upload`). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  try {
    const { id } = await uploadAbsence(context, { userId: user.id, file: await uploadedFile(await request.formData()), lang })
    return redirect(`/${lang}/single-analysis?id=${id}`)
  } catch (error) {
    const failure = uploadFailure(error)
    return data({ failure }, { status: failure.status })
  }
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'absence-report.meta.tool', 'analysis', { noindex: true })

export default function AbsenceTool({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  return (
    <>
      <PageHero title={t('absence-report.tool.title')} lead={t('absence-report.tool.lead')} />
      <section className="section">
        <div className="container narrow tool-layout">
          <div className="card">
            <h2>{t('analyses.upload.steps.title')}</h2>
            <ol className="steps-list">
              <li>{t('analyses.upload.steps.one')}</li>
              <li>{t('analyses.upload.steps.two')}</li>
              <li>{t('analyses.upload.steps.three')}</li>
            </ol>
            <p>{t('analyses.upload.sampleLead')}</p>
            <a className="button button-ghost" href={`/${lang}/analysis/sample.xlsx`} download>
              {t('analyses.upload.sample')}
            </a>
          </div>
          <div className="card">
            <h2>{t('analyses.upload.title')}</h2>
            <UploadForm maxMb={loaderData.maxMb} failure={actionData?.failure ?? null} jsonAction={`/${lang}/analysis/upload`} columnsNamespace="absence.columns" />
          </div>
        </div>
      </section>
    </>
  )
}
