import { Form } from 'react-router'
import { listAllPackages, priceBreakdown } from '#app/features/billing/index.server.ts'
import { operatorOf, operatorPageWrite, requireOperatorPage, setPackageActiveByOperator } from '#app/features/operators/index.server.ts'
import { formatMoney } from '#app/i18n/format.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { DomainError } from '#app/lib/errors.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink, localPath } from '#app/ui/app-link.tsx'
import type { Route } from './+types/admin-packages'

// Every package, active or not, with its edit page and a deactivate / reactivate button
// (docs/operators.md, "Money"). Nothing is deleted: invoices keep their own copy anyway.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  await requireOperatorPage(request, context, lang)
  const rows = await listAllPackages({ db: context.db })
  return {
    messages: getMessages(lang, ['operators', 'money', 'packages.duration', 'common']),
    packages: rows.map((p) => ({
      id: p.id,
      slug: p.slug,
      name: lang === 'ar' ? p.nameAr : p.nameEn,
      price: p.priceHalalas,
      total: priceBreakdown(p.priceHalalas, context.env.VAT_RATE_BP).total,
      months: p.months,
      isActive: p.isActive,
      isBestSeller: p.isBestSeller,
      sortOrder: p.sortOrder,
    })),
  }
}

export { keepRetryAfter as headers } from '#app/lib/route-headers.ts'

export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  const { user } = await requireOperatorPage(request, context, lang)
  const form = await request.formData()
  const intent = form.get('intent')
  const packageId = Number(form.get('packageId'))
  return operatorPageWrite({
    context,
    operator: operatorOf(user),
    back: localPath(lang, 'admin/packages'),
    run: async () => {
      if ((intent !== 'deactivate' && intent !== 'reactivate') || !Number.isSafeInteger(packageId))
        throw new DomainError(404, 'billing.errors.packageNotFound')
      const isActive = intent === 'reactivate'
      await setPackageActiveByOperator({ db: context.db, operator: operatorOf(user), packageId, isActive })
      return isActive ? 'money.packages.reactivated' : 'money.packages.deactivated'
    },
  })
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'money.meta.packages', 'admin/packages')

export default function AdminPackages({ loaderData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  const rowActions = (p: (typeof loaderData.packages)[number]) => (
    <div className="admin-row-actions">
      <AppLink to={`admin/packages/${p.id}`}>{t('money.packages.edit')}</AppLink>
      <Form method="post">
        <input type="hidden" name="packageId" value={p.id} />
        <button
          type="submit"
          name="intent"
          value={p.isActive ? 'deactivate' : 'reactivate'}
          className={`button button-small ${p.isActive ? 'button-danger' : 'button-ghost'}`}
        >
          {t(p.isActive ? 'money.packages.deactivate' : 'money.packages.reactivate')}
        </button>
      </Form>
    </div>
  )
  return (
    <>
      <div className="admin-heading">
        <h1>{t('money.packages.title')}</h1>
        <AppLink className="button button-primary" to="admin/packages/new">
          {t('money.packages.new')}
        </AppLink>
      </div>
      <p className="muted">{t('money.packages.lead')}</p>
      <div className="table-wrap">
        <table className="data-table row-cards">
          <thead>
            <tr>
              <th scope="col">{t('money.packages.name')}</th>
              <th scope="col" className="num">
                {t('money.packages.price')}
              </th>
              <th scope="col" className="num">
                {t('money.packages.total')}
              </th>
              <th scope="col">{t('money.packages.months')}</th>
              <th scope="col">{t('money.packages.state')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('money.packages.edit')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {loaderData.packages.map((p) => (
              <tr key={p.id}>
                <th scope="row">
                  {p.name}{' '}
                  <code className="admin-id" dir="ltr">
                    {p.slug}
                  </code>
                  {p.isBestSeller ? <span className="status-badge status-current">{t('money.packages.bestSeller')}</span> : null}
                </th>
                <td data-label={t('money.packages.price')} className="num">
                  {formatMoney(lang, p.price)}
                </td>
                <td data-label={t('money.packages.total')} className="num">
                  {formatMoney(lang, p.total)}
                </td>
                <td data-label={t('money.packages.months')}>{t('packages.duration', { count: p.months })}</td>
                <td data-label={t('money.packages.state')}>
                  <span className={`status-badge ${p.isActive ? 'status-current' : 'status-expired'}`}>
                    {t(p.isActive ? 'money.packages.active' : 'money.packages.inactive')}
                  </span>
                </td>
                <td data-label={t('money.packages.actions')}>{rowActions(p)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  )
}
