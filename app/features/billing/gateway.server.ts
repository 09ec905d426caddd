import type { Lang } from '#app/i18n/config.ts'
import type { RequestContext } from '#app/server/context.server.ts'
import { createSandboxGateway, type SandboxGateway } from './gateways/sandbox.server.ts'
import type { PaymentGateway } from './gateways/types.ts'

/** The configured gateway (PAYMENT_GATEWAY) for a request. */
export function gatewayFor(ctx: Pick<RequestContext, 'db' | 'env' | 'logger'>, lang: Lang = 'ar'): PaymentGateway {
  return sandboxFor(ctx, lang)
}

export function sandboxFor(ctx: Pick<RequestContext, 'db' | 'env' | 'logger'>, lang: Lang = 'ar'): SandboxGateway {
  return createSandboxGateway({ db: ctx.db, appUrl: ctx.env.APP_URL, sessionSecret: ctx.env.SESSION_SECRET, logger: ctx.logger, lang })
}
