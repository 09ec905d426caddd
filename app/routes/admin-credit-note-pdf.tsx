import { data } from 'react-router'
import { creditNotePdfResponse, findCreditNote } from '#app/features/billing/index.server.ts'
import { requireOperatorPage } from '#app/features/operators/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import type { Route } from './+types/admin-credit-note-pdf'

/** Any credit note as PDF, for the operator (docs/operators.md). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  await requireOperatorPage(request, context, lang)
  const creditNote = await findCreditNote({ db: context.db, creditNoteId: params.creditNoteId })
  if (!creditNote) throw data(null, { status: 404 })
  return creditNotePdfResponse(creditNote)
}
