import { desc, eq, ilike, or, type SQL } from 'drizzle-orm'
import { isUuid } from '#app/lib/ids.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { creditNotes, invoices, packages, payments, subscriptions, users } from '#app/platform/db/schema.ts'
import type { CreditNoteRow } from './refund-payment.server.ts'
import type { InvoiceRow } from './invoices.server.ts'

// The operator area's view of payments and subscriptions (docs/billing.md): search by the
// teacher's email or a document's serial, and one payment with everything it led to.

export type PaymentSummary = {
  id: string
  createdAt: Date
  status: (typeof payments.$inferSelect)['status']
  gateway: 'sandbox' | 'moyasar'
  method: string
  total: number
  /** Null once the account is deleted: the payment stays, without its owner. */
  teacherEmail: string | null
  packageNameAr: string
  packageNameEn: string
  invoiceId: string | null
  invoiceSerial: string | null
  creditNoteSerial: string | null
  subscriptionEndsAt: Date | null
}

export type SearchPaymentsOptions = { db: Db; query?: string; limit?: number }

/** `INV-12`, `inv-000012` and `12` with a prefix all name INV-000012. */
function serialOf(query: string): string | null {
  const match = /^(INV|CN)-?0*(\d{1,6})$/i.exec(query)
  return match ? `${match[1]!.toUpperCase()}-${match[2]!.padStart(6, '0')}` : null
}

/** A user's text inside LIKE, matched literally. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

/**
 * Payments, newest first: all of them without a query; with one, an invoice or credit note
 * serial matches exactly, anything else a part of the teacher's email (case-insensitive).
 */
export async function searchPayments({ db, query = '', limit = 50 }: SearchPaymentsOptions): Promise<PaymentSummary[]> {
  const q = query.trim().slice(0, 200)
  const serial = serialOf(q)
  let where: SQL | undefined
  if (serial) where = serial.startsWith('INV-') ? eq(invoices.serial, serial) : eq(creditNotes.serial, serial)
  else if (q) where = or(ilike(users.email, `%${likeEscaped(q)}%`), isUuid(q) ? eq(payments.id, q) : undefined)
  const rows = await db
    .select({
      id: payments.id,
      createdAt: payments.createdAt,
      status: payments.status,
      gateway: payments.gateway,
      method: payments.method,
      total: payments.total,
      teacherEmail: users.email,
      packageNameAr: packages.nameAr,
      packageNameEn: packages.nameEn,
      invoiceId: invoices.id,
      invoiceSerial: invoices.serial,
      creditNoteSerial: creditNotes.serial,
      subscriptionEndsAt: subscriptions.endsAt,
    })
    .from(payments)
    .innerJoin(packages, eq(packages.id, payments.packageId))
    .leftJoin(users, eq(users.id, payments.userId))
    .leftJoin(invoices, eq(invoices.paymentId, payments.id))
    .leftJoin(creditNotes, eq(creditNotes.paymentId, payments.id))
    .leftJoin(subscriptions, eq(subscriptions.paymentId, payments.id))
    .where(where)
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(Math.min(Math.max(limit, 1), 200))
  return rows
}

export type OperatorPaymentDetail = {
  payment: typeof payments.$inferSelect
  teacher: { id: string; email: string; username: string } | null
  packageNameAr: string
  packageNameEn: string
  subscription: { id: string; startsAt: Date; endsAt: Date } | null
  invoice: InvoiceRow | null
  creditNote: CreditNoteRow | null
}

export type FindPaymentDetailOptions = { db: Db; paymentId: string }

/** One payment as the operator sees it: the teacher, the subscription, the invoice and credit note. */
export async function findPaymentDetail({ db, paymentId }: FindPaymentDetailOptions): Promise<OperatorPaymentDetail | null> {
  if (!isUuid(paymentId)) return null
  const [row] = await db
    .select({
      payment: payments,
      teacherId: users.id,
      teacherEmail: users.email,
      teacherUsername: users.username,
      packageNameAr: packages.nameAr,
      packageNameEn: packages.nameEn,
    })
    .from(payments)
    .innerJoin(packages, eq(packages.id, payments.packageId))
    .leftJoin(users, eq(users.id, payments.userId))
    .where(eq(payments.id, paymentId))
    .limit(1)
  if (!row) return null
  const [subscription] = await db
    .select({ id: subscriptions.id, startsAt: subscriptions.startsAt, endsAt: subscriptions.endsAt })
    .from(subscriptions)
    .where(eq(subscriptions.paymentId, paymentId))
  const [invoice] = await db.select().from(invoices).where(eq(invoices.paymentId, paymentId))
  const [creditNote] = await db.select().from(creditNotes).where(eq(creditNotes.paymentId, paymentId))
  return {
    payment: row.payment,
    teacher: row.teacherId && row.teacherEmail ? { id: row.teacherId, email: row.teacherEmail, username: row.teacherUsername ?? '' } : null,
    packageNameAr: row.packageNameAr,
    packageNameEn: row.packageNameEn,
    subscription: subscription ?? null,
    invoice: invoice ?? null,
    creditNote: creditNote ?? null,
  }
}
