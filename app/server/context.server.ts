import type { Database, Db } from './db/client.server.ts'
import type { Env } from './env.server.ts'
import type { Logger } from './logger.server.ts'

/** What a process sets up once at start-up and hands to every request. */
export type AppServices = {
  env: Env
  database: Database
  logger: Logger
}

/** What every loader, action and REST handler receives. */
export type RequestContext = {
  env: Env
  db: Db
  logger: Logger
  requestId: string
  cspNonce: string
  clientIp: string
  buildVersion: string
}

declare module 'react-router' {
  interface AppLoadContext extends RequestContext {}
}
