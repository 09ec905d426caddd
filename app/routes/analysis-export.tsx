import { data } from 'react-router'
import { absenceExport, schoolDaysFromQuery, tierThresholdsOf } from '#app/features/absence/index.server.ts'
import { maxSchoolDays } from '#app/features/absence/index.ts'
import { documentName } from '#app/features/accounts/index.ts'
import { findAnalysis } from '#app/features/analyses/index.server.ts'
import { ladderOf } from '#app/features/follow-up/index.server.ts'
import { bandsFromQuery } from '#app/features/grades/index.ts'
import { gradesExport } from '#app/features/grades/index.server.ts'
import { requireSubscriberPage } from '#app/features/billing/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { limitPageExports } from '#app/platform/export-limit.server.ts'
import type { Route } from './+types/analysis-export'

/** `Export PDF` / `Export Excel` of the teacher's own analysis, in the page's language. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  const stored = await findAnalysis({ db: context.db, userId: user.id, id: params.analysisId })
  if (!stored) throw data(null, { status: 404 })
  await limitPageExports(context, user.id, request, lang)
  const url = new URL(request.url)
  const format = url.pathname.endsWith('.pdf') ? 'pdf' : 'xlsx'
  const preparedBy = documentName(user, lang)
  if (stored.kind === 'absence')
    return absenceExport({
      db: context.db,
      stored,
      format,
      lang,
      schoolDays: schoolDaysFromQuery(url.searchParams, maxSchoolDays),
      thresholds: await tierThresholdsOf({ db: context.db, userId: user.id }),
      ladder: await ladderOf({ db: context.db, userId: user.id }),
      preparedBy,
    })
  if (stored.kind === 'grades') {
    const choice = bandsFromQuery(url.searchParams)
    return gradesExport({
      db: context.db,
      stored,
      format,
      lang,
      bands: choice.custom || choice.preset !== 'default' ? choice.bands : undefined,
      preparedBy,
    })
  }
  throw data(null, { status: 404 })
}
