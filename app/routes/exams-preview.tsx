import { data } from 'react-router'
import { requireSubscriberPage } from '#app/features/billing/index.server.ts'
import { examPrintErrorPage, examPrintOptions, findExam, renderExamPrint } from '#app/features/exams/index.server.ts'
import { asksTooManyVersions, pdfOptionsSchema } from '#app/features/exams/schemas.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { DomainError, isDomainError } from '#app/lib/errors.ts'
import { limitPageExports } from '#app/platform/export-limit.server.ts'
import type { Route } from './+types/exams-preview'

/** The print preview's image: the PDF's pages as one SVG (docs/decisions/007), the same options as the PDF. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  const exam = await findExam({ db: context.db, userId: user.id, id: params.examId })
  if (!exam) throw data(null, { status: 404 })
  // A preview costs the same render as the PDF it shows.
  await limitPageExports(context, user.id, request, lang)
  const search = Object.fromEntries(new URL(request.url).searchParams)
  if (asksTooManyVersions(search)) throw examPrintErrorPage(lang, new DomainError(422, 'exams.errors.tooManyVersions'))
  const query = pdfOptionsSchema.parse(search)
  let svg: string
  try {
    // Inside: a file store that does not answer (the images) is a 503 page like a busy renderer.
    const options = await examPrintOptions({
      exam,
      db: context.db,
      files: context.files,
      userId: user.id,
      lang,
      answers: query.answers,
      versions: query.versions ?? null,
      seed: query.seed,
    })
    svg = (await renderExamPrint(exam, options, 'svg')).svg ?? ''
  } catch (error) {
    if (isDomainError(error)) throw examPrintErrorPage(lang, error)
    throw error
  }
  return new Response(svg, {
    headers: {
      'Content-Type': 'image/svg+xml; charset=utf-8',
      'Cache-Control': 'private, no-cache',
      // Outlines and inline images only; opened on its own it may run and load nothing.
      'Content-Security-Policy': "default-src 'none'; img-src data:; style-src 'unsafe-inline'",
      'X-Content-Type-Options': 'nosniff',
    },
  })
}
