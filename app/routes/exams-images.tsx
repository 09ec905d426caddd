import { data } from 'react-router'
import { requireSubscriberPage } from '#app/features/billing/index.server.ts'
import { storeExamImage } from '#app/features/exams/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { isDomainError } from '#app/lib/errors.ts'
import { localPath } from '#app/ui/app-link.tsx'
import type { Route } from './+types/exams-images'

/** The editor's image upload (multipart `file`): `{id, url}`, or `{error}` with a message key. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const lang = langParam(params)
  const { user } = await requireSubscriberPage(request, context, lang)
  const file = await request
    .formData()
    .then((form) => form.get('file'))
    .catch(() => null)
  if (!(file instanceof File)) return data({ error: 'exams.errors.imageMissing' }, { status: 422 })
  try {
    const image = await storeExamImage({
      db: context.db,
      files: context.files,
      userId: user.id,
      data: new Uint8Array(await file.arrayBuffer()),
    })
    return data({ id: image.id, url: localPath(lang, `exams-images/${image.id}`) }, { status: 201 })
  } catch (error) {
    if (!isDomainError(error)) throw error
    const headers = error.retryAfterSeconds ? { 'Retry-After': String(error.retryAfterSeconds) } : undefined
    return data({ error: error.messageKey }, { status: error.status, headers })
  }
}
