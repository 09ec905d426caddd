import { getConnInfo } from '@hono/node-server/conninfo'
import { serveStatic } from '@hono/node-server/serve-static'
import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { compress } from 'hono/compress'
import { requestId } from 'hono/request-id'
import { matchedRoutes } from 'hono/route'
import { createRequestHandler, matchRoutes, type ServerBuild } from 'react-router'
import { isPrefetch, sessionCookieName, withoutFlashOnPrefetch } from '#app/features/accounts/index.server.ts'
import { buildSitemap, robotsTxt } from '#app/features/content/index.server.ts'
import { publicPages } from '#app/features/content/index.ts'
import { isLang, langCookieMaxAge, langCookieName, languages } from '#app/i18n/config.ts'
import { detectLang } from '#app/i18n/detect.server.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { createTranslator } from '#app/i18n/translate.ts'
import { PUBLIC_LIST_TTL_MS } from '#app/lib/constants.ts'
import { serviceWorkerScript } from '#app/lib/pwa/service-worker.server.ts'
import { safeRedirect } from '#app/lib/safe-redirect.ts'
import type { AppServices, RequestContext } from '#app/platform/context.server.ts'
import { isFileStoreUnavailable } from '#app/platform/files.server.ts'
import { hasMetricsToken, metricsText, observeRequest } from '#app/platform/metrics.server.ts'
import { createApi } from './api/index.ts'
import { createGuestPageCache } from './page-cache.ts'
import { newNonce, securityHeaders } from './security-headers.ts'
import { builtStylesheetText } from '#app/document/stylesheet-text.server.ts'

type Vars = { Variables: { ctx: RequestContext; requestId: string; pageRoute?: string } }

export type HttpAppOptions = {
  services: AppServices
  /** The React Router server build; a getter so development can hand in a fresh one per request. */
  getBuild: () => ServerBuild | Promise<ServerBuild>
  mode: 'development' | 'production'
  /** Folder of the built client assets (production only; Vite serves them in development). */
  clientDir?: string
}

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** The one HTTP application: headers, logs, health, PWA files, /api/v1 and the pages. */
export function createHttpApp({ services, getBuild, mode, clientDir }: HttpAppOptions) {
  const { env, database, logger, mailer, files } = services
  const isDev = mode === 'development'
  const app = new Hono<Vars>()
  const appOrigin = new URL(env.APP_URL).origin
  // The built stylesheet is written into every page (decision 013); development links it.
  const stylesheetText = !isDev && clientDir ? builtStylesheetText(clientDir) : undefined
  // With Moyasar the payer's browser creates the payment at Moyasar itself (card data must not
  // reach this server), so pages may call its API and nothing else.
  const connectOrigins = env.PAYMENT_GATEWAY === 'moyasar' ? [new URL(env.MOYASAR_API_URL).origin] : []

  app.use('*', requestId({ headerName: 'X-Request-Id' }))

  // Context, security headers and one log line per request (path without query: no personal data).
  app.use('*', async (c, next) => {
    const started = performance.now()
    const nonce = newNonce()
    const forwarded = env.TRUST_PROXY ? c.req.header('x-forwarded-for')?.split(',')[0]?.trim() : undefined
    let clientIp = forwarded || 'unknown'
    if (!forwarded) {
      try {
        clientIp = getConnInfo(c).remote.address ?? 'unknown'
      } catch {
        clientIp = 'unknown'
      }
    }
    const build = await getBuild()
    c.set('ctx', {
      env,
      db: database.db,
      logger: logger.child({ reqId: c.get('requestId') }),
      mailer,
      files,
      requestId: c.get('requestId'),
      cspNonce: nonce,
      clientIp,
      buildVersion: build.assets.version,
      stylesheetText,
    })
    try {
      await next()
    } finally {
      const isHttps = isHttpsRequest(c.env, c.req.header('x-forwarded-proto'), env.TRUST_PROXY)
      for (const [name, value] of Object.entries(securityHeaders({ nonce, isDev, isHttps, connectOrigins }))) {
        if (!c.res.headers.has(name)) c.res.headers.set(name, value)
      }
      const ms = performance.now() - started
      logger.info(
        { reqId: c.get('requestId'), method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(ms) },
        'request',
      )
      observeRequest({ method: c.req.method, route: routeLabel(c), status: c.res.status, seconds: ms / 1000 })
    }
  })

  app.use('*', compress())

  // Forms posted with a cookie must come from this site (the API authenticates with bearer tokens).
  app.use('*', async (c, next) => {
    if (unsafeMethods.has(c.req.method) && !c.req.path.startsWith('/api/')) {
      const ownOrigins = new Set([appOrigin, new URL(c.req.url).origin])
      const hasSession = hasCookie(c.req.header('cookie'), sessionCookieName(env))
      if (
        !isSameSiteWrite({
          origin: c.req.header('origin'),
          fetchSite: c.req.header('sec-fetch-site'),
          referer: c.req.header('referer'),
          hasSession,
          ownOrigins,
        })
      )
        return c.text('Forbidden: cross-site form submission', 403)
    }
    await next()
  })

  // Prometheus's figures, for the operator's bearer token only; without METRICS_TOKEN there are none.
  app.get('/metrics', async (c) => {
    if (!env.METRICS_TOKEN) return c.notFound()
    if (!hasMetricsToken(c.req.header('authorization'), env.METRICS_TOKEN))
      return c.text('Unauthorized', 401, { 'WWW-Authenticate': 'Bearer realm="metrics"', 'Cache-Control': 'no-store' })
    const { contentType, body } = await metricsText()
    return c.body(body, 200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' })
  })

  app.get('/healthz', async (c) => {
    try {
      await database.ping()
      return c.json({ status: 'ok', database: database.kind }, 200, { 'Cache-Control': 'no-store' })
    } catch {
      return c.json({ status: 'unavailable' }, 503, { 'Cache-Control': 'no-store' })
    }
  })

  app.get('/version.json', async (c) => {
    const build = await getBuild()
    return c.json({ version: build.assets.version }, 200, { 'Cache-Control': 'no-store' })
  })

  app.get('/sw.js', async (c) => {
    const build = await getBuild()
    return c.body(serviceWorkerScript(build.assets), 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'no-cache',
      'Service-Worker-Allowed': '/',
    })
  })

  app.get('/robots.txt', (c) => c.text(robotsTxt(env.APP_URL), 200, { 'Cache-Control': 'public, max-age=3600' }))
  app.get('/sitemap.xml', (c) =>
    c.body(buildSitemap(env.APP_URL), 200, {
      'Content-Type': 'application/xml; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
    }),
  )

  // The language switch: remember the choice for a year, then go back to the same page.
  app.get('/set-language', (c) => {
    const lang = c.req.query('lang')
    const to = safeRedirect(c.req.query('to'), `/${isLang(lang) ? lang : 'ar'}`)
    if (isLang(lang)) {
      const secure = env.APP_URL.startsWith('https:') ? '; Secure' : ''
      c.header('Set-Cookie', `${langCookieName}=${lang}; Path=/; Max-Age=${langCookieMaxAge}; SameSite=Lax${secure}`)
    }
    c.header('Cache-Control', 'no-store')
    return c.redirect(to, 302)
  })

  // Stored pictures (profile pictures, schools' logos): random names, served as images only.
  app.get('/files/:folder/:name', async (c) => {
    const { folder, name } = c.req.param()
    if (!['avatars', 'logos'].includes(folder) || !/^[0-9a-f-]{36}\.webp$/.test(name)) return c.notFound()
    let data: Buffer | null
    try {
      data = await files.get(`${folder}/${name}`)
    } catch (error) {
      if (!isFileStoreUnavailable(error)) throw error
      // The store is down (logged by it): say so in the visitor's language, and when to ask again.
      const lang = detectLang(c.req.raw)
      return c.text(createTranslator(lang, getMessages(lang, ['common.errors'])).t(error.messageKey), 503, {
        'Retry-After': String(error.retryAfterSeconds ?? 30),
        'Cache-Control': 'no-store',
      })
    }
    if (!data) return c.notFound()
    return c.body(new Uint8Array(data), 200, {
      'Content-Type': 'image/webp',
      'Cache-Control': 'private, max-age=86400',
      'Content-Disposition': 'inline',
    })
  })

  // Page forms: a workbook upload at most (ANALYSIS_MAX_UPLOAD_MB) and room for the form; the API sets its own limits.
  const pageBodyLimit = bodyLimit({
    maxSize: (env.ANALYSIS_MAX_UPLOAD_MB + 2) * 1024 * 1024,
    onError: (ctx) => ctx.text('Payload Too Large', 413),
  })
  app.use('*', async (c, next) => {
    if (!unsafeMethods.has(c.req.method) || c.req.path.startsWith('/api/')) return next()
    return pageBodyLimit(c, next)
  })

  app.route('/api/v1', createApi())

  if (!isDev && clientDir) {
    // Hashed build files never change; the rest (icons, manifest, offline page) may.
    const fromClientDir = (cacheControl: string) =>
      serveStatic({ root: clientDir, precompressed: true, onFound: (_path, c) => c.header('Cache-Control', cacheControl) })
    app.use('/assets/*', fromClientDir('public, max-age=31536000, immutable'))
    // The other public files (icons, manifest, offline page) all have an extension: a page's path
    // does not cost a look at the disk.
    const publicFiles = fromClientDir('public, max-age=3600')
    app.use('*', (c, next) => (/\.[\w-]+$/.test(c.req.path) ? publicFiles(c, next) : next()))
  }

  // Public pages for visitors who are not signed in (server/http/page-cache.ts); development renders
  // every request, so edits show at once.
  const guestPages = createGuestPageCache({
    ttlMs: isDev ? 0 : PUBLIC_LIST_TTL_MS,
    paths: new Set(languages.flatMap((lang) => publicPages.map((page) => (page ? `/${lang}/${page}` : `/${lang}`)))),
    harmlessCookies: new Set([langCookieName]),
  })

  const handlers = new WeakMap<ServerBuild, ReturnType<typeof createRequestHandler>>()
  app.all('*', async (c) => {
    // A page's data asked for ahead of a click (React Router prefetches the pages a page links
    // to, as `.data`) is never used: page data is kept by no cache (below), so the click fetches
    // it again. Answered empty at once, it costs no loader run (a signed-in page linked eight
    // pages, each one's loaders run for nothing) and can set no cookie; the links' modules are
    // still prefetched, which is what makes the click fast.
    if (c.req.path.endsWith('.data') && isPrefetch(c.req.raw)) return c.body(null, 204, { 'Cache-Control': 'private, no-store' })
    const build = await getBuild()
    c.set('pageRoute', pageRoutePattern(build, c.req.path))
    let handler = handlers.get(build)
    if (!handler) {
      handler = createRequestHandler(build, mode)
      handlers.set(build, handler)
    }
    const render = async () => withoutFlashOnPrefetch(c.req.raw, await handler(c.req.raw, c.get('ctx')))
    if (guestPages.accepts(c.req.raw)) return guestPages.serve(c.req.raw, c.get('ctx').cspNonce, render)
    const response = await render()
    // Kept by no cache (a route that sets its own Cache-Control keeps it): a signed-in teacher's
    // page or its data (a report's student names, an invoice); an answer that sets a cookie; and
    // any page's data (`.data`), which may be what a cookie made it: a guest's `.data` stored by
    // a prefetch, sent while a logout's answer was still arriving, once answered the logout's
    // own redirect from the browser's cache, and "Logout successful" was never shown. A guest's
    // page is left to its route.
    const signedIn = hasCookie(c.req.header('cookie'), sessionCookieName(env))
    const isData = c.req.path.endsWith('.data')
    if ((signedIn || isData || response.headers.has('Set-Cookie')) && !response.headers.has('Cache-Control'))
      response.headers.set('Cache-Control', 'private, no-store')
    return response
  })

  app.onError((error, c) => {
    logger.error({ err: error, reqId: c.get('requestId') }, 'unhandled error')
    return c.text('An unexpected error occurred', 500)
  })

  return app
}

/**
 * The route a request is counted under in /metrics: the pattern it matched, never the path with
 * its ids (`/api/v1/exams/:id`, `/:lang/invoices/:invoiceId`); `static` for the build's files,
 * `unmatched` for the rest, so that a scan of made-up paths adds no series.
 */
function routeLabel(c: Context<Vars>): string {
  const pattern = matchedRoutes(c)
    .map((r) => r.path)
    .filter((p) => !p.includes('*'))
    .at(-1)
  if (pattern) return pattern
  const page = c.get('pageRoute')
  if (page) return page
  return /\.[\w-]+$/.test(c.req.path) && c.res.status < 400 ? 'static' : 'unmatched'
}

type PageRoute = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; children: PageRoute[] }
const pageRouteTrees = new WeakMap<ServerBuild, PageRoute[]>()

/** The React Router pattern a page path matches (`/:lang/exams/:examId/print`; a page's data as `….data`), or undefined. */
export function pageRoutePattern(build: ServerBuild, pathname: string): string | undefined {
  let tree = pageRouteTrees.get(build)
  if (!tree) {
    const nodes = new Map<string, PageRoute>()
    for (const r of Object.values(build.routes ?? {}))
      if (r) nodes.set(r.id, { id: r.id, path: r.path, index: r.index, caseSensitive: r.caseSensitive, children: [] })
    tree = []
    for (const r of Object.values(build.routes ?? {})) {
      if (!r) continue
      const node = nodes.get(r.id)!
      const parent = r.parentId ? nodes.get(r.parentId) : undefined
      ;(parent ? parent.children : tree).push(node)
    }
    pageRouteTrees.set(build, tree)
  }
  const isData = pathname.endsWith('.data')
  const path = isData ? pathname.replace(/\/?_root\.data$|\.data$/, '') || '/' : pathname
  const matches = matchRoutes(tree as never, path) as Array<{ route: PageRoute }> | null
  if (!matches?.length) return undefined
  const pattern = `/${matches
    .map((m) => m.route.path)
    .filter(Boolean)
    .join('/')}`
  return isData ? `${pattern}.data` : pattern
}

function hasCookie(header: string | undefined, name: string): boolean {
  return (header ?? '').split(';').some((part) => part.trim().startsWith(`${name}=`))
}

/**
 * Whether a page write comes from this site. The Origin decides when sent, then the browser's
 * Sec-Fetch-Site. A request with neither (an old browser, a privacy extension, a hand-made
 * request) that carries the session cookie must show a Referer from this site: without one,
 * nothing tells a teacher's own form from another site's.
 */
export function isSameSiteWrite(request: {
  origin?: string
  fetchSite?: string
  referer?: string
  hasSession: boolean
  ownOrigins: ReadonlySet<string>
}): boolean {
  if (request.origin) return request.ownOrigins.has(request.origin)
  if (request.fetchSite) return request.fetchSite !== 'cross-site'
  if (!request.hasSession) return true
  if (!request.referer) return false
  try {
    return request.ownOrigins.has(new URL(request.referer).origin)
  } catch {
    return false
  }
}

/**
 * Whether this request reached us over TLS: the socket says so, or our own proxy does
 * (X-Forwarded-Proto, trusted only with TRUST_PROXY). Neither APP_URL nor the request line
 * counts: a client may write `https://` into an absolute request target over plain HTTP.
 */
export function isHttpsRequest(bindings: unknown, forwardedProto: string | undefined, trustProxy: boolean): boolean {
  const socket = (bindings as { incoming?: { socket?: { encrypted?: boolean } } } | undefined)?.incoming?.socket
  if (socket?.encrypted === true) return true
  // With several proxies the first value is the one the browser spoke to.
  return trustProxy && forwardedProto?.split(',')[0]?.trim().toLowerCase() === 'https'
}
