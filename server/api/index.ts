import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { listPackages, packageToJson } from '#app/features/billing/index.server.ts'
import { contactSchema, sendContactMessage } from '#app/features/content/index.server.ts'
import { isDomainError } from '#app/lib/errors.ts'
import { AnalysisError } from '#app/features/analyses/index.server.ts'
import { analysisErrorResponse, createAnalysesApi } from './analyses.ts'
import { createAuthApi } from './auth.ts'
import { createBillingApi } from './billing.ts'
import { createExamsApi } from './exams.ts'
import { createOpenApiRoutes } from './openapi.ts'
import { apiLang, apiTranslator, domainErrorResponse, jsonBody, ok, tooManyRequests, validationFailed } from './respond.ts'
import type { ApiEnv } from './types.ts'

/** `/api/v1`: the JSON REST API (api.md). Handlers call the same domain functions as the pages. */
export function createApi() {
  const api = new Hono<ApiEnv>()

  api.use('*', async (c, next) => {
    await next()
    c.header('Cache-Control', 'no-store')
  })
  api.route('/', createExamsApi()) // before the shared body limits below: tests and their images set their own
  const tooLarge = (c: Context<ApiEnv>) => c.json({ message: apiTranslator(c)('common.errors.tooLarge') }, 413)
  const jsonLimit = bodyLimit({ maxSize: 64 * 1024, onError: tooLarge })
  // The two requests that may carry a profile picture (2 MB, checked by storeAvatar) get room for it and the form around it.
  const uploadLimit = bodyLimit({ maxSize: 3 * 1024 * 1024, onError: tooLarge })
  const isUpload = (c: Context<ApiEnv>) =>
    (c.req.method === 'POST' && c.req.path.endsWith('/auth/register')) || (c.req.method === 'PATCH' && c.req.path.endsWith('/auth/profile'))
  // A workbook: the configured limit and room for the form around it; checked again by size.
  const workbookLimit = (c: Context<ApiEnv>) => bodyLimit({ maxSize: (c.get('ctx').env.ANALYSIS_MAX_UPLOAD_MB + 1) * 1024 * 1024, onError: tooLarge })
  const isWorkbook = (c: Context<ApiEnv>) => c.req.method === 'POST' && /\/analyses\/(absence|grades)$/.test(c.req.path)
  api.use('*', (c, next) => (isWorkbook(c) ? workbookLimit(c) : isUpload(c) ? uploadLimit : jsonLimit)(c, next))

  api.get('/packages', async (c) => {
    const { db, env } = c.get('ctx')
    const list = await listPackages({ db, lang: apiLang(c), vatRateBasisPoints: env.VAT_RATE_BP })
    return ok(c, list.map(packageToJson))
  })

  api.post('/contact', async (c) => {
    const t = apiTranslator(c, ['contact'])
    const parsed = contactSchema.safeParse(await jsonBody(c))
    if (!parsed.success) return validationFailed(c, parsed.error, t)
    const { db, clientIp } = c.get('ctx')
    const result = await sendContactMessage({ db, input: parsed.data, lang: apiLang(c), clientIp })
    if (!result.ok) return tooManyRequests(c, result.retryAfterSeconds, t)
    return ok(c, null, t('contact.sent'), 201)
  })

  api.route('/', createAuthApi())
  api.route('/', createBillingApi())
  api.route('/', createAnalysesApi())
  api.route('/', createOpenApiRoutes()) // openapi.json and the docs page, no token

  // A mounted sub-app's notFound is ignored, so unknown API paths end here explicitly.
  api.all('*', (c) => c.json({ message: apiTranslator(c)('common.errors.notFoundApi') }, 404))

  api.onError((error, c) => {
    if (error instanceof AnalysisError) return analysisErrorResponse(c, error)
    if (isDomainError(error)) return domainErrorResponse(c, error)
    c.get('ctx')?.logger.error({ err: error }, 'api error')
    return c.json({ message: apiTranslator(c)('common.errors.unexpected') }, 500)
  })

  return api
}
