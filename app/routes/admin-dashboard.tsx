import { operatorDashboard, requireOperatorPage } from '#app/features/operators/index.server.ts'
import { intlLocale, type Lang } from '#app/i18n/config.ts'
import { formatMoney, formatNumber } from '#app/i18n/format.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { ColumnChart } from '#app/ui/charts.tsx'
import { KeyFigures } from '#app/ui/report-parts.tsx'
import type { Route } from './+types/admin-dashboard'

// The operator area's first page (docs/operators.md, "Money"): key figures and charts of the
// last 30 days and 12 months, the tables under them holding every figure.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  await requireOperatorPage(request, context, lang)
  return { messages: getMessages(lang, ['operators', 'money']), dashboard: await operatorDashboard({ db: context.db }) }
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'money.meta.dashboard', 'admin')

const dayLabel = (lang: Lang, day: string) =>
  new Intl.DateTimeFormat(intlLocale[lang], { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`))
const monthLabel = (lang: Lang, month: string) =>
  new Intl.DateTimeFormat(intlLocale[lang], { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`))

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  const dir = lang === 'ar' ? 'rtl' : 'ltr'
  const { dashboard } = loaderData
  const thisMonth = dashboard.revenue.at(-1)
  const count = (n: number) => formatNumber(lang, n)
  // The axis in riyals without decimals: halalas would read as a hundred times the money.
  const riyals = (halalas: number) => formatNumber(lang, Math.round(halalas / 100))
  const days = dashboard.signUps.map((d) => dayLabel(lang, d.day))
  const months = dashboard.revenue.map((m) => monthLabel(lang, m.month))
  return (
    <>
      <h1>{t('money.dashboard.title')}</h1>
      <p className="muted">{t('money.dashboard.lead')}</p>
      <KeyFigures
        items={[
          { label: t('money.dashboard.teachers'), value: count(dashboard.teachers) },
          { label: t('money.dashboard.activeSubscriptions'), value: count(dashboard.activeSubscriptions) },
          { label: t('money.dashboard.revenueMonth'), value: formatMoney(lang, thisMonth?.excludingVat ?? 0) },
          { label: t('money.dashboard.revenueMonthVat'), value: formatMoney(lang, thisMonth?.includingVat ?? 0) },
        ]}
      />
      <div className="chart-grid admin-charts">
        <ColumnChart
          id="revenue"
          title={t('money.dashboard.revenue')}
          labels={months}
          dir={dir}
          series={[
            { key: 'excl', label: t('money.dashboard.excludingVat'), tone: 'band1', values: dashboard.revenue.map((m) => m.excludingVat) },
            { key: 'incl', label: t('money.dashboard.includingVat'), tone: 'band3', values: dashboard.revenue.map((m) => m.includingVat) },
          ]}
          formatValue={(v) => formatMoney(lang, v)}
          formatAxis={riyals}
          minStep={100}
        />
        <ColumnChart
          id="sign-ups"
          title={t('money.dashboard.signUps')}
          labels={days}
          dir={dir}
          series={[
            { key: 'sign-ups', label: t('money.dashboard.signUpsSeries'), tone: 'band1', values: dashboard.signUps.map((d) => d.count) },
          ]}
          formatValue={count}
        />
        <ColumnChart
          id="activity"
          title={t('money.dashboard.activity')}
          labels={days}
          dir={dir}
          series={[
            { key: 'analyses', label: t('money.dashboard.analyses'), tone: 'band1', values: dashboard.analyses.map((d) => d.count) },
            { key: 'tests', label: t('money.dashboard.tests'), tone: 'band4', values: dashboard.tests.map((d) => d.count) },
          ]}
          formatValue={count}
        />
      </div>
      <details className="admin-figures">
        <summary>{t('money.dashboard.figures')}</summary>
        <div className="table-wrap">
          <table className="data-table">
            <caption>{t('money.dashboard.revenue')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('money.dashboard.month')}</th>
                <th scope="col" className="num">
                  {t('money.dashboard.excludingVat')}
                </th>
                <th scope="col" className="num">
                  {t('money.dashboard.includingVat')}
                </th>
              </tr>
            </thead>
            <tbody>
              {dashboard.revenue.map((m, i) => (
                <tr key={m.month}>
                  <th scope="row">{months[i]}</th>
                  <td className="num">{formatMoney(lang, m.excludingVat)}</td>
                  <td className="num">{formatMoney(lang, m.includingVat)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="table-wrap">
          <table className="data-table">
            <caption>{t('money.dashboard.activity')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('money.dashboard.day')}</th>
                <th scope="col" className="num">
                  {t('money.dashboard.signUpsSeries')}
                </th>
                <th scope="col" className="num">
                  {t('money.dashboard.analyses')}
                </th>
                <th scope="col" className="num">
                  {t('money.dashboard.tests')}
                </th>
              </tr>
            </thead>
            <tbody>
              {dashboard.signUps.map((d, i) => (
                <tr key={d.day}>
                  <th scope="row">{days[i]}</th>
                  <td className="num">{count(d.count)}</td>
                  <td className="num">{count(dashboard.analyses[i]?.count ?? 0)}</td>
                  <td className="num">{count(dashboard.tests[i]?.count ?? 0)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </>
  )
}
