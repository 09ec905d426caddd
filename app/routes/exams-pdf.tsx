import { data } from 'react-router'
import { requireSubscriberPage } from '#app/features/billing/index.server.ts'
import { examPdfFileName, examPdfResponse, examPrintOptions, findExam, renderExamPdf } from '#app/features/exams/index.server.ts'
import { pdfOptionsSchema } from '#app/features/exams/schemas.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { limitPageExports } from '#app/server/export-limit.server.ts'
import type { Route } from './+types/exams-pdf'

/** `Download PDF`: the test, `?answers=1` its key, `?versions=2…4` its versions each with its key. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  const exam = await findExam(context.db, user.id, params.examId)
  if (!exam) throw data(null, { status: 404 })
  await limitPageExports(context, user.id, request, lang)
  const query = pdfOptionsSchema.parse(Object.fromEntries(new URL(request.url).searchParams))
  const kind = { answers: query.answers, versions: query.versions ?? null, seed: query.seed }
  const options = await examPrintOptions(exam, { db: context.db, files: context.files, userId: user.id, lang, ...kind })
  return examPdfResponse(renderExamPdf(exam, options), examPdfFileName(exam, kind, lang))
}
