// Starts Hallil: the built server by default, or Vite's dev server with `--dev`.
import http from 'node:http'
import { getRequestListener } from '@hono/node-server'

const isDev = process.argv.includes('--dev')
const mode = isDev ? 'development' : 'production'
// The operator's environment decides the configuration checks (NODE_ENV=production makes
// secrets and the seller's VAT number mandatory). React itself always runs its production
// build when serving the built app, so the quick start is as fast as a deployment.
const operatorEnv = { ...process.env }
if (!isDev) process.env.NODE_ENV = 'production'

let runtime
let listener
let vite

try {
  if (isDev) {
    const { createServer } = await import('vite')
    vite = await createServer({ server: { middlewareMode: true }, appType: 'custom' })
    runtime = await (await vite.ssrLoadModule('./server/http/app.ts')).boot(mode, operatorEnv)
    // Reload the app module on every request so edits show without a restart.
    listener = getRequestListener(async (request) => {
      const fresh = await vite.ssrLoadModule('./server/http/app.ts')
      return (await fresh.boot(mode, operatorEnv)).fetch(request)
    })
  } else {
    const { boot } = await import('./build/server/index.js')
    runtime = await boot(mode, operatorEnv)
    listener = getRequestListener(runtime.fetch)
  }
} catch (error) {
  if (error?.name === 'EnvError') {
    console.error(error.message)
  } else {
    console.error('Hallil could not start:', error)
  }
  process.exit(1)
}

const { env, logger } = runtime.services
const server = http.createServer((req, res) => {
  if (vite) vite.middlewares(req, res, () => listener(req, res))
  else listener(req, res)
})
server.keepAliveTimeout = 65_000
server.listen(env.PORT, env.HOST, () => {
  logger.info({ url: env.APP_URL, host: env.HOST, port: env.PORT, mode }, 'Hallil is listening')
  if (process.stdout.isTTY || process.env.npm_lifecycle_event === 'start') {
    console.log(`\n  Hallil is running at ${env.APP_URL}\n`)
  }
})

let closing = false
async function shutdown(signal) {
  if (closing) return
  closing = true
  logger.info({ signal }, 'shutting down')
  server.close()
  server.closeIdleConnections?.()
  const force = setTimeout(() => process.exit(0), 10_000)
  force.unref()
  try {
    await vite?.close()
    await runtime.close()
  } finally {
    process.exit(0)
  }
}
process.on('SIGTERM', () => shutdown('SIGTERM'))
process.on('SIGINT', () => shutdown('SIGINT'))
