// Settlement and invoice PDF times (in process, PGlite or PostgreSQL by DATABASE_URL).
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setImmediate as turn } from 'node:timers/promises'
import { hashPassword } from '#app/features/accounts/index.server.ts'
import { invoiceDocumentOf, sandboxFor, settlePayment, startCheckout } from '#app/features/billing/index.server.ts'
import { renderInvoicePdf } from '#app/features/billing/invoice-pdf.server.ts'
import { invoices, users } from '#app/platform/db/schema.ts'
import { seedPackages } from '#app/platform/db/seed.server.ts'
import { loadEnv } from '#app/platform/env.server.ts'
import { createLogger } from '#app/platform/logger.server.ts'
import { openDatabaseFor } from '#app/platform/services.server.ts'
import { timeRunsAsync } from './measure.ts'

export async function benchBilling() {
  const env = loadEnv({ ...process.env, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'hallil-bench-')), LOG_LEVEL: 'silent' })
  const logger = createLogger('silent')
  const database = await openDatabaseFor(env)
  await database.migrate()
  await seedPackages({ db: database.db })
  const ctx = { db: database.db, env, logger }
  const gateway = sandboxFor(ctx)
  const passwordHash = await hashPassword('Bench-Strong-42')
  const stamp = Date.now().toString(36)
  const settle = await timeRunsAsync(async (i) => {
    const [user] = await database.db
      .insert(users)
      .values({
        username: `settle ${stamp} ${i}`,
        email: `settle-${stamp}-${i}@example.sa`,
        phone: '+966551234567',
        passwordHash,
        emailVerifiedAt: new Date(),
      })
      .returning()
    const checkout = await startCheckout({ ...ctx, gateway, input: { userId: user!.id, packageId: 1, method: 'mada', lang: 'en' } })
    await gateway.submitCard(checkout.gatewayPaymentId, { number: '4111111111111111', name: 'Bench', expiry: '12/30', cvc: '123' })
    await gateway.confirm3ds(checkout.gatewayPaymentId)
    const t0 = performance.now()
    await settlePayment({ ...ctx, gateway, gatewayPaymentId: checkout.gatewayPaymentId })
    return performance.now() - t0
  }, 31)
  const [invoice] = await database.db.select().from(invoices).limit(1)
  const doc = invoiceDocumentOf(invoice!)
  const pdf = await timeRunsAsync(async (i) => {
    const t0 = performance.now()
    renderInvoicePdf({ ...doc, serial: `INV-${String(900000 + i)}` })
    const ms = performance.now() - t0
    await turn()
    return ms
  }, 31)
  await database.close()
  return { database: database.kind, settleMedianMs: settle.medianMs, pdfMedianMs: pdf.medianMs }
}
