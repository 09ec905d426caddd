import type { RequestContext } from '#app/server/context.server.ts'

export type ApiEnv = { Variables: { ctx: RequestContext } }
