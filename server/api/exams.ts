import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { requireSubscription } from '#app/features/billing/index.server.ts'
import {
  createExam,
  deleteExam,
  EXAM_IMAGE_MAX_BYTES,
  examImageResponse,
  examPdfFileName,
  examPdfResponse,
  examPrintOptions,
  examSummaryToJson,
  examToJson,
  findExam,
  listExams,
  parseExam,
  readExamImage,
  renderExamPrint,
  storeExamImage,
  updateExam,
} from '#app/features/exams/index.server.ts'
import { asksTooManyVersions, pdfOptionsSchema } from '#app/features/exams/schemas.ts'
import { DomainError } from '#app/lib/errors.ts'
import { requireApiUser } from './auth.ts'
import { apiLang, apiTranslator, jsonBody, ok } from './respond.ts'
import { limitExports } from '#app/server/export-limit.server.ts'
import type { ApiEnv } from './types.ts'

type C = Context<ApiEnv>

// Tests (api.md): the teacher's own only (another teacher's id answers 404), for subscribers.
// Each route sets its own body limit: a test with 100 long questions is larger than the API's
// usual 64 KB, an image upload is up to 5 MB.

async function subscriber(c: C) {
  const session = await requireApiUser(c)
  await requireSubscription(c.get('ctx').db, session.user.id)
  return session.user
}

const notFound = (c: C) => c.json({ message: apiTranslator(c, ['exams'])('exams.errors.notFound') }, 404)
const tooLarge = (c: C) => c.json({ message: apiTranslator(c)('common.errors.tooLarge') }, 413)
const examBodyLimit = bodyLimit({ maxSize: 1024 * 1024, onError: tooLarge })
// The file and the multipart envelope around it.
const imageBodyLimit = bodyLimit({ maxSize: EXAM_IMAGE_MAX_BYTES + 64 * 1024, onError: tooLarge })

/** The address an API client reads an image from, with its bearer token. */
const apiImageUrl = (c: C) => (imageId: string) => `${c.get('ctx').env.APP_URL}/api/v1/uploads/images/${imageId}`

export function createExamsApi() {
  const api = new Hono<ApiEnv>()

  api.get('/exams', async (c) => {
    const user = await subscriber(c)
    return ok(c, (await listExams(c.get('ctx').db, user.id)).map(examSummaryToJson))
  })

  api.post('/exams', examBodyLimit, async (c) => {
    const user = await subscriber(c)
    const exam = parseExam(await jsonBody(c))
    const created = await createExam({ db: c.get('ctx').db, userId: user.id, exam })
    return ok(c, examToJson(created, apiImageUrl(c)), apiTranslator(c, ['exams'])('exams.messages.saved'), 201)
  })

  api.get('/exams/:id', async (c) => {
    const user = await subscriber(c)
    const exam = await findExam(c.get('ctx').db, user.id, c.req.param('id'))
    return exam ? ok(c, examToJson(exam, apiImageUrl(c))) : notFound(c)
  })

  api.put('/exams/:id', examBodyLimit, async (c) => {
    const user = await subscriber(c)
    const { db, files } = c.get('ctx')
    // Another teacher's id is not found before its body is looked at.
    if (!(await findExam(db, user.id, c.req.param('id')))) return notFound(c)
    const exam = parseExam(await jsonBody(c))
    const updated = await updateExam({ db, files, userId: user.id, id: c.req.param('id'), exam })
    return updated ? ok(c, examToJson(updated, apiImageUrl(c)), apiTranslator(c, ['exams'])('exams.messages.saved')) : notFound(c)
  })

  api.delete('/exams/:id', async (c) => {
    const user = await subscriber(c)
    const { db, files } = c.get('ctx')
    const deleted = await deleteExam({ db, files, userId: user.id, id: c.req.param('id') })
    return deleted ? ok(c, null, apiTranslator(c, ['exams'])('exams.messages.deleted')) : notFound(c)
  })

  // ?answers=1 for the answer key; ?versions=2…4 for shuffled versions, each followed by its key (&seed= to reshuffle).
  api.get('/exams/:id/pdf', async (c) => {
    const user = await subscriber(c)
    const { db, files } = c.get('ctx')
    const exam = await findExam(db, user.id, c.req.param('id'))
    if (!exam) return notFound(c)
    await limitExports(c.get('ctx'), user.id)
    const lang = apiLang(c)
    if (asksTooManyVersions(c.req.query())) throw new DomainError(422, 'exams.errors.tooManyVersions', { versions: ['exams.errors.tooManyVersions'] })
    const kind = pdfOptionsSchema.parse(c.req.query())
    const options = await examPrintOptions(exam, { db, files, userId: user.id, lang, answers: kind.answers, versions: kind.versions ?? null, seed: kind.seed })
    const { pdf } = await renderExamPrint(exam, options, 'pdf')
    return examPdfResponse(pdf ?? new Uint8Array(), examPdfFileName(exam, { answers: kind.answers, versions: kind.versions ?? null }, lang))
  })

  api.post('/uploads/images', imageBodyLimit, async (c) => {
    const user = await subscriber(c)
    let file: unknown
    try {
      file = (await c.req.parseBody()).file
    } catch {
      file = undefined
    }
    if (!(file instanceof File)) throw new DomainError(422, 'exams.errors.imageMissing', { file: ['exams.errors.imageMissing'] })
    const { db, files } = c.get('ctx')
    const image = await storeExamImage({ db, files, userId: user.id, data: new Uint8Array(await file.arrayBuffer()) })
    return ok(c, { id: image.id, url: apiImageUrl(c)(image.id), width: image.width, height: image.height }, '', 201)
  })

  api.get('/uploads/images/:id', async (c) => {
    const user = await subscriber(c)
    const { db, files } = c.get('ctx')
    const image = await readExamImage(db, files, user.id, c.req.param('id'))
    return image ? examImageResponse(image) : notFound(c)
  })

  return api
}
