import { data, Form, redirect, useNavigation } from 'react-router'
import { flashCookie } from '#app/features/accounts/index.server.ts'
import { refundSchema } from '#app/features/billing/schemas.ts'
import { findPaymentDetail, gatewayFor } from '#app/features/billing/index.server.ts'
import { limitOperatorWrites, refundPaymentByOperator, requireOperatorPage } from '#app/features/operators/index.server.ts'
import { formatMoney } from '#app/i18n/format.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { useLang, useT } from '#app/i18n/use-t.ts'
import { parseForm, runForm } from '#app/lib/action.server.ts'
import { metaFromMessages } from '#app/lib/seo.ts'
import { AppLink, localPath } from '#app/ui/app-link.tsx'
import { FormErrorNotice } from '#app/ui/form-error-notice.tsx'
import type { Route } from './+types/admin-payment-refund'

// The refund's confirmation step: a page of its own, so it works without JavaScript (the
// payment's page links here; this form posts the confirmation). docs/billing.md, "Refunds".

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  await requireOperatorPage(request, context, lang)
  const detail = await findPaymentDetail({ db: context.db, paymentId: params.paymentId })
  if (!detail) throw data(null, { status: 404 })
  // Refunded already, or not refundable: the payment's page says why.
  if (detail.payment.status !== 'paid' || !detail.invoice) throw redirect(localPath(lang, `admin/payments/${detail.payment.id}`))
  return {
    messages: getMessages(lang, ['operators', 'money', 'billing.refund', 'common']),
    paymentId: detail.payment.id,
    total: detail.payment.total,
    gateway: detail.payment.gateway,
    invoiceSerial: detail.invoice.serial,
    teacherEmail: detail.teacher?.email ?? null,
  }
}

export { keepRetryAfter as headers } from '#app/lib/route-headers.ts'

export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  const { user } = await requireOperatorPage(request, context, lang)
  const parsed = parseForm(refundSchema, await request.formData(), ['confirm'])
  if (!parsed.ok) return parsed.response
  return runForm(parsed.values, async () => {
    await limitOperatorWrites({ db: context.db, operatorId: user.id })
    await refundPaymentByOperator({
      db: context.db,
      gateway: gatewayFor(context, lang),
      env: context.env,
      logger: context.logger,
      operator: { id: user.id, email: user.email },
      paymentId: params.paymentId,
    })
    throw redirect(localPath(lang, `admin/payments/${params.paymentId}`), {
      headers: { 'Set-Cookie': flashCookie('success', 'money.refund.done') },
    })
  })
}

export const meta: Route.MetaFunction = (args) => metaFromMessages(args, 'money.meta.refund', 'admin/payments')

export default function AdminPaymentRefund({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT()
  const lang = useLang()
  const navigation = useNavigation()
  const errors = actionData && !actionData.ok ? actionData.errors : {}
  const amount = formatMoney(lang, loaderData.total)
  return (
    <>
      <h1>{t('money.refund.title')}</h1>
      <div className="card admin-card admin-confirm">
        <FormErrorNotice errors={errors.confirm ? { _form: errors.confirm } : errors} />
        {loaderData.teacherEmail ? (
          <p>
            <bdi dir="ltr">{loaderData.teacherEmail}</bdi>
          </p>
        ) : null}
        <p>{t('money.refund.lead', { amount, gateway: loaderData.gateway, invoice: loaderData.invoiceSerial })}</p>
        <p>
          <strong>{t('money.refund.irreversible')}</strong>
        </p>
        <Form method="post" className="dialog-actions">
          <input type="hidden" name="confirm" value="yes" />
          <button type="submit" className="button button-danger" disabled={navigation.state === 'submitting'}>
            {t('money.refund.confirm', { amount })}
          </button>
          <AppLink className="button button-ghost" to={`admin/payments/${loaderData.paymentId}`}>
            {t('money.refund.cancel')}
          </AppLink>
        </Form>
      </div>
    </>
  )
}
