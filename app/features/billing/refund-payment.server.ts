import { and, eq, gt, sql } from 'drizzle-orm'
import { DomainError } from '#app/lib/errors.ts'
import { isUuid } from '#app/lib/ids.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { creditNoteCounters, creditNotes, invoices, notifications, payments, subscriptions } from '#app/platform/db/schema.ts'
import type { Env } from '#app/platform/env.server.ts'
import type { Logger } from '#app/platform/logger.server.ts'
import { GatewayError, type GatewayRefund, type PaymentGateway } from './gateways/types.ts'
import { halalasToDecimal, zatcaQr } from './zatca-qr.ts'

export type CreditNoteRow = typeof creditNotes.$inferSelect

export type RefundPaymentOptions = {
  db: Db
  /** The gateway the payment was made through (its name must match the payment's). */
  gateway: PaymentGateway
  env: Env
  logger: Logger
  /** Our payment's id (not the gateway's). */
  paymentId: string
  now?: Date
  /**
   * Runs inside the credit note's transaction, after it is written: the operator area records
   * its audit entry here, so the refund and its record commit together or not at all.
   */
  record?: (tx: Db, creditNote: CreditNoteRow) => Promise<void>
}

export type RefundResult = { creditNote: CreditNoteRow; refund: GatewayRefund }

const SELLER = 'hallil'

/**
 * Refunds a paid payment in full through its gateway and issues the credit note
 * (docs/billing.md, "Refunds and credit notes"). The gateway is asked first, outside any
 * transaction (the sandbox gateway writes to the database itself); only once it confirms the
 * whole amount is given back does one transaction mark the payment refunded, end its
 * subscription, take the next CN- serial and insert the credit note. A failure before that
 * leaves everything as it was; a second refund of the same payment is refused, and two at once
 * give one credit note (the payment row is locked, and the credit note is unique per payment).
 */
export async function refundPayment({
  db,
  gateway,
  env,
  logger,
  paymentId,
  now = new Date(),
  record,
}: RefundPaymentOptions): Promise<RefundResult> {
  if (!isUuid(paymentId)) throw new DomainError(404, 'billing.errors.notFound')
  const [found] = await db
    .select({ payment: payments, invoiceId: invoices.id })
    .from(payments)
    .leftJoin(invoices, eq(invoices.paymentId, payments.id))
    .where(eq(payments.id, paymentId))
    .limit(1)
  if (!found) throw new DomainError(404, 'billing.errors.notFound')
  const { payment } = found
  if (payment.status === 'refunded') throw new DomainError(409, 'billing.refund.errors.alreadyRefunded')
  if (payment.status !== 'paid' || !found.invoiceId || !payment.gatewayPaymentId)
    throw new DomainError(409, 'billing.refund.errors.notRefundable')
  // A payment made through another gateway than the one configured now cannot be refunded here.
  if (payment.gateway !== gateway.name) throw new DomainError(409, 'billing.refund.errors.otherGateway')

  let refund: GatewayRefund
  try {
    refund = await gateway.refundPayment(payment.gatewayPaymentId, payment.total)
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error
    // The gateway's words are for the logs; the operator gets the product's message.
    logger.warn({ paymentId: payment.id, kind: error.kind, reason: error.message }, 'the gateway did not refund the payment')
    throw new DomainError(error.kind === 'unavailable' ? 503 : 409, 'billing.refund.errors.gateway')
  }
  if (refund.refundedAmount !== payment.total) {
    logger.error({ paymentId: payment.id }, 'the gateway refunded another amount than the payment’s total')
    throw new DomainError(409, 'billing.refund.errors.gateway')
  }

  return db.transaction(async (tx) => {
    const [locked] = await tx.select().from(payments).where(eq(payments.id, payment.id)).for('update')
    if (!locked) throw new DomainError(404, 'billing.errors.notFound')
    // Another refund of this payment finished first: the gateway was asked twice for the same
    // refund and answered it once; its credit note stands, and this one is refused.
    if (locked.status === 'refunded') throw new DomainError(409, 'billing.refund.errors.alreadyRefunded')
    const [invoice] = await tx.select().from(invoices).where(eq(invoices.paymentId, locked.id))
    if (!invoice) throw new DomainError(409, 'billing.refund.errors.notRefundable')

    await tx.update(payments).set({ status: 'refunded', refundedAt: now }).where(eq(payments.id, locked.id))
    // The subscription the payment bought ends at the refund; one not started yet (chained after
    // another) ends before it begins. Other subscriptions keep their dates.
    await tx
      .update(subscriptions)
      .set({ endsAt: sql`greatest(${subscriptions.startsAt}, ${now.toISOString()}::timestamptz)`, endedNotifiedAt: now })
      .where(and(eq(subscriptions.paymentId, locked.id), gt(subscriptions.endsAt, now)))

    // Its own counter, locked until the commit like the invoices' (docs/billing.md): no gaps.
    const [counter] = await tx
      .insert(creditNoteCounters)
      .values({ seller: SELLER, lastSerial: 1 })
      .onConflictDoUpdate({ target: creditNoteCounters.seller, set: { lastSerial: sql`${creditNoteCounters.lastSerial} + 1` } })
      .returning({ lastSerial: creditNoteCounters.lastSerial })
    const serial = `CN-${String(counter?.lastSerial ?? 0).padStart(6, '0')}`
    const amounts = { price: -invoice.price, vat: -invoice.vat, total: -invoice.total }
    const [creditNote] = await tx
      .insert(creditNotes)
      .values({
        serial,
        seller: SELLER,
        invoiceId: invoice.id,
        invoiceSerial: invoice.serial,
        paymentId: locked.id,
        userId: invoice.userId,
        issuedAt: now,
        // The seller as configured now (the credit note is a document of today), the customer
        // and the package as the invoice printed them.
        sellerNameAr: env.SELLER_NAME_AR,
        sellerNameEn: env.SELLER_NAME_EN,
        sellerAddressAr: env.SELLER_ADDRESS_AR,
        sellerAddressEn: env.SELLER_ADDRESS_EN,
        sellerVatNumber: env.SELLER_VAT_NUMBER,
        customerName: invoice.customerName,
        customerNameAr: invoice.customerNameAr,
        customerNameEn: invoice.customerNameEn,
        packageNameAr: invoice.packageNameAr,
        packageNameEn: invoice.packageNameEn,
        months: invoice.months,
        ...amounts,
        vatRateBp: invoice.vatRateBp,
        paymentMethod: invoice.paymentMethod,
        gatewayRefundId: refund.reference ?? null,
        qr: zatcaQr({
          sellerName: env.SELLER_NAME_AR,
          vatNumber: env.SELLER_VAT_NUMBER,
          timestamp: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
          total: halalasToDecimal(amounts.total),
          vat: halalasToDecimal(amounts.vat),
        }),
      })
      .returning()
    if (!creditNote) throw new Error('credit note insert returned no row')
    if (invoice.userId)
      await tx.insert(notifications).values({
        userId: invoice.userId,
        kind: 'payment_refunded',
        params: { serial, invoice: invoice.serial, package: invoice.packageNameEn, packageAr: invoice.packageNameAr },
      })
    await record?.(tx, creditNote)
    return { creditNote, refund }
  })
}
