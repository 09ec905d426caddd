import { data } from 'react-router'
import { compareAbsence, compareChoices } from '#app/features/absence-trends/index.server.ts'
import { AbsenceCompareView } from '#app/features/absence-trends/index.ts'
import { requireSubscriberPage } from '#app/features/billing/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useT } from '#app/i18n/use-t.ts'
import { isDomainError } from '#app/lib/errors.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { PageHero } from '#app/ui/page-hero.tsx'
import type { Route } from './+types/absence-compare'

// Two of the teacher's absence analyses side by side (issue 18). Without a choice, her two newest.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  const url = new URL(request.url)
  const choices = await compareChoices({ db: context.db, userId: user.id })
  const a = url.searchParams.get('a') ?? choices[1]?.id ?? null
  const b = url.searchParams.get('b') ?? choices[0]?.id ?? null
  const messages = getMessages(lang, ['absence-trends'])
  if (!a || !b) return { messages, data: { choices, a, b, comparison: null, error: null } }
  if (a === b) return { messages, data: { choices, a, b, comparison: null, error: 'absence-trends.compare.same' } }
  try {
    const comparison = await compareAbsence({ db: context.db, userId: user.id, a, b })
    return { messages, data: { choices, a, b, comparison, error: null } }
  } catch (error) {
    // Another teacher's analysis, or none: not found, as everywhere.
    if (isDomainError(error) && error.status === 404) throw data(null, { status: 404 })
    throw error
  }
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'absence-trends.compareMeta', 'absence-compare')

export default function AbsenceComparePage({ loaderData }: Route.ComponentProps) {
  const { t } = useT()
  return (
    <>
      <PageHero title={t('absence-trends.compare.title')} lead={t('absence-trends.compare.lead')} />
      <section className="section">
        <div className="container">
          <AbsenceCompareView data={loaderData.data} />
        </div>
      </section>
    </>
  )
}
