import { formatDate } from '#app/i18n/format.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { AppLink } from '#app/ui/app-link.tsx'
import { ArrowIcon } from '#app/ui/icons.tsx'
import { Sentence } from '#app/ui/sentence.tsx'
import type { HomeSubscription, TeacherHome as TeacherHomeData } from './home-data.ts'

const tools = [
  { key: 'absence', to: 'analysis' },
  { key: 'grades', to: 'analysis-grade' },
  { key: 'exams', to: 'exams' },
] as const

/** A date in both calendars, the Hijri one kept whole on its line. */
function DualDate({ iso }: { iso: string }) {
  const lang = useLang()
  const date = formatDate(lang, iso)
  return (
    <time dateTime={iso} className="dual-date">
      <span>{date.gregorian}</span> <span className="dual-date-hijri">({date.hijri})</span>
    </time>
  )
}

/** The signed-in teacher's home: where she starts work (docs: the guest home is `content`'s). */
export function TeacherHome({ home, name, unread }: { home: TeacherHomeData; name: string; unread: number }) {
  const { t } = useT()
  const isSubscribed = home.subscription.state === 'current'
  return (
    <>
      <section className="page-hero teacher-hero">
        <div className="container">
          <h1>
            <Sentence text={t('teacher-home.greeting')} values={{ name: <bdi>{name}</bdi> }} />
          </h1>
          <p className="lead">{t('teacher-home.lead')}</p>
          <div className="home-status">
            <SubscriptionCard subscription={home.subscription} />
            <section className={`card home-status-card${unread > 0 ? ' has-unread' : ''}`} aria-labelledby="home-notifications-title">
              <h2 id="home-notifications-title">{t('teacher-home.notifications.title')}</h2>
              <p className="home-unread">{t('session.menu.unread', { count: unread })}</p>
              <AppLink to="notifications">
                {t('teacher-home.notifications.open')} <ArrowIcon className="icon icon-inline" />
              </AppLink>
            </section>
          </div>
        </div>
      </section>

      <section className="section" aria-labelledby="home-tools-title">
        <div className="container">
          <h2 id="home-tools-title">{t('teacher-home.tools.title')}</h2>
          {isSubscribed ? null : <p className="muted">{t('teacher-home.tools.needsSubscription')}</p>}
          <ul className="home-tools">
            {tools.map((tool) => (
              <li key={tool.key} className={`card tool-card tool-${tool.key} tool-entry`}>
                <h3>{t(`teacher-home.tools.${tool.key}.title`)}</h3>
                <p>{t(`teacher-home.tools.${tool.key}.text`)}</p>
                {/* The whole card answers a click (the link's box is stretched over it); the link's name is its own words. */}
                <AppLink className="button button-primary tool-entry-link" to={tool.to}>
                  {t(`teacher-home.tools.${tool.key}.cta`)} <ArrowIcon className="icon icon-inline" />
                </AppLink>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section section-alt">
        <div className="container home-recent">
          <RecentList
            id="home-analyses"
            title={t('teacher-home.recent.analyses.title')}
            items={home.analyses.map((a) => ({
              id: a.id,
              title: a.title,
              to: `single-analysis?id=${a.id}`,
              detail: t(`analyses.kinds.${a.kind}`),
              createdAt: a.createdAt,
            }))}
            empty={t('teacher-home.recent.analyses.empty')}
            firstStep={t('teacher-home.recent.analyses.firstStep')}
            start={{ to: 'analysis', label: t('teacher-home.tools.absence.cta') }}
            all={{ to: 'last-multiple', label: t('teacher-home.recent.analyses.all') }}
          />
          <RecentList
            id="home-exams"
            title={t('teacher-home.recent.exams.title')}
            items={home.exams.map((e) => ({
              id: e.id,
              title: e.title,
              to: `exams-test?id=${e.id}`,
              detail: t('teacher-home.recent.exams.questions', { count: e.questionCount }),
              createdAt: e.createdAt,
            }))}
            empty={t('teacher-home.recent.exams.empty')}
            firstStep={t('teacher-home.recent.exams.firstStep')}
            start={{ to: 'exams-test', label: t('teacher-home.recent.exams.start') }}
            all={{ to: 'exams', label: t('teacher-home.recent.exams.all') }}
          />
        </div>
      </section>
    </>
  )
}

function SubscriptionCard({ subscription }: { subscription: HomeSubscription }) {
  const { t } = useT()
  const values = (date: string, packageName: string) => ({ package: <bdi>{packageName}</bdi>, date: <DualDate iso={date} /> })
  return (
    <section className={`card home-status-card subscription-${subscription.state}`} aria-labelledby="home-subscription-title">
      <h2 id="home-subscription-title">{t('teacher-home.subscription.title')}</h2>
      {subscription.state === 'current' ? (
        <>
          <p>
            <Sentence text={t('teacher-home.subscription.current')} values={values(subscription.endsAt, subscription.packageName)} />{' '}
            {t('teacher-home.subscription.daysLeft', { count: subscription.daysLeft })}
          </p>
          <AppLink to="subscriptions">
            {t('teacher-home.subscription.manage')} <ArrowIcon className="icon icon-inline" />
          </AppLink>
        </>
      ) : subscription.state === 'upcoming' ? (
        <>
          <p>
            <Sentence text={t('teacher-home.subscription.upcoming')} values={values(subscription.startsAt, subscription.packageName)} />
          </p>
          <AppLink to="subscriptions">
            {t('teacher-home.subscription.manage')} <ArrowIcon className="icon icon-inline" />
          </AppLink>
        </>
      ) : (
        <>
          <p>
            {subscription.state === 'expired' ? (
              <Sentence text={t('teacher-home.subscription.expired')} values={values(subscription.endsAt, subscription.packageName)} />
            ) : (
              t('teacher-home.subscription.none')
            )}
          </p>
          <AppLink className="button button-primary" to="packages">
            {subscription.state === 'expired' ? t('teacher-home.subscription.renew') : t('teacher-home.subscription.choose')}
          </AppLink>
        </>
      )}
    </section>
  )
}

type RecentItem = { id: string; title: string; to: string; detail: string; createdAt: string }

function RecentList(props: {
  id: string
  title: string
  items: RecentItem[]
  empty: string
  firstStep: string
  start: { to: string; label: string }
  all: { to: string; label: string }
}) {
  const { t } = useT()
  return (
    <section className="card home-recent-list" aria-labelledby={`${props.id}-title`}>
      <h2 id={`${props.id}-title`}>{props.title}</h2>
      {props.items.length === 0 ? (
        <div className="empty-state">
          <p>{props.empty}</p>
          <p>{props.firstStep}</p>
          <AppLink className="button button-primary" to={props.start.to}>
            {props.start.label}
          </AppLink>
        </div>
      ) : (
        <>
          <ul className="recent-items">
            {props.items.map((item) => (
              <li key={item.id}>
                <AppLink to={item.to} dir="auto" className="recent-title">
                  {item.title}
                </AppLink>
                <span className="muted">
                  {item.detail} · <Sentence text={t('teacher-home.recent.created')} values={{ date: <DualDate iso={item.createdAt} /> }} />
                </span>
              </li>
            ))}
          </ul>
          <p className="recent-all">
            <AppLink to={props.all.to}>
              {props.all.label} <ArrowIcon className="icon icon-inline" />
            </AppLink>
          </p>
        </>
      )}
    </section>
  )
}
