import { data } from 'react-router'
import { requireSubscriberPage } from '#app/features/billing/index.server.ts'
import { examImageResponse, readExamImage } from '#app/features/exams/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import type { Route } from './+types/exams-image'

/** A question image, for its owner's editor only. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = await requireSubscriberPage(request, context, langParam(params))
  const image = await readExamImage(context.db, context.files, user.id, params.imageId)
  if (!image) throw data(null, { status: 404 })
  return examImageResponse(image)
}
