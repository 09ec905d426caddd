import { schoolDaysField, uploadAbsence } from '#app/features/absence/index.server.ts'
import { uploadAnswer, uploadedFile } from '#app/features/analyses/index.server.ts'
import { requireSubscriberPage } from '#app/features/billing/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import type { Route } from './+types/analysis-upload'

/** The absence tool's script posts here (with progress) and reads a JSON answer. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  return uploadAnswer(lang, async () => {
    const form = await request.formData()
    return uploadAbsence({
      ...context,
      input: {
        userId: user.id,
        file: await uploadedFile(form),
        lang,
        schoolDays: schoolDaysField(form.get('school_days')),
      },
    })
  })
}
