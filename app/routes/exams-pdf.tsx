import { data } from 'react-router'
import { requireSubscriberPage } from '#app/features/billing/index.server.ts'
import {
  examPdfFileName,
  examPdfResponse,
  examPrintErrorPage,
  examPrintOptions,
  findExam,
  renderExamPrint,
} from '#app/features/exams/index.server.ts'
import { asksTooManyVersions, pdfOptionsSchema } from '#app/features/exams/schemas.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { DomainError, isDomainError } from '#app/lib/errors.ts'
import { limitPageExports } from '#app/platform/export-limit.server.ts'
import type { Route } from './+types/exams-pdf'

/** `Download PDF`: the test, `?answers=1` its key, `?versions=2…4` its versions each with its key. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  const exam = await findExam({ db: context.db, userId: user.id, id: params.examId })
  if (!exam) throw data(null, { status: 404 })
  await limitPageExports(context, user.id, request, lang)
  const search = Object.fromEntries(new URL(request.url).searchParams)
  if (asksTooManyVersions(search)) throw examPrintErrorPage(lang, new DomainError(422, 'exams.errors.tooManyVersions'))
  const query = pdfOptionsSchema.parse(search)
  const kind = { answers: query.answers, versions: query.versions ?? null, seed: query.seed }
  try {
    // Inside: a file store that does not answer (the images) is a 503 page like a busy renderer.
    const options = await examPrintOptions({ exam, db: context.db, files: context.files, userId: user.id, lang, ...kind })
    const { pdf } = await renderExamPrint(exam, options, 'pdf')
    return examPdfResponse(pdf ?? new Uint8Array(), examPdfFileName(exam, kind, lang))
  } catch (error) {
    if (isDomainError(error)) throw examPrintErrorPage(lang, error)
    throw error
  }
}
