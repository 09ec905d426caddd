import { Hono, type Context } from 'hono'
import { absenceExport, loadAbsence, schoolDaysField, schoolDaysFromQuery, searchAbsenceStudents, uploadAbsence } from '#app/features/absence/index.server.ts'
import { maxSchoolDays } from '#app/features/absence/index.ts'
import { AnalysisError, deleteAnalysis, findAnalysis, listAnalyses, uploadedFile } from '#app/features/analyses/index.server.ts'
import { requireSubscription } from '#app/features/billing/index.server.ts'
import { parseBands, type GradeBand } from '#app/features/grades/index.ts'
import { gradesExport, uploadGrades } from '#app/features/grades/index.server.ts'
import { DomainError } from '#app/lib/errors.ts'
import { apiLang, apiTranslator, ok } from './respond.ts'
import { requireApiUser } from './auth.ts'
import { limitExports } from '#app/server/export-limit.server.ts'
import type { ApiEnv } from './types.ts'

/** The analyses (api.md, absence.md): upload, list, read, search students, export, delete. */
export function createAnalysesApi() {
  const api = new Hono<ApiEnv>()

  async function subscriber(c: Context<ApiEnv>) {
    const { user } = await requireApiUser(c)
    await requireSubscription(c.get('ctx').db, user.id)
    return user
  }

  api.post('/analyses/absence', async (c) => {
    const user = await subscriber(c)
    const ctx = c.get('ctx')
    const lang = apiLang(c)
    let form: FormData
    try {
      form = await c.req.raw.formData()
    } catch {
      throw new AnalysisError('analyses.errors.noFile')
    }
    const { id } = await uploadAbsence(ctx, { userId: user.id, file: await uploadedFile(form), lang, schoolDays: schoolDaysField(form.get('school_days')) })
    const stored = await findAnalysis(ctx.db, user.id, id)
    if (!stored) throw new Error('saved analysis vanished')
    return ok(c, analysisJson(c, stored), '', 201)
  })

  api.post('/analyses/grades', async (c) => {
    const user = await subscriber(c)
    const ctx = c.get('ctx')
    let form: FormData
    try {
      form = await c.req.raw.formData()
    } catch {
      throw new AnalysisError('analyses.errors.noFile')
    }
    const { id } = await uploadGrades(ctx, { userId: user.id, file: await uploadedFile(form), lang: apiLang(c), bands: bandsField(form.get('bands')) })
    const stored = await findAnalysis(ctx.db, user.id, id)
    if (!stored) throw new Error('saved analysis vanished')
    return ok(c, analysisJson(c, stored), '', 201)
  })

  api.get('/analyses', async (c) => {
    const user = await subscriber(c)
    const list = await listAnalyses(c.get('ctx').db, user.id)
    return ok(
      c,
      list.map((a) => ({ id: a.id, kind: a.kind, title: a.title, createdAt: a.createdAt.toISOString(), meta: a.meta, headline: a.headline })),
    )
  })

  api.get('/analyses/:id', async (c) => {
    const user = await subscriber(c)
    const stored = await findAnalysis(c.get('ctx').db, user.id, c.req.param('id'))
    if (!stored) return notFound(c)
    // A totals analysis with other school days (`school_days`): recomputed from its stored rows.
    const schoolDays = stored.kind === 'absence' ? schoolDaysFromQuery(new URL(c.req.url).searchParams, maxSchoolDays) : null
    if (stored.kind === 'absence' && schoolDays !== null) return ok(c, analysisJson(c, { ...stored, report: (await loadAbsence(c.get('ctx').db, stored, schoolDays)).report }))
    return ok(c, analysisJson(c, stored))
  })

  api.get('/analyses/:id/students', async (c) => {
    const user = await subscriber(c)
    const stored = await findAnalysis(c.get('ctx').db, user.id, c.req.param('id'))
    if (!stored || stored.kind !== 'absence') return notFound(c)
    return ok(c, await searchAbsenceStudents(c.get('ctx').db, stored, c.req.query('q') ?? ''))
  })

  api.get('/analyses/:id/:file{export\\.(xlsx|pdf)}', async (c) => {
    const user = await subscriber(c)
    const stored = await findAnalysis(c.get('ctx').db, user.id, c.req.param('id'))
    if (!stored) return notFound(c)
    await limitExports(c.get('ctx'), user.id)
    const format = c.req.param('file').endsWith('.pdf') ? 'pdf' : 'xlsx'
    if (stored.kind === 'absence') return absenceExport(c.get('ctx').db, stored, format, apiLang(c), schoolDaysFromQuery(new URL(c.req.url).searchParams, maxSchoolDays))
    return gradesExport(c.get('ctx').db, stored, format, apiLang(c))
  })

  api.delete('/analyses/:id', async (c) => {
    const user = await subscriber(c)
    if (!(await deleteAnalysis(c.get('ctx').db, user.id, c.req.param('id')))) return notFound(c)
    return ok(c, null)
  })

  return api
}

/** `bands` of a grades upload: a preset's name (`default`, `elementary`) or a JSON list of `{key, min}`. */
function bandsField(value: FormDataEntryValue | null): readonly GradeBand[] | undefined {
  if (value === null || value === '') return undefined
  let input: unknown = value
  if (typeof value === 'string' && value.trim().startsWith('[')) {
    try {
      input = JSON.parse(value)
    } catch {
      input = null
    }
  }
  const parsed = parseBands(input)
  if (!parsed.ok) throw new DomainError(422, parsed.error.key, { bands: [parsed.error.key] })
  return parsed.bands
}

function notFound(c: Context<ApiEnv>) {
  return c.json({ message: apiTranslator(c)('common.errors.notFoundApi') }, 404)
}

type Stored = NonNullable<Awaited<ReturnType<typeof findAnalysis>>>

/** The analysis in the shape of absence.md's "API shape", skip reasons in the request's language. */
function analysisJson(c: Context<ApiEnv>, stored: Stored) {
  const { report } = stored
  const t = apiTranslator(c, [stored.kind === 'absence' ? 'absence' : 'grades'])
  return {
    id: stored.id,
    kind: stored.kind,
    title: stored.title,
    createdAt: stored.createdAt.toISOString(),
    meta: stored.meta,
    ...report,
    skipped: report.skipped.map((s) => ({ ...(s.sheet !== undefined && { sheet: s.sheet }), row: s.row, reason: t(s.reason.key, s.reason.values) })),
  }
}

/**
 * A refused workbook: the message with its values (the limit, the counts), the missing columns
 * by name and the first skipped rows with their reasons, in the request's language. A 422 says
 * it of the `file` field too, as every 422 of api.md names its fields.
 */
export function analysisErrorResponse(c: Context<ApiEnv>, error: AnalysisError) {
  const namespace = error.messageKey.split('.')[0] ?? 'analyses'
  const t = apiTranslator(c, [...new Set(['analyses', 'absence', namespace])].filter((ns) => ns !== 'common'))
  const columns = (error.details.missingColumns ?? []).map((key) => t(`${namespace}.columns.${key}`))
  const message = t(error.messageKey, { ...error.details.values, columns: columns.join(', ') })
  const body: Record<string, unknown> = { message }
  if (error.status === 422) body.errors = { file: [message] }
  if (error.details.missingColumns) body.missingColumns = columns
  if (error.details.skipped) body.skipped = error.details.skipped.map((s) => ({ row: s.row, reason: t(s.reason.key, s.reason.values) }))
  return c.json(body, error.status)
}
