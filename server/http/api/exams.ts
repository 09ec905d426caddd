import { bodyLimit } from 'hono/body-limit'
import {
  createExam,
  deleteExam,
  EXAM_IMAGE_MAX_BYTES,
  examImageResponse,
  examPdfFileName,
  examPdfResponse,
  examPrintOptions,
  examSummaryToJson,
  examSummaryWire,
  examToJson,
  examWire,
  findExam,
  listExams,
  parseExam,
  readExamImage,
  renderExamPrint,
  storeExamImage,
  updateExam,
} from '#app/features/exams/index.server.ts'
import { asksTooManyVersions, examSchema, pdfOptionsSchema } from '#app/features/exams/schemas.ts'
import { DomainError } from '#app/lib/errors.ts'
import { wireId, wireShape } from '#app/lib/wire.server.ts'
import { z } from '#app/lib/zod.ts'
import { limitExports } from '#app/platform/export-limit.server.ts'
import { apiLang, createRoutes, fromZod, jsonBody, notFound, say, type C, type JsonSchema, type QueryParameter } from './contract.ts'

// Tests: the teacher's own only (another teacher's id answers 404), for subscribers. Each route
// sets its own body limit: a test with 100 long questions is larger than the API's usual 64 KB,
// an image upload is up to 5 MB.

const tooLarge = (c: C) => c.json({ message: say(c, 'common.errors.tooLarge') }, 413)
const examBodyLimit = bodyLimit({ maxSize: 1024 * 1024, onError: tooLarge })
// The file and the multipart envelope around it.
const imageBodyLimit = bodyLimit({ maxSize: EXAM_IMAGE_MAX_BYTES + 64 * 1024, onError: tooLarge })

/** The address an API client reads an image from, with its bearer token. */
const apiImageUrl = (c: C) => (imageId: string) => `${c.get('ctx').env.APP_URL}/api/v1/uploads/images/${imageId}`

const imageWire = wireShape('Image', z.object({ id: wireId, url: z.string(), width: z.int().min(1), height: z.int().min(1) }))
const examNotFound = () => notFound('exams.errors.notFound')
const PDF = ['application/pdf']
/** A test's body, checked by the exams feature (parseExam: its 422 names each field and the test's size limits). */
const examBody = { kind: 'json', schema: examSchema, name: 'ExamInput', isParsedByHandler: true } as const

const pdfQuery: QueryParameter[] = Object.entries((fromZod(pdfOptionsSchema).properties ?? {}) as Record<string, JsonSchema>).map(
  ([name, schema]) => ({
    name,
    schema,
    description:
      { answers: '`1` for the answer key', versions: 'Shuffled versions (2–4), each followed by its key', seed: 'Reshuffles the versions' }[
        name
      ] ?? name,
  }),
)

export function examsRoutes() {
  const routes = createRoutes()
  const { route, fileRoute } = routes

  route(
    { method: 'get', path: '/exams', tag: 'Tests', summary: 'The user’s tests', auth: 'subscriber', data: z.array(examSummaryWire) },
    async (c, { session, reply }) => reply((await listExams({ db: c.get('ctx').db, userId: session.user.id })).map(examSummaryToJson)),
  )

  route(
    {
      method: 'post',
      path: '/exams',
      tag: 'Tests',
      summary: 'Create a test',
      auth: 'subscriber',
      body: examBody,
      status: 201,
      data: examWire,
      errors: [413, 422],
      use: [examBodyLimit],
    },
    async (c, { session, reply }) => {
      const exam = parseExam(await jsonBody(c))
      const created = await createExam({ db: c.get('ctx').db, userId: session.user.id, exam })
      return reply(examToJson(created, apiImageUrl(c)), say(c, 'exams.messages.saved'))
    },
  )

  route(
    { method: 'get', path: '/exams/{id}', tag: 'Tests', summary: 'One test', auth: 'subscriber', data: examWire, errors: [404] },
    async (c, { session, reply }) => {
      const exam = await findExam({ db: c.get('ctx').db, userId: session.user.id, id: c.req.param('id') ?? '' })
      return exam ? reply(examToJson(exam, apiImageUrl(c))) : examNotFound()
    },
  )

  route(
    {
      method: 'put',
      path: '/exams/{id}',
      tag: 'Tests',
      summary: 'Replace a test',
      auth: 'subscriber',
      body: examBody,
      data: examWire,
      errors: [404, 413, 422],
      use: [examBodyLimit],
    },
    async (c, { session, reply }) => {
      const { db, files } = c.get('ctx')
      const id = c.req.param('id') ?? ''
      // Another teacher's id is not found before its body is looked at.
      if (!(await findExam({ db, userId: session.user.id, id }))) return examNotFound()
      const exam = parseExam(await jsonBody(c))
      const updated = await updateExam({ db, files, userId: session.user.id, id, exam })
      return updated ? reply(examToJson(updated, apiImageUrl(c)), say(c, 'exams.messages.saved')) : examNotFound()
    },
  )

  route(
    { method: 'delete', path: '/exams/{id}', tag: 'Tests', summary: 'Delete a test', auth: 'subscriber', errors: [404] },
    async (c, { session, reply }) => {
      const { db, files } = c.get('ctx')
      const deleted = await deleteExam({ db, files, userId: session.user.id, id: c.req.param('id') ?? '' })
      return deleted ? reply(null, say(c, 'exams.messages.deleted')) : examNotFound()
    },
  )

  // ?answers=1 for the answer key; ?versions=2…4 for shuffled versions, each followed by its key (&seed= to reshuffle).
  fileRoute(
    {
      method: 'get',
      path: '/exams/{id}/pdf',
      tag: 'Tests',
      summary: 'A test, its answer key or its versions as PDF',
      auth: 'subscriber',
      query: pdfQuery,
      file: PDF,
      errors: [404, 422, 429, 503],
    },
    async (c, { session }) => {
      const { db, files } = c.get('ctx')
      const exam = await findExam({ db, userId: session.user.id, id: c.req.param('id') ?? '' })
      if (!exam) return examNotFound()
      await limitExports({ ...c.get('ctx'), userId: session.user.id })
      const lang = apiLang(c)
      if (asksTooManyVersions(c.req.query()))
        throw new DomainError(422, 'exams.errors.tooManyVersions', { versions: ['exams.errors.tooManyVersions'] })
      const kind = pdfOptionsSchema.parse(c.req.query())
      const options = await examPrintOptions({
        exam,
        db,
        files,
        userId: session.user.id,
        lang,
        answers: kind.answers,
        versions: kind.versions ?? null,
        seed: kind.seed,
      })
      const { pdf } = await renderExamPrint(exam, options, 'pdf')
      return examPdfResponse(
        pdf ?? new Uint8Array(),
        examPdfFileName(exam, { answers: kind.answers, versions: kind.versions ?? null }, lang),
      )
    },
  )

  route(
    {
      method: 'post',
      path: '/uploads/images',
      tag: 'Tests',
      summary: 'Upload a question’s image',
      auth: 'subscriber',
      body: {
        kind: 'multipart',
        schema: {
          type: 'object',
          properties: { file: { type: 'string', format: 'binary', description: 'PNG, JPEG or WebP, up to 5 MB' } },
          required: ['file'],
        },
      },
      status: 201,
      data: imageWire,
      errors: [413, 422, 429, 503],
      use: [imageBodyLimit],
    },
    async (c, { session, reply }) => {
      let file: unknown
      try {
        file = (await c.req.parseBody()).file
      } catch {
        file = undefined
      }
      if (!(file instanceof File)) throw new DomainError(422, 'exams.errors.imageMissing', { file: ['exams.errors.imageMissing'] })
      const { db, files } = c.get('ctx')
      const image = await storeExamImage({ db, files, userId: session.user.id, data: new Uint8Array(await file.arrayBuffer()) })
      return reply({ id: image.id, url: apiImageUrl(c)(image.id), width: image.width, height: image.height })
    },
  )

  fileRoute(
    {
      method: 'get',
      path: '/uploads/images/{id}',
      tag: 'Tests',
      summary: 'A question’s image',
      auth: 'subscriber',
      file: ['image/png', 'image/jpeg', 'image/webp'],
      errors: [404, 503],
    },
    async (c, { session }) => {
      const { db, files } = c.get('ctx')
      const image = await readExamImage({ db, files, userId: session.user.id, id: c.req.param('id') ?? '' })
      return image ? examImageResponse(image) : examNotFound()
    },
  )

  return routes
}
