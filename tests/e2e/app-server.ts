import { startServer, type ServerProcess } from '../support/server-process.ts'

export type AppServer = ServerProcess

/**
 * A second built server for journeys that need other settings than the main e2e server (another
 * gateway), on its own fresh data folder and, with DATABASE_URL, its own fresh database.
 */
export function startAppServer(options: { port: number; name: string; env: Record<string, string> }): Promise<AppServer> {
  return startServer({
    name: options.name,
    port: options.port,
    database: process.env.DATABASE_URL ? 'postgres' : 'pglite',
    env: options.env,
    stdio: 'inherit',
    startTimeoutMs: 60_000,
  })
}
