import { PackageGrid } from '#app/features/billing/index.ts'
import { listPackages } from '#app/features/billing/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useT } from '#app/i18n/use-t.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { PageHero } from '#app/ui/page-hero.tsx'
import type { Route } from './+types/packages'

export async function loader({ params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const packages = await listPackages({ db: context.db, lang, vatRateBasisPoints: context.env.VAT_RATE_BP })
  return { messages: getMessages(lang, ['packages']), packages }
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'packages', 'packages')

export default function Packages({ loaderData }: Route.ComponentProps) {
  const { t, tm } = useT()
  return (
    <>
      <PageHero title={t('packages.title')} lead={t('packages.lead')} />
      <section className="section">
        <div className="container">
          <PackageGrid packages={loaderData.packages} />
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
