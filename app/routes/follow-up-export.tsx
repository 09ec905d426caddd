import { documentName } from '#app/features/accounts/index.ts'
import { requireSubscriberPage } from '#app/features/billing/index.server.ts'
import { followUpRegisterExport } from '#app/features/follow-up/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { limitPageExports } from '#app/platform/export-limit.server.ts'
import type { Route } from './+types/follow-up-export'

/** The teacher's follow-up register of a school year (`?year=`) as Excel or PDF, in the page's language. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  await limitPageExports(context, user.id, request, lang)
  const url = new URL(request.url)
  const year = Number(url.searchParams.get('year'))
  return followUpRegisterExport({
    db: context.db,
    userId: user.id,
    schoolYear: Number.isInteger(year) && year > 0 ? year : null,
    lang,
    format: url.pathname.endsWith('.pdf') ? 'pdf' : 'xlsx',
    preparedBy: documentName(user, lang),
  })
}
