import type { CurrentSession } from '#app/features/accounts/index.server.ts'
import type { RequestContext } from '#app/server/context.server.ts'

/** `apiSession`: the bearer token's session, once looked up (see auth.ts); null without a valid one. */
export type ApiEnv = { Variables: { ctx: RequestContext; apiSession?: CurrentSession | null } }
