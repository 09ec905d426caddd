import { wireDateTime, wireHalalas, wireId, wireShape, type Wire } from '#app/lib/wire.server.ts'
import { z } from '#app/lib/zod.ts'
import { and, desc, eq } from 'drizzle-orm'
import type { Lang } from '#app/i18n/config.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { invoices } from '#app/platform/db/schema.ts'
import { renderInvoicePdf } from './invoice-pdf.server.ts'
import { isUuid } from '#app/lib/ids.ts'

export type FindUserInvoiceOptions = { db: Db; userId: string; invoiceId: string }

/** A teacher's invoice; another teacher's id, or any other string, is simply not found. */
export async function findUserInvoice({ db, userId, invoiceId }: FindUserInvoiceOptions) {
  if (!isUuid(invoiceId)) return null
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, invoiceId), eq(invoices.userId, userId)))
    .limit(1)
  return row ?? null
}

export type FindInvoiceByIdOptions = { db: Db; invoiceId: string }

/** Any invoice by its id, for the operator area (a teacher's pages use findUserInvoice). */
export async function findInvoiceById({ db, invoiceId }: FindInvoiceByIdOptions) {
  if (!isUuid(invoiceId)) return null
  const [row] = await db.select().from(invoices).where(eq(invoices.id, invoiceId)).limit(1)
  return row ?? null
}

export type ListUserInvoicesOptions = { db: Db; userId: string }

export async function listUserInvoices({ db, userId }: ListUserInvoicesOptions) {
  return db.select().from(invoices).where(eq(invoices.userId, userId)).orderBy(desc(invoices.issuedAt))
}

export type InvoiceRow = typeof invoices.$inferSelect

/** A tax invoice in the API's answers: the copy stored when it was issued, names in the request's language. */
export const invoiceWire = wireShape(
  'Invoice',
  z.object({
    id: wireId,
    serial: z.string(),
    issued_at: wireDateTime,
    seller: z.object({ name: z.string(), vat_number: z.string(), address: z.string() }),
    customer_name: z.string().describe('The full name in the request’s language as it was at issue, else the username'),
    package_name: z.string(),
    months: z.int().min(1),
    price: wireHalalas('Before VAT'),
    vat_rate: z.number().describe('A percentage (15)'),
    vat: wireHalalas('The VAT'),
    total: wireHalalas('With VAT'),
    payment_method: z.string(),
    qr: z.string().describe('The ZATCA TLV, Base64'),
  }),
)

/**
 * The customer on the invoice in one of its languages: her full name in that language as it was
 * at issue, else the username (an invoice issued before full names, or none given).
 */
export function customerNameIn(inv: Pick<InvoiceRow, 'customerName' | 'customerNameAr' | 'customerNameEn'>, lang: Lang): string {
  return (lang === 'ar' ? inv.customerNameAr : inv.customerNameEn) || inv.customerName
}

/** A stored tax document's fields as the API writes them in one language (an invoice, or a credit note's copy of one). */
type TaxDocumentRow = Pick<
  InvoiceRow,
  | 'sellerNameAr'
  | 'sellerNameEn'
  | 'sellerVatNumber'
  | 'sellerAddressAr'
  | 'sellerAddressEn'
  | 'customerName'
  | 'customerNameAr'
  | 'customerNameEn'
  | 'packageNameAr'
  | 'packageNameEn'
  | 'months'
  | 'price'
  | 'vatRateBp'
  | 'vat'
  | 'total'
  | 'paymentMethod'
  | 'qr'
>

/** The seller, customer, package, amounts and QR of an invoice or a credit note, in one language. */
export function taxDocumentJson(inv: TaxDocumentRow, lang: Lang) {
  return {
    seller: {
      name: lang === 'ar' ? inv.sellerNameAr : inv.sellerNameEn,
      vat_number: inv.sellerVatNumber,
      address: lang === 'ar' ? inv.sellerAddressAr : inv.sellerAddressEn,
    },
    customer_name: customerNameIn(inv, lang),
    package_name: lang === 'ar' ? inv.packageNameAr : inv.packageNameEn,
    months: inv.months,
    price: inv.price,
    vat_rate: inv.vatRateBp / 100,
    vat: inv.vat,
    total: inv.total,
    payment_method: inv.paymentMethod,
    qr: inv.qr,
  }
}

export function invoiceToJson(inv: InvoiceRow, lang: Lang): Wire<typeof invoiceWire> {
  return { id: inv.id, serial: inv.serial, issued_at: inv.issuedAt.toISOString(), ...taxDocumentJson(inv, lang) }
}

/** What the PDF prints: the invoice's own stored copy of every field. */
export function invoiceDocumentOf(inv: InvoiceRow) {
  return {
    serial: inv.serial,
    issuedAt: inv.issuedAt,
    seller: {
      nameAr: inv.sellerNameAr,
      nameEn: inv.sellerNameEn,
      addressAr: inv.sellerAddressAr,
      addressEn: inv.sellerAddressEn,
      vatNumber: inv.sellerVatNumber,
    },
    customerName: inv.customerName,
    customerNameAr: inv.customerNameAr,
    customerNameEn: inv.customerNameEn,
    packageNameAr: inv.packageNameAr,
    packageNameEn: inv.packageNameEn,
    months: inv.months,
    price: inv.price,
    vatRateBp: inv.vatRateBp,
    vat: inv.vat,
    total: inv.total,
    paymentMethod: inv.paymentMethod,
    qr: inv.qr,
  }
}

/** The invoice as a downloadable PDF response. */
export function invoicePdfResponse(inv: InvoiceRow): Response {
  const pdf = renderInvoicePdf(invoiceDocumentOf(inv))
  return new Response(new Uint8Array(pdf), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${inv.serial}.pdf"`,
      'Cache-Control': 'private, no-store',
    },
  })
}
