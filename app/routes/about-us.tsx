import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useT } from '#app/i18n/use-t.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { CardGrid, PageHero, type TitledText } from '#app/ui/page-hero.tsx'
import type { Route } from './+types/about-us'
import { staticForGuests } from '#app/document/static-pages.ts'

export function loader({ params }: Route.LoaderArgs) {
  return { messages: getMessages(langParam(params), ['about']) }
}

// Sent to guests without React in the browser (app/document/static-pages.ts).
export const handle = staticForGuests

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'about', 'about-us')

type Section = { key: string; title: string; text: string }

export default function AboutUs() {
  const { t, tm } = useT()
  return (
    <>
      <PageHero title={t('about.title')} lead={t('about.lead')} />
      <section className="section">
        <div className="container card-grid card-grid-2">
          {tm<Section[]>('about.sections').map((section) => (
            <article key={section.key} className="card" id={section.key}>
              <h2>{section.title}</h2>
              <p>{section.text}</p>
            </article>
          ))}
        </div>
      </section>
      <section className="section section-alt">
        <div className="container">
          <h2 className="section-title">{t('about.values.title')}</h2>
          <CardGrid items={tm<TitledText[]>('about.values.items')} columns={4} />
        </div>
      </section>
    </>
  )
}
