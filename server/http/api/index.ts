import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { HTTPException } from 'hono/http-exception'
import { AnalysisError } from '#app/features/analyses/index.server.ts'
import { operatorAccess } from '#app/features/operators/index.server.ts'
import { isDomainError } from '#app/lib/errors.ts'
import { adminMoneyRoutes } from './admin-money.ts'
import { adminRoutes } from './admin.ts'
import { analysesRoutes, analysisErrorResponse } from './analyses.ts'
import { authRoutes } from './auth.ts'
import { billingRoutes } from './billing.ts'
import { contentRoutes } from './content.ts'
import {
  domainErrorResponse,
  apiSession,
  notFound,
  say,
  ValidationFailed,
  validationFailedResponse,
  type ApiEnv,
  type Routes,
} from './contract.ts'
import { examsRoutes } from './exams.ts'
import { followUpRoutes } from './follow-up.ts'
import { absenceTrendsRoutes } from './absence-trends.ts'
import { lettersRoutes } from './letters.ts'
import { openApiRoutes } from './openapi.ts'

// `/api/v1`: the JSON REST API. Its routes are the route files' (each route declared once with
// its contract, contract.ts); the OpenAPI document and its page are built from those contracts.
// Handlers call the same domain functions as the pages.

/** Every route file's routes, in the order they are mounted; the reference's two routes last. */
export function apiRoutes(): Routes[] {
  // The tests first: they and their images set their own body limits, before the shared ones.
  const routes = [
    examsRoutes(),
    authRoutes(),
    billingRoutes(),
    contentRoutes(),
    analysesRoutes(),
    followUpRoutes(),
    absenceTrendsRoutes(),
    lettersRoutes(),
    adminRoutes(),
    adminMoneyRoutes(),
  ]
  const all: Routes[] = [...routes, openApiRoutes(() => all.flatMap((r) => r.contracts))]
  return all
}

/** Every route's contract: what the OpenAPI document is built from. */
export const apiContracts = () => apiRoutes().flatMap((r) => r.contracts)

export function createApi() {
  const api = new Hono<ApiEnv>()
  const [exams, ...rest] = apiRoutes()

  api.use('*', async (c, next) => {
    await next()
    c.header('Cache-Control', 'no-store')
  })
  // The operator area's endpoints do not exist for anyone else: 404 before any body is read
  // (docs/operators.md). Each endpoint's own `auth: 'operator'` then asks for two-step verification.
  api.use('/admin/*', async (c, next) => {
    if (operatorAccess(await apiSession(c)) === 'not-found') notFound()
    await next()
  })
  api.route('/', exams!.app)
  const tooLarge = (c: Context<ApiEnv>) => c.json({ message: say(c, 'common.errors.tooLarge') }, 413)
  const jsonLimit = bodyLimit({ maxSize: 64 * 1024, onError: tooLarge })
  // The requests that may carry a picture (a profile picture or a school's logo, 2 MB, checked when stored) get room for it and the form around it.
  const uploadLimit = bodyLimit({ maxSize: 3 * 1024 * 1024, onError: tooLarge })
  const isUpload = (c: Context<ApiEnv>) =>
    (c.req.method === 'POST' && c.req.path.endsWith('/auth/register')) ||
    (c.req.method === 'PATCH' && c.req.path.endsWith('/auth/profile')) ||
    (c.req.method === 'PUT' && c.req.path.endsWith('/auth/profile/school'))
  // A workbook: the configured limit and room for the form around it; checked again by size.
  const workbookLimit = (c: Context<ApiEnv>) =>
    bodyLimit({ maxSize: (c.get('ctx').env.ANALYSIS_MAX_UPLOAD_MB + 1) * 1024 * 1024, onError: tooLarge })
  const isWorkbook = (c: Context<ApiEnv>) => c.req.method === 'POST' && /\/analyses\/(absence|grades)$/.test(c.req.path)
  api.use('*', (c, next) => (isWorkbook(c) ? workbookLimit(c) : isUpload(c) ? uploadLimit : jsonLimit)(c, next))

  for (const routes of rest) api.route('/', routes.app)

  // A mounted sub-app's notFound is ignored, so unknown API paths end here explicitly.
  api.all('*', (c) => c.json({ message: say(c, 'common.errors.notFoundApi') }, 404))

  api.onError((error, c) => {
    // An answer made by the route itself (a gateway's webhook refused).
    if (error instanceof HTTPException) return error.getResponse()
    if (error instanceof ValidationFailed) return validationFailedResponse(c, error.issues)
    if (error instanceof AnalysisError) return analysisErrorResponse(c, error)
    if (isDomainError(error)) return domainErrorResponse(c, error)
    c.get('ctx')?.logger.error({ err: error }, 'api error')
    return c.json({ message: say(c, 'common.errors.unexpected') }, 500)
  })

  return api
}
