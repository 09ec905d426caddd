import { data, redirect } from 'react-router'
import { schoolDaysField, uploadAbsence } from '#app/features/absence/index.server.ts'
import { maxSchoolDays } from '#app/features/absence/index.ts'
import { uploadedFile, uploadFailure } from '#app/features/analyses/index.server.ts'
import { requireSubscriberPage } from '#app/features/billing/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AnalysisToolPage } from '#app/ui/analysis-tool-page.tsx'
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
    const form = await request.formData()
    const { id } = await uploadAbsence({
      ...context,
      input: {
        userId: user.id,
        file: await uploadedFile(form),
        lang,
        schoolDays: schoolDaysField(form.get('school_days')),
      },
    })
    return redirect(`/${lang}/single-analysis?id=${id}`)
  } catch (error) {
    const failure = uploadFailure(error)
    // A 429 (too many uploads) says how long to wait, as the API's does.
    const headers = failure.retryAfterSeconds ? { 'Retry-After': String(failure.retryAfterSeconds) } : undefined
    return data({ failure }, { status: failure.status, headers })
  }
}

export { keepRetryAfter as headers } from '#app/lib/route-headers.ts'

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'absence-report.meta.tool', 'analysis')

export default function AbsenceTool({ loaderData, actionData }: Route.ComponentProps) {
  const { t, tm } = useT()
  const lang = useLang()
  return (
    <AnalysisToolPage
      title={t('absence-report.tool.title')}
      lead={t('absence-report.tool.lead')}
      sampleHref={`/${lang}/analysis/sample.xlsx`}
      jsonAction={`/${lang}/analysis/upload`}
      columnsNamespace="absence.columns"
      maxMb={loaderData.maxMb}
      failure={actionData?.failure ?? null}
      noorReports={tm<string[]>('absence-report.tool.noorReports')}
      aside={
        <p>
          <a href={`/${lang}/absence-settings`}>{t('absence.tiers.change')}</a>
        </p>
      }
      fields={
        <div className="field">
          <label htmlFor="school-days-upload">{t('analyses.upload.schoolDaysLabel')}</label>
          <p className="field-hint" id="school-days-upload-hint">
            {t('analyses.upload.schoolDaysHint')}
          </p>
          <input
            id="school-days-upload"
            name="school_days"
            type="number"
            inputMode="numeric"
            min={1}
            max={maxSchoolDays}
            step={1}
            aria-describedby="school-days-upload-hint"
          />
        </div>
      }
    />
  )
}
