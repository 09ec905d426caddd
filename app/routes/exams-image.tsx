import { data } from 'react-router'
import { requireSubscriberPage } from '#app/features/billing/index.server.ts'
import { examImageResponse, readExamImage } from '#app/features/exams/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { isFileStoreUnavailable } from '#app/platform/files.server.ts'
import type { Route } from './+types/exams-image'

/** A question image, for its owner's editor only. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = await requireSubscriberPage(request, context, langParam(params))
  let image: Awaited<ReturnType<typeof readExamImage>>
  try {
    image = await readExamImage({ db: context.db, files: context.files, userId: user.id, id: params.imageId })
  } catch (error) {
    // The file store is down: 503 with its message key, asked again in a while, never a 500.
    if (isFileStoreUnavailable(error))
      throw data(error.messageKey, { status: 503, headers: { 'Retry-After': String(error.retryAfterSeconds ?? 30) } })
    throw error
  }
  if (!image) throw data(null, { status: 404 })
  return examImageResponse(image)
}
