import { redirect } from 'react-router'
import { findUserPayment, gatewayFor, settlePayment } from '#app/features/billing/index.server.ts'
import { requireUser } from '#app/features/accounts/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import type { Route } from './+types/payment-callback'

/**
 * The gateway sends the payer back here with `id` and `status`. The status in the address is
 * never trusted: settlement asks the gateway. Then to the result page.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireUser(request, context, lang)
  const gatewayPaymentId = new URL(request.url).searchParams.get('id') ?? ''
  const gateway = gatewayFor(context, lang)
  const result = gatewayPaymentId ? await settlePayment({ db: context.db, gateway, env: context.env, logger: context.logger, gatewayPaymentId }) : null
  if (!result || !(await findUserPayment(context, user.id, result.paymentId))) throw redirect(`/${lang}/packages`)
  throw redirect(`/${lang}/payments/result/${result.paymentId}`)
}
