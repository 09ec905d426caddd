import { data } from 'react-router'
import { findInvoiceById, invoicePdfResponse } from '#app/features/billing/index.server.ts'
import { requireOperatorPage } from '#app/features/operators/index.server.ts'
import { langParam } from '#app/i18n/lang-param.ts'
import type { Route } from './+types/admin-invoice-pdf'

/** Any teacher's invoice as PDF, for the operator (docs/operators.md). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const lang = langParam(params)
  await requireOperatorPage(request, context, lang)
  const invoice = await findInvoiceById({ db: context.db, invoiceId: params.invoiceId })
  if (!invoice) throw data(null, { status: 404 })
  return invoicePdfResponse(invoice)
}
