import { useEffect, useRef, useState, type FormEvent } from 'react'
import { data, redirect } from 'react-router'
import { browserCheckoutFor, gatewayFor } from '#app/features/billing/index.server.ts'
import {
  appleMerchantSession,
  cardSource,
  confirmStcPay,
  createBrowserPayment,
  stcPaySource,
  type PayError,
  type PayStep,
} from '#app/features/billing/index.ts'
import { requireUser } from '#app/features/accounts/index.server.ts'
import { formatMoney } from '#app/i18n/format.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink } from '#app/ui/app-link.tsx'
import { FormField } from '#app/ui/form-field.tsx'
import type { Route } from './+types/gateway-pay'

// The payment page of a gateway whose payment the browser creates (Moyasar): the card, the STC
// Pay number and code, or Apple Pay's token go from here to the gateway with its publishable key.
// The fields carry no `name`, so even a form sent before the script runs carries none of them.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireUser(request, context, lang)
  const { payment, pkg, checkout } = await browserCheckoutFor({
    ...context,
    gateway: gatewayFor(context, lang),
    input: {
      userId: user.id,
      paymentId: params.paymentId,
      lang,
    },
  })
  if (!payment) throw data(null, { status: 404 })
  if (!checkout || !pkg) throw redirect(`/${lang}/payments/result/${payment.id}`)
  return {
    messages: getMessages(lang, ['billing']),
    checkout,
    method: payment.method,
    packageId: payment.packageId,
    packageName: lang === 'ar' ? pkg.nameAr : pkg.nameEn,
    amounts: { price: payment.price, vat: payment.vat, total: payment.total },
    merchantName: lang === 'ar' ? context.env.SELLER_NAME_AR : context.env.SELLER_NAME_EN,
  }
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'billing.meta.pay', 'payments/pay')

type ApplePayPaymentToken = { paymentData: unknown }
type ApplePaySessionLike = {
  onvalidatemerchant: ((event: { validationURL: string }) => void) | null
  onpaymentauthorized: ((event: { payment: { token: ApplePayPaymentToken } }) => void) | null
  oncancel: (() => void) | null
  completeMerchantValidation(session: unknown): void
  completePayment(status: number): void
  abort(): void
  begin(): void
}
type ApplePaySessionClass = {
  new (version: number, request: unknown): ApplePaySessionLike
  canMakePayments(): boolean
  STATUS_SUCCESS: number
  STATUS_FAILURE: number
}

function applePaySession(): ApplePaySessionClass | null {
  const candidate = (globalThis as { ApplePaySession?: ApplePaySessionClass }).ApplePaySession
  try {
    return candidate && candidate.canMakePayments() ? candidate : null
  } catch {
    return null
  }
}

export default function GatewayPay({ loaderData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  const { checkout, method, amounts } = loaderData
  const [ready, setReady] = useState(false)
  const [busy, setBusy] = useState(false)
  const [errors, setErrors] = useState<PayError[]>([])
  const [failure, setFailure] = useState<'unreachable' | 'rejected' | null>(null)
  const [otpUrl, setOtpUrl] = useState<string | null>(null)
  const [applePay, setApplePay] = useState<ApplePaySessionClass | null>(null)
  const formRef = useRef<HTMLFormElement>(null)

  useEffect(() => {
    setReady(true)
    if (method === 'applepay') setApplePay(() => applePaySession())
  }, [method])

  function follow(step: PayStep) {
    if (step.kind === 'navigate') {
      window.location.assign(step.url)
      return
    }
    setBusy(false)
    if (step.kind === 'otp') {
      setOtpUrl(step.url)
      setErrors([])
    } else if (step.kind === 'invalid') setErrors(step.fields)
    else setFailure(step.kind)
  }

  function value(field: string): string {
    const input = formRef.current?.querySelector<HTMLInputElement>(`[data-field="${field}"]`)
    return input?.value ?? ''
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (busy) return
    setFailure(null)
    if (otpUrl) {
      setBusy(true)
      follow(await confirmStcPay(checkout, otpUrl, value('otp')))
      return
    }
    const built =
      method === 'stcpay'
        ? stcPaySource(value('mobile'))
        : cardSource({ name: value('name'), number: value('number'), month: value('month'), year: value('year'), cvc: value('cvc') })
    if ('errors' in built) {
      setErrors(built.errors)
      formRef.current?.querySelector<HTMLInputElement>(`[data-field="${built.errors[0]}"]`)?.focus()
      return
    }
    setErrors([])
    setBusy(true)
    follow(await createBrowserPayment(checkout, built.source))
  }

  function payWithApple() {
    if (!applePay) return
    setFailure(null)
    const session = new applePay(3, {
      countryCode: 'SA',
      currencyCode: checkout.body.currency,
      supportedNetworks: ['mada', 'visa', 'masterCard'],
      merchantCapabilities: ['supports3DS'],
      total: { label: loaderData.merchantName, amount: (checkout.body.amount / 100).toFixed(2) },
    })
    session.onvalidatemerchant = (event) => {
      appleMerchantSession(checkout, event.validationURL, loaderData.merchantName, window.location.hostname)
        .then((merchant) => session.completeMerchantValidation(merchant))
        .catch(() => {
          session.abort()
          setFailure('unreachable')
        })
    }
    session.onpaymentauthorized = (event) => {
      setBusy(true)
      void createBrowserPayment(checkout, { type: 'applepay', token: JSON.stringify(event.payment.token) }).then((step) => {
        session.completePayment(step.kind === 'navigate' ? applePay.STATUS_SUCCESS : applePay.STATUS_FAILURE)
        follow(step)
      })
    }
    // Apple documents ApplePaySession's handlers as these properties.
    // oxlint-disable-next-line unicorn/prefer-add-event-listener
    session.oncancel = () => setBusy(false)
    session.begin()
  }

  const fieldErrors = (field: PayError) => (errors.includes(field) ? [`billing.pay.errors.${field}`] : undefined)
  const cardMethod = method === 'creditcard' || method === 'mada'

  return (
    <>
      <h1>{t('billing.pay.title')}</h1>
      <p>{t('billing.pay.lead')}</p>
      <dl className="pay-summary">
        <div>
          <dt>{t('billing.checkout.package')}</dt>
          <dd>{loaderData.packageName}</dd>
        </div>
        <div>
          <dt>{t('billing.checkout.method')}</dt>
          <dd>{t(`billing.checkout.methods.${method}`)}</dd>
        </div>
        <div>
          <dt>{t('billing.pay.amount')}</dt>
          <dd>
            <strong>{formatMoney(lang, amounts.total)}</strong>
          </dd>
        </div>
      </dl>
      <noscript>
        <p className="notice notice-error">{t('billing.pay.needsJs')}</p>
      </noscript>
      {failure ? (
        <p className="notice notice-error" role="alert">
          {t(`billing.pay.errors.${failure}`)}
        </p>
      ) : null}
      {method === 'applepay' ? (
        applePay ? (
          <button type="button" className="button button-primary button-large" onClick={payWithApple} disabled={busy}>
            {t('billing.pay.applePay')}
          </button>
        ) : ready ? (
          <p className="notice notice-info" role="status">
            {t('billing.pay.applePayUnavailable')}
          </p>
        ) : null
      ) : (
        <form ref={formRef} className="form" noValidate onSubmit={onSubmit} aria-busy={busy}>
          {otpUrl ? (
            <FormField id="pay-otp" label={t('billing.pay.otp')} hint={t('billing.pay.otpHint')} errors={fieldErrors('otp')} required>
              {(p) => <input {...p} data-field="otp" dir="ltr" inputMode="numeric" autoComplete="one-time-code" maxLength={8} required />}
            </FormField>
          ) : cardMethod ? (
            <>
              <FormField id="pay-number" label={t('billing.pay.cardNumber')} errors={fieldErrors('number')} required>
                {(p) => <input {...p} data-field="number" dir="ltr" inputMode="numeric" autoComplete="cc-number" maxLength={23} required />}
              </FormField>
              <FormField id="pay-name" label={t('billing.pay.nameOnCard')} errors={fieldErrors('name')} required>
                {(p) => <input {...p} data-field="name" dir="ltr" autoComplete="cc-name" maxLength={60} required />}
              </FormField>
              <div className="form-row">
                <FormField id="pay-month" label={t('billing.pay.month')} errors={fieldErrors('month')} required>
                  {(p) => (
                    <input
                      {...p}
                      data-field="month"
                      dir="ltr"
                      inputMode="numeric"
                      autoComplete="cc-exp-month"
                      placeholder="MM"
                      maxLength={2}
                      required
                    />
                  )}
                </FormField>
                <FormField id="pay-year" label={t('billing.pay.year')} errors={fieldErrors('year')} required>
                  {(p) => (
                    <input
                      {...p}
                      data-field="year"
                      dir="ltr"
                      inputMode="numeric"
                      autoComplete="cc-exp-year"
                      placeholder="YY"
                      maxLength={4}
                      required
                    />
                  )}
                </FormField>
                <FormField id="pay-cvc" label={t('billing.pay.cvc')} errors={fieldErrors('cvc')} required>
                  {(p) => <input {...p} data-field="cvc" dir="ltr" inputMode="numeric" autoComplete="cc-csc" maxLength={4} required />}
                </FormField>
              </div>
            </>
          ) : (
            <FormField
              id="pay-mobile"
              label={t('billing.pay.mobile')}
              hint={t('billing.pay.mobileHint')}
              errors={fieldErrors('mobile')}
              required
            >
              {(p) => (
                <input
                  {...p}
                  data-field="mobile"
                  dir="ltr"
                  inputMode="tel"
                  autoComplete="tel"
                  placeholder="05XXXXXXXX"
                  maxLength={10}
                  required
                />
              )}
            </FormField>
          )}
          <button type="submit" className="button button-primary button-large" data-needs-script disabled={!ready || busy}>
            {otpUrl ? t('billing.pay.confirm') : method === 'stcpay' ? t('billing.pay.sendCode') : t('billing.pay.pay')}
          </button>
          {busy ? (
            <p className="muted" role="status">
              {t('billing.pay.working')}
            </p>
          ) : null}
        </form>
      )}
      <p>
        <AppLink to={`checkout/${loaderData.packageId}`}>{t('billing.pay.otherMethod')}</AppLink>
      </p>
    </>
  )
}
