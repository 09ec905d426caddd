import { data, Form, redirect, useNavigation } from 'react-router'
import { requireUser } from '#app/features/accounts/index.server.ts'
import {
  findUserPaymentByGatewayId,
  GatewayError,
  SANDBOX_CARD_FAILS,
  SANDBOX_CARD_SUCCEEDS,
  sandboxFor,
  SandboxCardRejected,
} from '#app/features/billing/index.server.ts'
import { formatMoney } from '#app/i18n/format.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { formFailure } from '#app/lib/action.server.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { FormField } from '#app/ui/form-field.tsx'
import { Ltr, Sentence } from '#app/ui/sentence.tsx'
import type { Route } from './+types/sandbox-pay'

// The built-in sandbox gateway's own page: it stands where a real gateway's page would,
// takes the published test cards only, and asks for a 3-D Secure confirmation.

/**
 * The sandbox and the payment it is asked about, which must be the signed-in teacher's own:
 * another teacher's payment id is "not found", like any id that is not theirs.
 */
async function ownSandboxPayment(request: Request, context: Route.LoaderArgs['context'], lang: 'ar' | 'en') {
  if (context.env.PAYMENT_GATEWAY !== 'sandbox') throw data(null, { status: 404 })
  const { user } = await requireUser(request, context, lang)
  const id = new URL(request.url).searchParams.get('id') ?? ''
  if (!(await findUserPaymentByGatewayId({ db: context.db, userId: user.id, gateway: 'sandbox', gatewayPaymentId: id })))
    throw data(null, { status: 404 })
  return { gateway: sandboxFor(context, lang), id }
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { gateway, id } = await ownSandboxPayment(request, context, lang)
  const payment = await gateway.find(id)
  if (!payment || (payment.status !== 'initiated' && payment.status !== 'awaiting_3ds')) throw data(null, { status: 404 })
  return {
    messages: getMessages(lang, ['billing']),
    id,
    amount: payment.amount,
    step: payment.status === 'awaiting_3ds' ? ('3ds' as const) : ('card' as const),
    testCards: { succeeds: cardGroups(SANDBOX_CARD_SUCCEEDS), fails: cardGroups(SANDBOX_CARD_FAILS) },
  }
}

/** `4111111111111111` → `4111 1111 1111 1111`, as printed on a card. */
const cardGroups = (digits: string) => digits.replace(/(\d{4})(?=\d)/g, '$1 ')

export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  const { gateway, id } = await ownSandboxPayment(request, context, lang)
  const form = await request.formData()
  if (form.get('intent') === 'confirm') {
    // A payment past this step (paid, failed, or sent twice) is no longer the page's to act on.
    const next = await gateway.confirm3ds(id).catch((error: unknown) => {
      if (error instanceof GatewayError) throw data(null, { status: 404 })
      throw error
    })
    return redirect(next)
  }
  const card = {
    number: String(form.get('number') ?? ''),
    name: String(form.get('name') ?? ''),
    expiry: String(form.get('expiry') ?? ''),
    cvc: String(form.get('cvc') ?? ''),
  }
  try {
    await gateway.submitCard(id, card)
  } catch (error) {
    if (error instanceof GatewayError) throw data(null, { status: 404 })
    if (!(error instanceof SandboxCardRejected)) throw error
    return formFailure(422, { [error.field]: [`billing.sandbox.errors.${error.field}`] }, { name: card.name, expiry: card.expiry })
  }
  return redirect(`/${lang}/sandbox-pay?id=${encodeURIComponent(id)}`)
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'billing.meta.sandbox', 'sandbox-pay', { noindex: true })

export default function SandboxPay({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  const navigation = useNavigation()
  const errors = actionData && !actionData.ok ? actionData.errors : {}
  const values = actionData && !actionData.ok ? actionData.values : {}
  return (
    <>
      <h1>{loaderData.step === 'card' ? t('billing.sandbox.title') : t('billing.sandbox.threeDs')}</h1>
      <p className="notice notice-info">
        <Sentence
          text={t('billing.sandbox.notice')}
          values={{ succeeds: <Ltr>{loaderData.testCards.succeeds}</Ltr>, fails: <Ltr>{loaderData.testCards.fails}</Ltr> }}
        />
      </p>
      <p className="sandbox-amount">
        {t('billing.sandbox.amount')}: <strong>{formatMoney(lang, loaderData.amount)}</strong>
      </p>
      {loaderData.step === 'card' ? (
        <Form method="post" className="form" noValidate>
          <FormField id="sb-number" label={t('billing.sandbox.cardNumber')} errors={errors.card} required>
            {(p) => <input {...p} name="number" dir="ltr" inputMode="numeric" autoComplete="cc-number" maxLength={23} required />}
          </FormField>
          <FormField id="sb-name" label={t('billing.sandbox.nameOnCard')} errors={errors.name} required>
            {(p) => <input {...p} name="name" dir="ltr" autoComplete="cc-name" maxLength={60} defaultValue={values.name} required />}
          </FormField>
          <div className="form-row">
            <FormField id="sb-expiry" label={t('billing.sandbox.expiry')} errors={errors.expiry} required>
              {(p) => (
                <input
                  {...p}
                  name="expiry"
                  dir="ltr"
                  inputMode="numeric"
                  autoComplete="cc-exp"
                  placeholder="MM/YY"
                  maxLength={7}
                  defaultValue={values.expiry}
                  required
                />
              )}
            </FormField>
            <FormField id="sb-cvc" label={t('billing.sandbox.cvc')} errors={errors.cvc} required>
              {(p) => <input {...p} name="cvc" dir="ltr" inputMode="numeric" autoComplete="cc-csc" maxLength={4} required />}
            </FormField>
          </div>
          <button type="submit" name="intent" value="card" className="button button-primary" disabled={navigation.state !== 'idle'}>
            {t('billing.sandbox.pay')}
          </button>
        </Form>
      ) : (
        <Form method="post" className="form">
          <p>{t('billing.sandbox.threeDsLead')}</p>
          <button type="submit" name="intent" value="confirm" className="button button-primary" disabled={navigation.state !== 'idle'}>
            {t('billing.sandbox.confirm')}
          </button>
        </Form>
      )}
    </>
  )
}
