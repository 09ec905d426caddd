import { data, redirect } from 'react-router'
import { uploadedFile, uploadFailure } from '#app/features/analyses/index.server.ts'
import { requireSubscriberPage } from '#app/features/billing/index.server.ts'
import { uploadGrades } from '#app/features/grades/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AnalysisToolPage } from '#app/ui/analysis-tool-page.tsx'
import type { Route } from './+types/analysis-grade'

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  await requireSubscriberPage(request, context, lang)
  return { messages: getMessages(lang, ['grades-report', 'analyses', 'grades']), maxMb: context.env.ANALYSIS_MAX_UPLOAD_MB }
}

/** The form sent before JavaScript loads (with JavaScript the page uploads to `analysis-grade/upload`). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  try {
    const { id } = await uploadGrades({ ...context, input: { userId: user.id, file: await uploadedFile(await request.formData()), lang } })
    return redirect(`/${lang}/single-analysis?id=${id}`)
  } catch (error) {
    const failure = uploadFailure(error)
    // A 429 (too many uploads) says how long to wait, as the API's does.
    const headers = failure.retryAfterSeconds ? { 'Retry-After': String(failure.retryAfterSeconds) } : undefined
    return data({ failure }, { status: failure.status, headers })
  }
}

export { keepRetryAfter as headers } from '#app/lib/route-headers.ts'

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'grades-report.meta.tool', 'analysis-grade')

export default function GradesTool({ loaderData, actionData }: Route.ComponentProps) {
  const { t, tm } = useT()
  const lang = useLang()
  return (
    <AnalysisToolPage
      title={t('grades-report.tool.title')}
      lead={t('grades-report.tool.lead')}
      sampleHref={`/${lang}/analysis-grade/sample.xlsx`}
      jsonAction={`/${lang}/analysis-grade/upload`}
      columnsNamespace="grades.columns"
      maxMb={loaderData.maxMb}
      failure={actionData?.failure ?? null}
      noorReports={tm<string[]>('grades-report.tool.noorReports')}
    />
  )
}
