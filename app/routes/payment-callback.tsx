import { redirect } from 'react-router'
import { findUserPaymentByGatewayId, gatewayFor, GatewayError, settlePayment } from '#app/features/billing/index.server.ts'
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
  const mine = await findUserPaymentByGatewayId({ db: context.db, userId: user.id, gateway: gateway.name, gatewayPaymentId })
  if (!mine) throw redirect(`/${lang}/packages`)
  try {
    await settlePayment({ db: context.db, gateway, env: context.env, logger: context.logger, gatewayPaymentId })
  } catch (error) {
    // The gateway could not be asked (down, slow, or it does not know the payment yet): the
    // teacher sees the payment as pending; the webhook or reconciliation settles it later.
    if (!(error instanceof GatewayError)) throw error
    context.logger.warn({ kind: error.kind, paymentId: mine.id }, 'settlement on return deferred')
  }
  throw redirect(`/${lang}/payments/result/${mine.id}`)
}
