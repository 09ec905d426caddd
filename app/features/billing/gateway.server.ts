import type { Lang } from '#app/i18n/config.ts'
import type { RequestContext } from '#app/platform/context.server.ts'
import { countGatewayFailure } from '#app/platform/metrics.server.ts'
import { createMoyasarGateway } from './gateways/moyasar.server.ts'
import { createSandboxGateway, type SandboxGateway } from './gateways/sandbox.server.ts'
import { GatewayError, type PaymentGateway } from './gateways/types.ts'

type GatewayContext = Pick<RequestContext, 'db' | 'env' | 'logger'>

/** The configured gateway (PAYMENT_GATEWAY) for a request. */
export function gatewayFor(ctx: GatewayContext, lang: Lang = 'ar'): PaymentGateway {
  const { env } = ctx
  if (env.PAYMENT_GATEWAY === 'moyasar') {
    // The environment check at start-up guarantees the three keys with this gateway.
    return withFailuresCounted(
      createMoyasarGateway({
        secretKey: env.MOYASAR_SECRET_KEY ?? '',
        publishableKey: env.MOYASAR_PUBLISHABLE_KEY ?? '',
        webhookSecret: env.MOYASAR_WEBHOOK_SECRET ?? '',
        apiUrl: env.MOYASAR_API_URL,
      }),
    )
  }
  return withFailuresCounted(sandboxFor(ctx, lang))
}

/** The gateway, its failed calls counted for /metrics by operation and kind (an unreachable gateway, a forged webhook). */
function withFailuresCounted(gateway: PaymentGateway): PaymentGateway {
  const count = (operation: string, error: unknown) =>
    countGatewayFailure({ gateway: gateway.name, operation, kind: error instanceof GatewayError ? error.kind : 'error' })
  const counted: PaymentGateway = Object.create(gateway)
  return Object.assign(counted, {
    createPayment: (input: Parameters<PaymentGateway['createPayment']>[0]) =>
      gateway.createPayment(input).catch((error: unknown) => {
        count('createPayment', error)
        throw error
      }),
    fetchPayment: (id: string) =>
      gateway.fetchPayment(id).catch((error: unknown) => {
        count('fetchPayment', error)
        throw error
      }),
    refundPayment: (id: string, amount: number) =>
      gateway.refundPayment(id, amount).catch((error: unknown) => {
        count('refundPayment', error)
        throw error
      }),
    verifyWebhook: (body: string, headers: Headers) => {
      try {
        return gateway.verifyWebhook(body, headers)
      } catch (error) {
        count('verifyWebhook', error)
        throw error
      }
    },
  })
}

export function sandboxFor(ctx: GatewayContext, lang: Lang = 'ar'): SandboxGateway {
  return createSandboxGateway({ db: ctx.db, appUrl: ctx.env.APP_URL, sessionSecret: ctx.env.SESSION_SECRET, logger: ctx.logger, lang })
}
