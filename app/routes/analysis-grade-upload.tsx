import { uploadAnswer, uploadedFile } from '#app/features/analyses/index.server.ts'
import { requireSubscriberPage } from '#app/features/billing/index.server.ts'
import { uploadGrades } from '#app/features/grades/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import type { Route } from './+types/analysis-grade-upload'

/** The grades tool's script posts here (with progress) and reads a JSON answer. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  return uploadAnswer(lang, async () =>
    uploadGrades({ ...context, input: { userId: user.id, file: await uploadedFile(await request.formData()), lang } }),
  )
}
