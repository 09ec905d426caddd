import { absenceTrends, type AbsenceTrends } from '#app/features/absence-trends/index.server.ts'
import { AbsenceTrendsView, timelineLimit } from '#app/features/absence-trends/index.ts'
import { requireSubscriberPage } from '#app/features/billing/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useT } from '#app/i18n/use-t.ts'
import { isDomainError } from '#app/lib/errors.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { PageHero } from '#app/ui/page-hero.tsx'
import type { Route } from './+types/absence-trends'

// The teacher's absence analyses of one school along time (issue 18): the school and each
// classroom per upload, and a student found by name.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  const url = new URL(request.url)
  const school = url.searchParams.has('school') ? (url.searchParams.get('school') ?? '') : undefined
  const q = url.searchParams.get('q')?.trim() || null
  const options = { db: context.db, userId: user.id, school }
  let trends: AbsenceTrends
  let searchError: string | null = null
  try {
    trends = await absenceTrends({ ...options, q })
  } catch (error) {
    // A name too short: the timeline as it is, and the search field says why.
    if (!isDomainError(error) || error.messageKey !== 'absence.search.tooShort') throw error
    trends = await absenceTrends(options)
    searchError = error.messageKey
  }
  return {
    messages: getMessages(lang, ['absence-trends', 'absence.search']),
    data: { ...trends, classroom: url.searchParams.get('classroom'), q, searchError },
  }
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'absence-trends', 'absence-trends')

export default function AbsenceTrendsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useT()
  return (
    <>
      <PageHero title={t('absence-trends.title')} lead={t('absence-trends.lead', { limit: timelineLimit })} />
      <section className="section">
        <div className="container">
          <AbsenceTrendsView data={loaderData.data} />
        </div>
      </section>
    </>
  )
}
