import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useT } from '#app/i18n/use-t.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink } from '#app/ui/app-link.tsx'
import { FaqList, type FaqItem } from '#app/features/content/index.ts'
import { PageHero } from '#app/ui/page-hero.tsx'
import type { Route } from './+types/common-questions'
import { staticForGuests } from '#app/document/static-pages.ts'

export function loader({ params }: Route.LoaderArgs) {
  return { messages: getMessages(langParam(params), ['faq']) }
}

// Sent to guests without React in the browser (app/document/static-pages.ts).
export const handle = staticForGuests

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'faq', 'common-questions')

export default function CommonQuestions() {
  const { t, tm } = useT()
  return (
    <>
      <PageHero title={t('faq.title')} lead={t('faq.lead')} />
      <section className="section">
        <div className="container narrow">
          <FaqList items={tm<FaqItem[]>('faq.items')} />
          <aside className="callout">
            <h2>{t('faq.stillQuestions.title')}</h2>
            <p>{t('faq.stillQuestions.text')}</p>
            <AppLink className="button button-primary" to="contact-us">
              {t('faq.stillQuestions.cta')}
            </AppLink>
          </aside>
        </div>
      </section>
    </>
  )
}
