import { data, Form, redirect, useNavigation } from 'react-router'
import { PackageCard } from '#app/features/billing/index.ts'
import { checkoutSchema } from '#app/features/billing/schemas.ts'
import { currentSubscription, gatewayFor, listPackages, startCheckout } from '#app/features/billing/index.server.ts'
import { requireUser } from '#app/features/accounts/index.server.ts'
import { formatDate } from '#app/i18n/format.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useT } from '#app/i18n/use-t.ts'
import { parseForm, runForm } from '#app/lib/action.server.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink } from '#app/ui/app-link.tsx'
import { FormErrorNotice } from '#app/ui/form-error-notice.tsx'
import { PageHero } from '#app/ui/page-hero.tsx'
import type { Route } from './+types/checkout'

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireUser(request, context, lang)
  const all = await listPackages({ db: context.db, lang, vatRateBasisPoints: context.env.VAT_RATE_BP })
  const pkg = all.find((p) => String(p.id) === params.packageId)
  if (!pkg) throw data(null, { status: 404 })
  const current = await currentSubscription({ db: context.db, userId: user.id })
  return {
    messages: getMessages(lang, ['billing', 'packages']),
    pkg,
    currentEndsAt: current ? formatDate(lang, current.endsAt) : null,
    methods: context.env.PAYMENT_METHODS,
  }
}

// Re-exported, not declared here: the actions' own `headers` variables would shadow it.
export { keepRetryAfter as headers } from '#app/lib/route-headers.ts'

export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  const { user } = await requireUser(request, context, lang)
  const parsed = parseForm(checkoutSchema, await request.formData(), ['method'])
  if (!parsed.ok) return parsed.response
  return runForm(parsed.values, async () => {
    const result = await startCheckout({
      ...context,
      gateway: gatewayFor(context, lang),
      input: {
        userId: user.id,
        packageId: Number(params.packageId),
        method: parsed.data.method,
        lang,
      },
    })
    throw redirect(result.redirectUrl ?? `/${lang}/payments/result/${result.paymentId}`)
  })
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'billing.meta.checkout', 'checkout')

export default function Checkout({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT()
  const navigation = useNavigation()
  const errors = actionData && !actionData.ok ? actionData.errors : {}
  const refused = loaderData.currentEndsAt || errors._form?.includes('billing.errors.alreadySubscribed')
  return (
    <>
      <PageHero title={t('billing.checkout.title')} lead={t('billing.checkout.lead')} />
      <section className="section">
        <div className="container checkout-grid">
          <PackageCard pkg={loaderData.pkg} headingLevel={2} />
          <div className="card">
            {refused ? (
              <div className="notice notice-error" role="alert">
                <p>
                  <strong>{t('billing.errors.alreadySubscribedTitle')}</strong>
                </p>
                <p>{t('billing.errors.alreadySubscribed')}</p>
                {loaderData.currentEndsAt ? (
                  <p>{t('billing.activeUntil', { date: `${loaderData.currentEndsAt.gregorian} (${loaderData.currentEndsAt.hijri})` })}</p>
                ) : null}
                <AppLink to="subscriptions">{t('billing.result.subscriptions')}</AppLink>
              </div>
            ) : (
              <>
                <FormErrorNotice errors={errors} />
                <Form method="post" className="form">
                  <fieldset className={`method-field${errors.method ? ' has-error' : ''}`}>
                    <legend>{t('billing.checkout.method')}</legend>
                    {loaderData.methods.map((m, i) => (
                      <label key={m} className="method-option">
                        <input type="radio" name="method" value={m} defaultChecked={i === 0} required />
                        <span>{t(`billing.checkout.methods.${m}`)}</span>
                      </label>
                    ))}
                    {errors.method ? (
                      <p className="field-error" role="alert">
                        {t(errors.method[0] ?? '')}
                      </p>
                    ) : null}
                  </fieldset>
                  <button type="submit" className="button button-primary button-large" disabled={navigation.state !== 'idle'}>
                    {t('billing.checkout.pay')}
                  </button>
                  <p className="muted">{t('billing.checkout.secure')}</p>
                </Form>
              </>
            )}
          </div>
        </div>
      </section>
    </>
  )
}
