import { PackageGrid } from '#app/features/billing/index.ts'
import { currentSubscription, listPackages, listSubscriptions } from '#app/features/billing/index.server.ts'
import { getCurrentSession } from '#app/features/accounts/index.server.ts'
import { formatDate } from '#app/i18n/format.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { localPath } from '#app/ui/app-link.tsx'
import { metaFromMessages } from '#app/lib/seo.ts'
import { PageHero } from '#app/ui/page-hero.tsx'
import { PUBLIC_LIST_TTL_MS } from '#app/lib/constants.ts'
import { memoize } from '#app/platform/memo.server.ts'
import type { Route } from './+types/packages'
import { staticForGuests } from '#app/document/static-pages.ts'

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const packages = await memoize(context.db, `packages:${lang}`, PUBLIC_LIST_TTL_MS, () =>
    listPackages({ db: context.db, lang, vatRateBasisPoints: context.env.VAT_RATE_BP }),
  )
  const session = await getCurrentSession(request, context)
  const current = session ? await currentSubscription({ db: context.db, userId: session.user.id }) : null
  const hadOne = session && !current ? (await listSubscriptions({ db: context.db, userId: session.user.id, lang })).length > 0 : false
  return {
    messages: getMessages(lang, ['packages', 'billing']),
    packages,
    isSignedIn: Boolean(session),
    current: current ? { packageId: current.packageId, endsAt: formatDate(lang, current.endsAt) } : null,
    canRenew: hadOne,
  }
}

// Sent to guests without React in the browser (app/document/static-pages.ts).
export const handle = staticForGuests

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'packages', 'packages')

/** A date that never breaks across lines. */
const unbroken = (date: string) => date.replace(/ /g, '\u00A0')

/**
 * Subscribe (a guest logs in first), or Renew once a subscription has ended. While one is in
 * force its package shows until when, and the others nothing: the rule is said once, above them.
 */
function SubscribeAction({ packageId, data }: { packageId: number; data: Route.ComponentProps['loaderData'] }) {
  const { t } = useT()
  const lang = useLang()
  if (data.current) {
    if (data.current.packageId !== packageId) return null
    return (
      <p className="package-active">
        {t('billing.activeUntil', { date: unbroken(data.current.endsAt.gregorian) })}
        <span className="package-active-hijri">{unbroken(data.current.endsAt.hijri)}</span>
      </p>
    )
  }
  const checkout = localPath(lang, `checkout/${packageId}`)
  const href = data.isSignedIn ? checkout : `${localPath(lang, 'login')}?redirectTo=${encodeURIComponent(checkout)}`
  return (
    <a className="button button-primary package-subscribe" href={href}>
      {data.canRenew ? t('billing.renew') : t('billing.subscribe')}
    </a>
  )
}

export default function Packages({ loaderData }: Route.ComponentProps) {
  const { t, tm } = useT()
  return (
    <>
      <PageHero title={t('packages.title')} lead={t('packages.lead')} />
      <section className="section">
        <div className="container">
          {loaderData.current ? (
            <p className="notice notice-info package-rule">
              {t('billing.nextPackageAfter', { date: unbroken(loaderData.current.endsAt.gregorian) })}
            </p>
          ) : null}
          <PackageGrid
            packages={loaderData.packages}
            headingLevel={2}
            // oxlint-disable-next-line react/no-unstable-nested-components -- a render function, not a component type
            action={(pkg) => <SubscribeAction packageId={pkg.id} data={loaderData} />}
          />
          <aside className="callout">
            <h2>{t('packages.notes.title')}</h2>
            <ul className="check-list">
              {tm<string[]>('packages.notes.items').map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </aside>
        </div>
      </section>
    </>
  )
}
