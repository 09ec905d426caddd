import { PackageGrid } from '#app/features/billing/index.ts'
import { listPackages } from '#app/features/billing/index.server.ts'
import { memoize } from '#app/platform/memo.server.ts'
import { PUBLIC_LIST_TTL_MS } from '#app/lib/constants.ts'
import { ReviewList } from '#app/features/accounts/index.ts'
import { getCurrentSession, listApprovedReviews } from '#app/features/accounts/index.server.ts'
import { TeacherHome } from '#app/features/teacher-home/index.ts'
import { loadTeacherHome } from '#app/features/teacher-home/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useT } from '#app/i18n/use-t.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink } from '#app/ui/app-link.tsx'
import { FaqList, ProductShots, type FaqItem } from '#app/features/content/index.ts'
import { ArrowIcon } from '#app/ui/icons.tsx'
import { CardGrid, PageSection, type TitledText } from '#app/ui/page-hero.tsx'
import { useRevealOnScroll } from '#app/ui/use-reveal.ts'
import { useRouteLoaderData } from 'react-router'
import type { Route } from './+types/home'
import { staticForGuests } from '#app/document/static-pages.ts'

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  // A signed-in teacher's `/:lang` is her home. The guest page cache never takes a request
  // carrying the session cookie (server/http/page-cache.ts), so this page is never kept or shared.
  const current = await getCurrentSession(request, context)
  if (current) {
    return {
      kind: 'teacher' as const,
      messages: getMessages(lang, ['teacher-home', 'analyses.kinds']),
      home: await loadTeacherHome({ db: context.db, userId: current.user.id, lang }),
    }
  }
  // Public listings, the same for every visitor: kept for a few seconds per process.
  const [packages, reviews] = await Promise.all([
    memoize(context.db, `packages:${lang}`, PUBLIC_LIST_TTL_MS, () =>
      listPackages({ db: context.db, lang, vatRateBasisPoints: context.env.VAT_RATE_BP }),
    ),
    memoize(context.db, 'reviews:6', PUBLIC_LIST_TTL_MS, () => listApprovedReviews({ db: context.db, limit: 6 })),
  ])
  // Of the accounts texts, only the reviews' are shown here.
  const messages = getMessages(lang, ['home', 'packages', 'accounts.rates'])
  // The home page shows the first four questions only; the rest stay on the FAQ page.
  const faq = getMessages(lang, ['faq.items']).faq as { items: FaqItem[] }
  messages.faq = { items: faq.items.slice(0, 4) }
  return { kind: 'guest' as const, messages, packages, reviews: reviews.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) }
}

// Sent to guests without React in the browser (app/document/static-pages.ts).
export const handle = staticForGuests

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, args.loaderData?.kind === 'teacher' ? 'teacher-home' : 'home', '')

type Tool = { key: string; title: string; text: string; cta: string }

type RootUser = { username: string; name: string; unread: number } | null
type GuestData = Extract<Route.ComponentProps['loaderData'], { kind: 'guest' }>

export default function Home({ loaderData }: Route.ComponentProps) {
  const user = (useRouteLoaderData('root') as { user?: RootUser } | undefined)?.user
  // The header's count and the home's come from the same root data, so they always agree.
  if (loaderData.kind === 'teacher')
    return <TeacherHome home={loaderData.home} name={user?.name ?? user?.username ?? ''} unread={user?.unread ?? 0} />
  return <GuestHome loaderData={loaderData} />
}

function GuestHome({ loaderData }: { loaderData: GuestData }) {
  const { t, tm } = useT()
  const isGuest = !(useRouteLoaderData('root') as { user?: unknown } | undefined)?.user
  useRevealOnScroll()
  return (
    <>
      <section className="hero">
        <div className="container hero-inner">
          <p className="eyebrow">{t('home.hero.eyebrow')}</p>
          <h1>{t('home.hero.title')}</h1>
          <p className="lead">{t('home.hero.lead')}</p>
          <div className="hero-actions">
            {isGuest ? (
              <AppLink className="button button-primary button-large" to="SignIn">
                {t('home.hero.primaryCta')} <ArrowIcon className="icon icon-inline" />
              </AppLink>
            ) : null}
            <AppLink className={`button button-large ${isGuest ? 'button-ghost' : 'button-primary'}`} to="packages">
              {t('home.hero.secondaryCta')}
            </AppLink>
          </div>
        </div>
      </section>

      <PageSection id="product" title={t('home.product.title')} lead={t('home.product.lead')} alt>
        <ProductShots />
      </PageSection>

      <PageSection id="steps" title={t('home.steps.title')} lead={t('home.steps.lead')}>
        <ol className="steps">
          {tm<TitledText[]>('home.steps.items').map((step, i) => (
            <li key={step.title} className="step" data-reveal>
              <span className="step-number" aria-hidden="true">
                {i + 1}
              </span>
              <h3>{step.title}</h3>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
      </PageSection>

      <PageSection id="tools" title={t('home.tools.title')} lead={t('home.tools.lead')} alt>
        <div className="card-grid card-grid-3">
          {tm<Tool[]>('home.tools.items').map((tool) => (
            <article key={tool.key} className={`card tool-card tool-${tool.key}`} data-reveal>
              <h3>{tool.title}</h3>
              <p>{tool.text}</p>
            </article>
          ))}
        </div>
      </PageSection>

      <PageSection id="why" title={t('home.why.title')}>
        <CardGrid items={tm<TitledText[]>('home.why.items')} columns={4} reveal />
      </PageSection>

      <PageSection id="packages" title={t('home.packages.title')} lead={t('home.packages.lead')} alt>
        <PackageGrid packages={loaderData.packages} headingLevel={3} />
        <p className="section-more">
          <AppLink to="packages">
            {t('home.packages.all')} <ArrowIcon className="icon icon-inline" />
          </AppLink>
        </p>
      </PageSection>

      {loaderData.reviews.length > 0 ? (
        <PageSection id="reviews" title={t('home.reviews.title')} lead={t('home.reviews.lead')}>
          <ReviewList reviews={loaderData.reviews} />
          <p className="section-more">
            <AppLink to="rates">
              {t('accounts.rates.title')} <ArrowIcon className="icon icon-inline" />
            </AppLink>
          </p>
        </PageSection>
      ) : null}

      <PageSection id="faq" title={t('home.faq.title')} lead={t('home.faq.lead')} narrow>
        <FaqList items={tm<FaqItem[]>('faq.items')} />
        <p className="section-more">
          <AppLink to="common-questions">
            {t('home.faq.more')} <ArrowIcon className="icon icon-inline" />
          </AppLink>
        </p>
      </PageSection>

      <section className="section cta-band" aria-labelledby="cta-title">
        <div className="container narrow center">
          <h2 id="cta-title">{t('home.cta.title')}</h2>
          <p>{t('home.cta.text')}</p>
          <AppLink className="button button-primary button-large" to={isGuest ? 'SignIn' : 'packages'}>
            {isGuest ? t('home.cta.button') : t('home.hero.secondaryCta')}
          </AppLink>
        </div>
      </section>
    </>
  )
}
