// The server entry that Vite bundles with the React Router build (see vite.config.ts), so the
// HTTP layer, the API and the pages share one module graph and one set of services.
import path from 'node:path'
import * as build from 'virtual:react-router/server-build'
import { sweepUnfinishedAnalyses } from '#app/features/analyses/index.server.ts'
import { gatewayFor, notifySubscriptionEndings, reconcilePayments } from '#app/features/billing/index.server.ts'
import { createServices } from '#app/platform/services.server.ts'
import type { AppServices } from '#app/platform/context.server.ts'
import { createHttpApp } from './http.ts'

export type Runtime = {
  services: AppServices
  fetch: (request: Request) => Response | Promise<Response>
  close: () => Promise<void>
}

const globalForServices = globalThis as unknown as { __hallilServices?: Promise<AppServices>; __hallilChores?: boolean }

/** Creates the services once per process (development reloads this module, not the database). */
function servicesOnce(source: Record<string, string | undefined>): Promise<AppServices> {
  globalForServices.__hallilServices ??= createServices(source)
  return globalForServices.__hallilServices
}

const HOURLY = 60 * 60 * 1000

/**
 * Start-up and hourly: settle payments left pending, tell teachers about ending subscriptions,
 * and delete analyses whose upload died before its last batch was written (an hour is far past
 * any upload's time budget).
 */
function scheduleChores(services: AppServices) {
  const run = async () => {
    const { env, database, logger } = services
    const ctx = { db: database.db, env, logger }
    try {
      const reconciled = await reconcilePayments({ ...ctx, gateway: gatewayFor(ctx) })
      const notified = await notifySubscriptionEndings({ db: database.db })
      if (reconciled.settled || notified.ending || notified.ended) logger.info({ ...reconciled, ...notified }, 'billing chores')
    } catch (error) {
      logger.warn({ err: error instanceof Error ? error.message : 'unknown' }, 'billing chores failed')
    }
    try {
      const swept = await sweepUnfinishedAnalyses({ db: database.db, olderThanMs: HOURLY })
      if (swept) logger.info({ swept }, 'unfinished analyses deleted')
    } catch (error) {
      logger.warn({ err: error instanceof Error ? error.message : 'unknown' }, 'analyses sweep failed')
    }
  }
  void run()
  setInterval(run, HOURLY).unref()
}

export async function boot(mode: 'development' | 'production', source: Record<string, string | undefined> = process.env): Promise<Runtime> {
  const services = await servicesOnce(source)
  // Once per process, even when development reloads this module.
  if (!globalForServices.__hallilChores) {
    globalForServices.__hallilChores = true
    scheduleChores(services)
  }
  const app = createHttpApp({
    services,
    mode,
    getBuild: () => build as never,
    clientDir: path.relative(process.cwd(), path.resolve('build/client')),
  })
  return {
    services,
    fetch: app.fetch,
    close: async () => {
      await services.database.close()
    },
  }
}
