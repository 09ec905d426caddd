import { data } from 'react-router'
import { requireUser } from '#app/features/accounts/index.server.ts'
import { findUserInvoice, invoicePdfResponse } from '#app/features/billing/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import { limitPageExports } from '#app/platform/export-limit.server.ts'
import type { Route } from './+types/invoice-pdf'

/** `Download PDF`: the teacher's own invoice only; another teacher's id is not found. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  const { user } = await requireUser(request, context, lang)
  const invoice = await findUserInvoice({ db: context.db, userId: user.id, invoiceId: params.invoiceId })
  if (!invoice) throw data(null, { status: 404 })
  await limitPageExports(context, user.id, request, lang)
  return invoicePdfResponse(invoice)
}
