import type { RequestContext } from '#app/platform/context.server.ts'

/** What account use cases need from a request: the same for pages and the API. */
export type AccountContext = Pick<RequestContext, 'db' | 'env' | 'mailer' | 'logger' | 'files' | 'clientIp'>
