import type { Database, Db } from './db/client.server.ts'
import type { Env } from './env.server.ts'
import type { FileStore } from './files.server.ts'
import type { Logger } from './logger.server.ts'
import type { Mailer } from './mail.server.ts'
import type { StylesheetText } from '#app/document/inline-stylesheet.tsx'

/** What a process sets up once at start-up and hands to every request. */
export type AppServices = {
  env: Env
  database: Database
  logger: Logger
  mailer: Mailer
  files: FileStore
}

/** What every loader, action and REST handler receives. */
export type RequestContext = {
  env: Env
  db: Db
  logger: Logger
  mailer: Mailer
  files: FileStore
  requestId: string
  cspNonce: string
  clientIp: string
  buildVersion: string
  /** The built stylesheets' text, for inlining them into pages (production only). */
  stylesheetText?: StylesheetText
}

declare module 'react-router' {
  interface AppLoadContext extends RequestContext {}
}
