import {
  absenceAnalysisWire,
  absenceExport,
  absenceSteps,
  absenceTiers,
  ladderAnswerWire,
  stepsJson,
  loadAbsence,
  saveTierThresholds,
  schoolDaysField,
  schoolDaysFromQuery,
  searchAbsenceStudents,
  studentWire,
  tierThresholdsAnswerWire,
  tierThresholdsOf,
  tiersJson,
  tiersOfAnalysis,
  uploadAbsence,
} from '#app/features/absence/index.server.ts'
import { documentName } from '#app/features/accounts/index.ts'
import {
  countSteps,
  maxSchoolDays,
  tierThresholdsSchema,
  tierThresholdsWire,
  type AbsenceSteps,
  type AbsenceTiers,
} from '#app/features/absence/index.ts'
import { ladderBodySchema, ladderPresets, ladderWire } from '#app/features/follow-up/index.ts'
import { ladderOf, saveLadder } from '#app/features/follow-up/index.server.ts'
import {
  AnalysisError,
  analysisHeadWire,
  deleteAnalysis,
  findAnalysis,
  listAnalyses,
  uploadedFile,
} from '#app/features/analyses/index.server.ts'
import { parseBands, type GradeBand } from '#app/features/grades/index.ts'
import { gradesAnalysisWire, gradesExport, uploadGrades } from '#app/features/grades/index.server.ts'
import { DomainError } from '#app/lib/errors.ts'
import { wireShape, type Wire } from '#app/lib/wire.server.ts'
import { z } from '#app/lib/zod.ts'
import { limitExports } from '#app/platform/export-limit.server.ts'
import { apiLang, apiTranslator, createRoutes, notFound, say, type C, type JsonSchema } from './contract.ts'

// The analyses: upload, list, read, search students, export, delete. The answers carry the
// reports' own camelCase fields (docs/api.md).

const analysisWire = wireShape('Analysis', z.discriminatedUnion('kind', [absenceAnalysisWire, gradesAnalysisWire]))

const analysisSummaryWire = wireShape(
  'AnalysisSummary',
  z.object({
    ...analysisHeadWire,
    kind: z.enum(['absence', 'grades']),
    headline: z
      .record(z.string(), z.union([z.number(), z.string(), z.null()]))
      .describe('The list’s figures: attendance or average, counts, period'),
  }),
)

const fieldErrors = z.record(z.string(), z.array(z.string()))
/**
 * A refused workbook (422): the message, also as the `file` field's, and the missing columns or
 * the first skipped rows when those are why.
 */
export const analysisErrorWire = wireShape(
  'AnalysisError',
  z.object({
    message: z.string(),
    errors: fieldErrors,
    missingColumns: z.array(z.string()).optional(),
    otherTool: z
      .enum(['absence', 'grades'])
      .optional()
      .describe('The file looks like the other tool’s (a grades file sent to the absence analysis): upload it there'),
    skipped: z.array(z.object({ sheet: z.string().optional(), row: z.int().min(1), reason: z.string() })).optional(),
  }),
)

const binary = (description: string): JsonSchema => ({ type: 'string', format: 'binary', description })
const workbook = binary('The file exported from Noor, or the sample filled in: .xlsx, .xls or .csv')
const PDF = ['application/pdf']
const XLSX = ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']

type Stored = NonNullable<Awaited<ReturnType<typeof findAnalysis>>>

/**
 * The analysis as the API answers it, skip reasons in the request's language; an absence
 * analysis with its tiers, counted with the teacher's thresholds now (`tiers`, when the report
 * was recomputed for other school days; else from the stored one).
 */
async function analysisJson(
  c: C,
  stored: Stored,
  counted?: { tiers: AbsenceTiers; steps: AbsenceSteps },
): Promise<Wire<typeof analysisWire>> {
  const t = apiTranslator(
    c,
    stored.report.skipped.map((s) => s.reason.key),
  )
  const head = { id: stored.id, title: stored.title, createdAt: stored.createdAt.toISOString(), meta: stored.meta }
  const skipped = stored.report.skipped.map((s) => ({
    ...(s.sheet !== undefined && { sheet: s.sheet }),
    row: s.row,
    reason: t(s.reason.key, s.reason.values),
  }))
  if (stored.kind === 'grades') return { ...head, kind: 'grades', ...stored.report, skipped }
  const { db } = c.get('ctx')
  const tiers = counted?.tiers ?? (await absenceTiers({ db, stored, thresholds: await tierThresholdsOf({ db, userId: stored.userId }) }))
  const steps = counted?.steps ?? (await absenceSteps({ db, stored, ladder: await ladderOf({ db, userId: stored.userId }) }))
  return { ...head, kind: 'absence', ...stored.report, skipped, tiers: tiersJson(tiers), steps: stepsJson(steps) }
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

/** The upload's form; one that cannot be read is a form without its file. */
async function uploadForm(c: C): Promise<FormData> {
  try {
    return await c.req.raw.formData()
  } catch {
    throw new AnalysisError('analyses.errors.noFile')
  }
}

export function analysesRoutes() {
  const routes = createRoutes()
  const { route, fileRoute } = routes

  /** The analysis an upload has just saved, as the answer shows it. */
  const savedAnalysisJson = async (c: C, userId: string, id: string) => {
    const stored = await findAnalysis({ db: c.get('ctx').db, userId, id })
    if (!stored) throw new Error('saved analysis vanished')
    return analysisJson(c, stored)
  }

  route(
    {
      method: 'post',
      path: '/analyses/absence',
      tag: 'Analyses',
      summary: 'Analyse an absence workbook',
      description:
        'The sample’s daily records or Noor’s absence report with per-student totals (.xlsx, .xls or .csv). A totals file needs the school days of its period: from the period in its title block, or `school_days` (a 422 asks for it when the file gives neither).',
      auth: 'subscriber',
      body: {
        kind: 'multipart',
        schema: {
          type: 'object',
          properties: {
            file: workbook,
            school_days: { type: 'integer', minimum: 1, maximum: 366, description: 'Totals files: the school days the totals cover' },
          },
          required: ['file'],
        },
      },
      status: 201,
      data: analysisWire,
      errors: [413, 422, 429, 503],
    },
    async (c, { session, reply }) => {
      const ctx = c.get('ctx')
      const form = await uploadForm(c)
      const { id } = await uploadAbsence({
        ...ctx,
        input: {
          userId: session.user.id,
          file: await uploadedFile(form),
          lang: apiLang(c),
          schoolDays: schoolDaysField(form.get('school_days')),
        },
      })
      return reply(await savedAnalysisJson(c, session.user.id, id))
    },
  )

  route(
    {
      method: 'post',
      path: '/analyses/grades',
      tag: 'Analyses',
      summary: 'Analyse a grades workbook',
      auth: 'subscriber',
      body: {
        kind: 'multipart',
        schema: {
          type: 'object',
          properties: {
            file: workbook,
            bands: { type: 'string', description: 'A preset (`default`, `elementary`) or a JSON list of `{key, min}`' },
          },
          required: ['file'],
        },
      },
      status: 201,
      data: analysisWire,
      errors: [413, 422, 429, 503],
    },
    async (c, { session, reply }) => {
      const ctx = c.get('ctx')
      const form = await uploadForm(c)
      const { id } = await uploadGrades({
        ...ctx,
        input: {
          userId: session.user.id,
          file: await uploadedFile(form),
          lang: apiLang(c),
          bands: bandsField(form.get('bands')),
        },
      })
      return reply(await savedAnalysisJson(c, session.user.id, id))
    },
  )

  route(
    {
      method: 'get',
      path: '/analyses',
      tag: 'Analyses',
      summary: 'The user’s analyses',
      auth: 'subscriber',
      data: z.array(analysisSummaryWire),
    },
    async (c, { session, reply }) => {
      const list = await listAnalyses({ db: c.get('ctx').db, userId: session.user.id })
      return reply(
        list.map((a) => ({
          id: a.id,
          kind: a.kind,
          title: a.title,
          createdAt: a.createdAt.toISOString(),
          meta: a.meta,
          headline: a.headline,
        })),
      )
    },
  )

  route(
    {
      method: 'get',
      path: '/analyses/{id}',
      tag: 'Analyses',
      summary: 'One analysis',
      auth: 'subscriber',
      query: [
        {
          name: 'school_days',
          description: 'Absence totals: recompute the figures for this many school days (1–366)',
          schema: { type: 'integer' },
        },
      ],
      data: analysisWire,
      errors: [404],
    },
    async (c, { session, reply }) => {
      const stored = await findAnalysis({ db: c.get('ctx').db, userId: session.user.id, id: c.req.param('id') ?? '' })
      if (!stored) return notFound()
      // A totals analysis with other school days (`school_days`): recomputed from its stored rows.
      const schoolDays = stored.kind === 'absence' ? schoolDaysFromQuery(new URL(c.req.url).searchParams, maxSchoolDays) : null
      if (stored.kind === 'absence' && schoolDays !== null) {
        const { db } = c.get('ctx')
        const recomputed = await loadAbsence({ db, stored, schoolDays })
        return reply(
          await analysisJson(
            c,
            { ...stored, report: recomputed.report },
            {
              tiers: tiersOfAnalysis(recomputed, await tierThresholdsOf({ db, userId: session.user.id })),
              steps: countSteps(recomputed.students, recomputed.report.byClassroom, await ladderOf({ db, userId: session.user.id })),
            },
          ),
        )
      }
      return reply(await analysisJson(c, stored))
    },
  )

  route(
    {
      method: 'get',
      path: '/analyses/{id}/students',
      tag: 'Analyses',
      summary: 'Search an absence analysis’s students',
      auth: 'subscriber',
      query: [{ name: 'q', description: 'The first three or more words of a name', schema: { type: 'string' } }],
      data: z.array(studentWire),
      errors: [404, 422],
    },
    async (c, { session, reply }) => {
      const stored = await findAnalysis({ db: c.get('ctx').db, userId: session.user.id, id: c.req.param('id') ?? '' })
      if (!stored || stored.kind !== 'absence') return notFound()
      const { db } = c.get('ctx')
      return reply(
        await searchAbsenceStudents({
          db,
          stored,
          q: c.req.query('q') ?? '',
          thresholds: await tierThresholdsOf({ db, userId: session.user.id }),
          ladder: await ladderOf({ db, userId: session.user.id }),
        }),
      )
    },
  )

  for (const format of ['xlsx', 'pdf'] as const) {
    fileRoute(
      {
        method: 'get',
        path: `/analyses/{id}/export.${format}`,
        tag: 'Analyses',
        summary: format === 'pdf' ? 'An analysis as PDF' : 'An analysis as a workbook',
        auth: 'subscriber',
        file: format === 'pdf' ? PDF : XLSX,
        errors: [404, 429],
      },
      async (c, { session }) => {
        const stored = await findAnalysis({ db: c.get('ctx').db, userId: session.user.id, id: c.req.param('id') ?? '' })
        if (!stored) return notFound()
        await limitExports({ ...c.get('ctx'), userId: session.user.id })
        const preparedBy = documentName(session.user, apiLang(c))
        if (stored.kind === 'absence') {
          const { db } = c.get('ctx')
          const days = schoolDaysFromQuery(new URL(c.req.url).searchParams, maxSchoolDays)
          return absenceExport({
            db,
            stored,
            format,
            lang: apiLang(c),
            schoolDays: days,
            thresholds: await tierThresholdsOf({ db, userId: session.user.id }),
            ladder: await ladderOf({ db, userId: session.user.id }),
            preparedBy,
          })
        }
        return gradesExport({ db: c.get('ctx').db, stored, format, lang: apiLang(c), preparedBy })
      },
    )
  }

  route(
    {
      method: 'get',
      path: '/settings/absence-tiers',
      tag: 'Analyses',
      summary: 'The absence tier thresholds',
      description:
        'Percent of school days missed (excused and unexcused) from which a student is at risk, chronic, severe; 5, 10 and 20 until changed.',
      auth: 'subscriber',
      data: tierThresholdsAnswerWire,
    },
    async (c, { session, reply }) => reply(tierThresholdsWire(await tierThresholdsOf({ db: c.get('ctx').db, userId: session.user.id }))),
  )

  route(
    {
      method: 'put',
      path: '/settings/absence-tiers',
      tag: 'Analyses',
      summary: 'Change the absence tier thresholds',
      description:
        'Three percentages, each above the one before: 0 < at_risk < chronic < severe ≤ 100, at most two decimals. Every report, export and answer uses them from then on.',
      auth: 'subscriber',
      body: { kind: 'json', schema: tierThresholdsSchema, name: 'AbsenceTierThresholdsRequest' },
      data: tierThresholdsAnswerWire,
      errors: [422],
    },
    async (c, { body, session, reply }) => {
      const saved = await saveTierThresholds({ db: c.get('ctx').db, userId: session.user.id, thresholds: body })
      return reply(tierThresholdsWire(saved), say(c, 'absence.tiers.saved'))
    },
  )

  route(
    {
      method: 'get',
      path: '/settings/absence-ladder',
      tag: 'Analyses',
      summary: 'The ladder of follow-up steps',
      description:
        'The steps on unexcused days and the document each issues (docs/follow-up.md); the standard preset (3, 5, 10, 15, 25 days) until changed.',
      auth: 'subscriber',
      data: ladderAnswerWire,
    },
    async (c, { session, reply }) => reply(ladderWire(await ladderOf({ db: c.get('ctx').db, userId: session.user.id }))),
  )

  route(
    {
      method: 'put',
      path: '/settings/absence-ladder',
      tag: 'Analyses',
      summary: 'Change the ladder of follow-up steps',
      description:
        'A ready ladder by name (`{"preset": "standard"}` or `"short"`), or the steps: 1 to 8, days whole numbers from 1 to 200, each above the one before; a name of at most 80 characters or null for the document’s. Every report, export and answer uses it from then on. The steps come from reports of the ministry’s rules; a school’s own rules prevail.',
      auth: 'subscriber',
      body: { kind: 'json', schema: ladderBodySchema, name: 'AbsenceLadderRequest' },
      data: ladderAnswerWire,
      errors: [422],
    },
    async (c, { body, session, reply }) => {
      const steps = 'preset' in body ? ladderPresets[body.preset] : body.steps
      const saved = await saveLadder({ db: c.get('ctx').db, userId: session.user.id, steps })
      return reply(ladderWire(saved), say(c, 'followUp.ladder.saved'))
    },
  )

  route(
    { method: 'delete', path: '/analyses/{id}', tag: 'Analyses', summary: 'Delete an analysis', auth: 'subscriber', errors: [404] },
    async (c, { session, reply }) => {
      if (!(await deleteAnalysis({ db: c.get('ctx').db, userId: session.user.id, id: c.req.param('id') ?? '' }))) return notFound()
      return reply(null)
    },
  )

  return routes
}

/**
 * A refused workbook: the message with its values (the limit, the counts), the missing columns
 * by name and the first skipped rows with their reasons, in the request's language. A 422 says
 * it of the `file` field too, as every 422 names its fields.
 */
export function analysisErrorResponse(c: C, error: AnalysisError) {
  const namespace = error.messageKey.split('.')[0] ?? 'analyses'
  const t = apiTranslator(c, ['analyses', 'absence', namespace])
  const columns = (error.details.missingColumns ?? []).map((key) => t(`${namespace}.columns.${key}`))
  const message = t(error.messageKey, {
    ...error.details.values,
    columns: new Intl.ListFormat(apiLang(c), { type: 'conjunction' }).format(columns),
  })
  const body: Record<string, unknown> = { message }
  if (error.status === 422) body.errors = { file: [message] }
  if (error.details.missingColumns) body.missingColumns = columns
  if (error.details.otherTool === 'absence' || error.details.otherTool === 'grades') body.otherTool = error.details.otherTool
  if (error.details.skipped) body.skipped = error.details.skipped.map((s) => ({ row: s.row, reason: t(s.reason.key, s.reason.values) }))
  return c.json(body, error.status)
}
