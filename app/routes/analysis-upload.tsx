import { schoolDaysField, uploadAbsence } from '#app/features/absence/index.server.ts'
import { uploadedFile, uploadFailure } from '#app/features/analyses/index.server.ts'
import { requireSubscriberPage } from '#app/features/billing/index.server.ts'
import { uploadGrades } from '#app/features/grades/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import type { Route } from './+types/analysis-upload'

/** The tool pages' script posts here (with progress) and reads a JSON answer. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  const isGrades = new URL(request.url).pathname.includes('/analysis-grade/')
  try {
    const form = await request.formData()
    const file = await uploadedFile(form)
    const { id } = isGrades
      ? await uploadGrades(context, { userId: user.id, file, lang })
      : await uploadAbsence(context, { userId: user.id, file, lang, schoolDays: schoolDaysField(form.get('school_days')) })
    return Response.json({ ok: true, location: `/${lang}/single-analysis?id=${id}` }, { status: 201 })
  } catch (error) {
    const failure = uploadFailure(error)
    const headers = failure.retryAfterSeconds ? { 'Retry-After': String(failure.retryAfterSeconds) } : undefined
    return Response.json({ ok: false, ...failure }, { status: failure.status, headers })
  }
}
