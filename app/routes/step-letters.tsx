import { data } from 'react-router'
import { stepDocumentsPdf, stepDocumentsXlsx } from '#app/features/follow-up/index.server.ts'
import { requireSubscriberPage } from '#app/features/billing/index.server.ts'
import { isLang } from '#app/i18n/config.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { isDomainError } from '#app/lib/errors.ts'
import { limitPageExports } from '#app/platform/export-limit.server.ts'
import type { Route } from './+types/step-letters'

/**
 * A step's letters (PDF) or their list (Excel) for the teacher's own absence analysis: in the
 * page's language, or the one asked for (`?lang=en`), for one classroom with `?classroom=`.
 * `:step` counts from 1, as the report numbers the steps.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  const url = new URL(request.url)
  const asked = url.searchParams.get('lang')
  const step = /^\d{1,2}$/.test(params.step) ? Number(params.step) - 1 : -1
  const options = {
    db: context.db,
    files: context.files,
    userId: user.id,
    analysisId: params.analysisId,
    stepIndex: step,
    classroom: url.searchParams.get('classroom'),
    lang: isLang(asked) ? asked : lang,
  }
  await limitPageExports(context, user.id, request, lang)
  try {
    return url.pathname.endsWith('.pdf') ? await stepDocumentsPdf(options) : await stepDocumentsXlsx(options)
  } catch (error) {
    // Another teacher's analysis, a step the ladder lacks or one without students: not found.
    if (isDomainError(error) && error.status === 404) throw data(null, { status: 404 })
    throw error
  }
}
