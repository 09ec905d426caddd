import {
  createPackage,
  editPackage,
  refundPayment,
  setPackageActive,
  type PackageForm,
  type PackageRow,
  type PaymentGateway,
  type RefundResult,
} from '#app/features/billing/index.server.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import type { Env } from '#app/platform/env.server.ts'
import type { Logger } from '#app/platform/logger.server.ts'
import { recordOperatorAction, type Operator } from './audit.server.ts'

// The operator area's money actions (docs/operators.md, "Money"): billing does the work, and the
// audit entry is written in the same transaction, so an action and its record stand or fall
// together. The pages and /api/v1/admin call these, never billing's functions directly.

export type RefundPaymentByOperatorOptions = {
  db: Db
  gateway: PaymentGateway
  env: Env
  logger: Logger
  operator: Operator
  paymentId: string
}

/** Refunds a paid payment in full and issues its credit note (docs/billing.md, "Refunds and credit notes"). */
export async function refundPaymentByOperator({ operator, ...options }: RefundPaymentByOperatorOptions): Promise<RefundResult> {
  return refundPayment({
    ...options,
    record: (tx, creditNote) =>
      recordOperatorAction({
        db: tx,
        operator,
        action: 'payment.refund',
        target: { type: 'payment', id: creditNote.paymentId },
        detail: { creditNote: creditNote.serial, invoice: creditNote.invoiceSerial, total: creditNote.total },
      }),
  })
}

const packageFacts = (row: PackageRow) => ({ slug: row.slug, price: row.priceHalalas, months: row.months, active: row.isActive })

export type CreatePackageByOperatorOptions = { db: Db; operator: Operator; form: PackageForm }

export async function createPackageByOperator({ db, operator, form }: CreatePackageByOperatorOptions): Promise<PackageRow> {
  return db.transaction(async (tx) => {
    const row = await createPackage({ db: tx, form })
    await recordOperatorAction({
      db: tx,
      operator,
      action: 'package.create',
      target: { type: 'package', id: String(row.id) },
      detail: packageFacts(row),
    })
    return row
  })
}

export type EditPackageByOperatorOptions = { db: Db; operator: Operator; packageId: number; form: PackageForm }

export async function editPackageByOperator({ db, operator, packageId, form }: EditPackageByOperatorOptions): Promise<PackageRow> {
  return db.transaction(async (tx) => {
    const { before, after } = await editPackage({ db: tx, packageId, form })
    // The price and length before and after: what a later reader of the log wants to know.
    await recordOperatorAction({
      db: tx,
      operator,
      action: 'package.edit',
      target: { type: 'package', id: String(after.id) },
      detail: { ...packageFacts(after), priceBefore: before.priceHalalas, monthsBefore: before.months },
    })
    return after
  })
}

export type SetPackageActiveByOperatorOptions = { db: Db; operator: Operator; packageId: number; isActive: boolean }

export async function setPackageActiveByOperator({
  db,
  operator,
  packageId,
  isActive,
}: SetPackageActiveByOperatorOptions): Promise<PackageRow> {
  return db.transaction(async (tx) => {
    const row = await setPackageActive({ db: tx, packageId, isActive })
    await recordOperatorAction({
      db: tx,
      operator,
      action: isActive ? 'package.reactivate' : 'package.deactivate',
      target: { type: 'package', id: String(row.id) },
      detail: packageFacts(row),
    })
    return row
  })
}
