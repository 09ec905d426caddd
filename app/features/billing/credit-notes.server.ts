import { and, desc, eq } from 'drizzle-orm'
import type { Lang } from '#app/i18n/config.ts'
import { isUuid } from '#app/lib/ids.ts'
import { wireDateTime, wireId, wireShape, type Wire } from '#app/lib/wire.server.ts'
import { z } from '#app/lib/zod.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { creditNotes } from '#app/platform/db/schema.ts'
import { renderCreditNotePdf, type CreditNoteDocument } from './invoice-pdf.server.ts'
import { taxDocumentJson } from './invoices.server.ts'
import type { CreditNoteRow } from './refund-payment.server.ts'

export type FindCreditNoteOptions = {
  db: Db
  creditNoteId: string
  /** A teacher's own only; omitted by the operator area. */ userId?: string
}

/** A credit note; another teacher's id, or any other string, is simply not found. */
export async function findCreditNote({ db, creditNoteId, userId }: FindCreditNoteOptions): Promise<CreditNoteRow | null> {
  if (!isUuid(creditNoteId)) return null
  const [row] = await db
    .select()
    .from(creditNotes)
    .where(and(eq(creditNotes.id, creditNoteId), userId === undefined ? undefined : eq(creditNotes.userId, userId)))
    .limit(1)
  return row ?? null
}

export type FindInvoiceCreditNoteOptions = { db: Db; invoiceId: string }

/** The credit note that reverses an invoice, if it was refunded (at most one). */
export async function findInvoiceCreditNote({ db, invoiceId }: FindInvoiceCreditNoteOptions): Promise<CreditNoteRow | null> {
  const [row] = await db.select().from(creditNotes).where(eq(creditNotes.invoiceId, invoiceId)).limit(1)
  return row ?? null
}

export type ListUserCreditNotesOptions = { db: Db; userId: string }

export async function listUserCreditNotes({ db, userId }: ListUserCreditNotesOptions): Promise<CreditNoteRow[]> {
  return db.select().from(creditNotes).where(eq(creditNotes.userId, userId)).orderBy(desc(creditNotes.issuedAt))
}

/** Negative halalas: a credit note gives back what its invoice charged. */
const wireNegativeHalalas = (what: string) => z.int().max(0).describe(`${what}, in halalas, negative`)

/** A credit note in the API's answers: its own stored copy, names in the request's language. */
export const creditNoteWire = wireShape(
  'CreditNote',
  z.object({
    id: wireId,
    serial: z.string().describe('CN- and six digits, a series of its own'),
    invoice_id: wireId,
    invoice_serial: z.string().describe('The invoice it reverses in full'),
    payment_id: wireId,
    issued_at: wireDateTime,
    seller: z.object({ name: z.string(), vat_number: z.string(), address: z.string() }),
    customer_name: z.string(),
    package_name: z.string(),
    months: z.int().min(1),
    price: wireNegativeHalalas('Before VAT'),
    vat_rate: z.number().describe('A percentage (15)'),
    vat: wireNegativeHalalas('The VAT'),
    total: wireNegativeHalalas('With VAT'),
    payment_method: z.string(),
    qr: z.string().describe('The ZATCA TLV, Base64'),
  }),
)

export function creditNoteToJson(note: CreditNoteRow, lang: Lang): Wire<typeof creditNoteWire> {
  return {
    id: note.id,
    serial: note.serial,
    invoice_id: note.invoiceId,
    invoice_serial: note.invoiceSerial,
    payment_id: note.paymentId,
    issued_at: note.issuedAt.toISOString(),
    ...taxDocumentJson(note, lang),
  }
}

/** What the PDF prints: the credit note's own stored copy of every field. */
export function creditNoteDocumentOf(note: CreditNoteRow): CreditNoteDocument {
  return {
    serial: note.serial,
    invoiceSerial: note.invoiceSerial,
    issuedAt: note.issuedAt,
    seller: {
      nameAr: note.sellerNameAr,
      nameEn: note.sellerNameEn,
      addressAr: note.sellerAddressAr,
      addressEn: note.sellerAddressEn,
      vatNumber: note.sellerVatNumber,
    },
    customerName: note.customerName,
    customerNameAr: note.customerNameAr,
    customerNameEn: note.customerNameEn,
    packageNameAr: note.packageNameAr,
    packageNameEn: note.packageNameEn,
    months: note.months,
    price: note.price,
    vatRateBp: note.vatRateBp,
    vat: note.vat,
    total: note.total,
    paymentMethod: note.paymentMethod,
    qr: note.qr,
  }
}

/** The credit note as a downloadable PDF response. */
export function creditNotePdfResponse(note: CreditNoteRow): Response {
  const pdf = renderCreditNotePdf(creditNoteDocumentOf(note))
  return new Response(new Uint8Array(pdf), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${note.serial}.pdf"`,
      'Cache-Control': 'private, no-store',
    },
  })
}
