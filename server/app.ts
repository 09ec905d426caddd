// The server entry that Vite bundles with the React Router build (see vite.config.ts), so the
// HTTP layer, the API and the pages share one module graph and one set of services.
import path from 'node:path'
import * as build from 'virtual:react-router/server-build'
import { createServices } from '#app/server/services.server.ts'
import type { AppServices } from '#app/server/context.server.ts'
import { createHttpApp } from './http.ts'

export type Runtime = {
  services: AppServices
  fetch: (request: Request) => Response | Promise<Response>
  close: () => Promise<void>
}

const globalForServices = globalThis as unknown as { __hallilServices?: Promise<AppServices> }

/** Creates the services once per process (development reloads this module, not the database). */
function servicesOnce(source: Record<string, string | undefined>): Promise<AppServices> {
  globalForServices.__hallilServices ??= createServices(source)
  return globalForServices.__hallilServices
}

export async function boot(
  mode: 'development' | 'production',
  source: Record<string, string | undefined> = process.env,
): Promise<Runtime> {
  const services = await servicesOnce(source)
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
