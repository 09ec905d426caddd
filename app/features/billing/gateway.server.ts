import type { Lang } from '#app/i18n/config.ts'
import type { RequestContext } from '#app/platform/context.server.ts'
import { createMoyasarGateway } from './gateways/moyasar.server.ts'
import { createSandboxGateway, type SandboxGateway } from './gateways/sandbox.server.ts'
import type { PaymentGateway } from './gateways/types.ts'

type GatewayContext = Pick<RequestContext, 'db' | 'env' | 'logger'>

/** The configured gateway (PAYMENT_GATEWAY) for a request. */
export function gatewayFor(ctx: GatewayContext, lang: Lang = 'ar'): PaymentGateway {
  const { env } = ctx
  if (env.PAYMENT_GATEWAY === 'moyasar') {
    // The environment check at start-up guarantees the three keys with this gateway.
    return createMoyasarGateway({
      secretKey: env.MOYASAR_SECRET_KEY ?? '',
      publishableKey: env.MOYASAR_PUBLISHABLE_KEY ?? '',
      webhookSecret: env.MOYASAR_WEBHOOK_SECRET ?? '',
      apiUrl: env.MOYASAR_API_URL,
    })
  }
  return sandboxFor(ctx, lang)
}

export function sandboxFor(ctx: GatewayContext, lang: Lang = 'ar'): SandboxGateway {
  return createSandboxGateway({ db: ctx.db, appUrl: ctx.env.APP_URL, sessionSecret: ctx.env.SESSION_SECRET, logger: ctx.logger, lang })
}
