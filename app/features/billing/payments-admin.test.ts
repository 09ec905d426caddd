import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { z } from '#app/lib/zod-mini.ts'
import { invoices, packages, users } from '#app/platform/db/schema.ts'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { testContext } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { startCheckout } from './checkout.server.ts'
import { sandboxFor } from './gateway.server.ts'
import { SANDBOX_CARD_SUCCEEDS } from './gateways/sandbox.server.ts'
import { listPackages } from './list-packages.server.ts'
import { createPackage, editPackage, setPackageActive, type PackageForm } from './packages-admin.server.ts'
import { findPaymentDetail, searchPayments } from './payments-admin.server.ts'
import { refundPayment } from './refund-payment.server.ts'
import { packageFormSchema } from './schemas.ts'
import { settlePayment } from './settle-payment.server.ts'

// The operator area's billing: finding payments, one payment's documents, and packages.

const testDb = setupTestDatabase(async (db) => {
  await seedPackages({ db: db.db })
})

let n = 0
async function paidTeacher(email: string, packageId = 1) {
  const db = testDb().db
  const [user] = await db
    .insert(users)
    .values({ username: `op money ${++n}`, email, phone: '+966551234567', passwordHash: 'x', emailVerifiedAt: new Date() })
    .returning()
  const ctx = testContext(testDb())
  const gateway = sandboxFor(ctx)
  const checkout = await startCheckout({ ...ctx, gateway, input: { userId: user!.id, packageId, method: 'mada', lang: 'ar' } })
  await gateway.submitCard(checkout.gatewayPaymentId, { number: SANDBOX_CARD_SUCCEEDS, name: 'N', expiry: '12/30', cvc: '123' })
  await gateway.confirm3ds(checkout.gatewayPaymentId)
  await settlePayment({ db, gateway, env: ctx.env, logger: ctx.logger, gatewayPaymentId: checkout.gatewayPaymentId })
  const [invoice] = await db.select().from(invoices).where(eq(invoices.paymentId, checkout.paymentId))
  return { user: user!, ctx, gateway, paymentId: checkout.paymentId, invoice: invoice! }
}

describe('searchPayments and findPaymentDetail', () => {
  it('finds payments by part of the teacher’s email, by invoice serial (any padding) and by credit note serial', async () => {
    const noura = await paidTeacher('noura.alqahtani@school.sa')
    const sara = await paidTeacher('sara_h@other.sa', 2)
    const db = testDb().db
    expect((await searchPayments({ db, query: 'NOURA.ALQ' })).map((p) => p.id)).toEqual([noura.paymentId])
    // `_` is a letter here, not LIKE's wildcard.
    expect((await searchPayments({ db, query: 'noura_alq' })).map((p) => p.id)).toEqual([])
    expect((await searchPayments({ db, query: 'sara_h' })).map((p) => p.id)).toEqual([sara.paymentId])
    const serialNumber = Number(sara.invoice.serial.slice(4))
    expect((await searchPayments({ db, query: sara.invoice.serial })).map((p) => p.id)).toEqual([sara.paymentId])
    expect((await searchPayments({ db, query: `inv-${serialNumber}` })).map((p) => p.id)).toEqual([sara.paymentId])
    const all = await searchPayments({ db })
    expect(all.map((p) => p.id)).toEqual(expect.arrayContaining([noura.paymentId, sara.paymentId]))

    const { creditNote } = await refundPayment({
      db,
      gateway: noura.gateway,
      env: noura.ctx.env,
      logger: noura.ctx.logger,
      paymentId: noura.paymentId,
    })
    const [found] = await searchPayments({ db, query: creditNote.serial.toLowerCase() })
    expect(found).toMatchObject({
      id: noura.paymentId,
      status: 'refunded',
      teacherEmail: 'noura.alqahtani@school.sa',
      invoiceSerial: noura.invoice.serial,
      creditNoteSerial: creditNote.serial,
      total: 3335,
    })

    const detail = await findPaymentDetail({ db, paymentId: noura.paymentId })
    expect(detail?.teacher?.email).toBe('noura.alqahtani@school.sa')
    expect(detail?.invoice?.serial).toBe(noura.invoice.serial)
    expect(detail?.creditNote?.serial).toBe(creditNote.serial)
    expect(detail?.payment.status).toBe('refunded')
    expect(await findPaymentDetail({ db, paymentId: 'nope' })).toBeNull()
    expect(await findPaymentDetail({ db, paymentId: '00000000-0000-4000-8000-000000000000' })).toBeNull()
  })
})

describe('packages from the operator area', () => {
  const form = (overrides: Record<string, unknown> = {}): PackageForm =>
    z.parse(packageFormSchema, {
      slug: 'half-year',
      name_ar: 'نصف سنوي',
      name_en: 'Half-year',
      description_ar: 'ستة أشهر',
      description_en: 'Six months',
      price: '14900',
      months: '6',
      ...overrides,
    })

  it('validates the form with the shared schema: slug, names, halalas, months', () => {
    const bad = z.safeParse(packageFormSchema, { slug: 'Half Year', name_ar: '', name_en: 'x', price: '99', months: '40' })
    expect(bad.success).toBe(false)
    const fields = Object.fromEntries((bad.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]))
    expect(fields).toEqual({
      slug: 'billing.admin.errors.slug',
      name_ar: 'billing.admin.errors.name',
      price: 'billing.admin.errors.price',
      months: 'billing.admin.errors.months',
    })
    expect(form()).toMatchObject({ price: 14_900, months: 6, sort_order: 0, is_best_seller: false })
    expect(form({ is_best_seller: 'on' }).is_best_seller).toBe(true)
  })

  it('creates, edits and deactivates a package; invoices already issued keep what they printed', async () => {
    const db = testDb().db
    const paid = await paidTeacher('keeps.invoice@school.sa', 1)
    const created = await createPackage({ db, form: form() })
    expect(created).toMatchObject({ slug: 'half-year', priceHalalas: 14_900, months: 6, isActive: true })
    await expect(createPackage({ db, form: form() })).rejects.toMatchObject({
      status: 409,
      fields: { slug: ['billing.admin.errors.slugTaken'] },
    })

    // The package the teacher paid for changes its name and price.
    const { before, after } = await editPackage({
      db,
      packageId: 1,
      form: form({ slug: 'monthly', name_en: 'Monthly plus', price: '3900' }),
    })
    expect(before.priceHalalas).toBe(2900)
    expect(after).toMatchObject({ nameEn: 'Monthly plus', priceHalalas: 3900 })
    const [invoice] = await db.select().from(invoices).where(eq(invoices.id, paid.invoice.id))
    expect(invoice).toEqual(paid.invoice)
    expect(invoice?.packageNameEn).toBe('Monthly')
    expect(invoice?.price).toBe(2900)

    await setPackageActive({ db, packageId: created.id, isActive: false })
    const sold = await listPackages({ db, lang: 'en', vatRateBasisPoints: 1500 })
    expect(sold.map((p) => p.name)).not.toContain('Half-year')
    const [row] = await db.select().from(packages).where(eq(packages.id, created.id))
    expect(row?.isActive).toBe(false)
    await expect(setPackageActive({ db, packageId: 9999, isActive: false })).rejects.toMatchObject({ status: 404 })
    await expect(editPackage({ db, packageId: 9999, form: form({ slug: 'other' }) })).rejects.toMatchObject({ status: 404 })
  })
})
