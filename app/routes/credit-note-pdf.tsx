import { data } from 'react-router'
import { requireUser } from '#app/features/accounts/index.server.ts'
import { creditNotePdfResponse, findCreditNote } from '#app/features/billing/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { limitPageExports } from '#app/platform/export-limit.server.ts'
import type { Route } from './+types/credit-note-pdf'

/** A credit note's PDF, like the invoice's: the teacher's own only; another teacher's id is not found. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireUser(request, context, lang)
  const creditNote = await findCreditNote({ db: context.db, creditNoteId: params.creditNoteId, userId: user.id })
  if (!creditNote) throw data(null, { status: 404 })
  await limitPageExports(context, user.id, request, lang)
  return creditNotePdfResponse(creditNote)
}
