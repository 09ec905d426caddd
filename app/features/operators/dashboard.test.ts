import { describe, expect, it } from 'vitest'
import { analyses, creditNotes, exams, invoices, packages, payments, subscriptions, users } from '#app/platform/db/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { operatorDashboard } from './dashboard.server.ts'

// Figures built by hand: instants chosen around Riyadh's midnight (21:00 UTC) and month ends.

const testDb = setupTestDatabase()
const NOW = new Date('2026-11-28T10:00:00Z') // 13:00 in Riyadh, 28 November

let n = 0
async function user(createdAt: Date) {
  const [row] = await testDb()
    .db.insert(users)
    .values({ username: `dash ${++n}`, email: `dash${n}@school.sa`, phone: '+966551234567', passwordHash: 'x', createdAt })
    .returning()
  return row!
}

const seller = {
  seller: 'hallil',
  sellerNameAr: 'حلّل',
  sellerNameEn: 'Hallil',
  sellerAddressAr: 'الرياض',
  sellerAddressEn: 'Riyadh',
  sellerVatNumber: '310122393500003',
  customerName: 'x',
  packageNameAr: 'شهري',
  packageNameEn: 'Monthly',
  months: 1,
  vatRateBp: 1500,
  paymentMethod: 'mada' as const,
  qr: 'x',
}

let serial = 0
/** A paid payment with its invoice issued at `issuedAt`, and its subscription. */
async function invoiced(userId: string, packageId: number, price: number, issuedAt: Date, subscription?: { startsAt: Date; endsAt: Date }) {
  const db = testDb().db
  const vat = Math.floor((price * 1500 + 5000) / 10_000)
  const [payment] = await db
    .insert(payments)
    .values({ userId, packageId, gateway: 'sandbox', method: 'mada', price, vatRateBp: 1500, vat, total: price + vat, status: 'paid' })
    .returning()
  const [invoice] = await db
    .insert(invoices)
    .values({
      ...seller,
      serial: `INV-${String(++serial).padStart(6, '0')}`,
      paymentId: payment!.id,
      userId,
      issuedAt,
      price,
      vat,
      total: price + vat,
    })
    .returning()
  if (subscription) await db.insert(subscriptions).values({ userId, packageId, paymentId: payment!.id, ...subscription })
  return { payment: payment!, invoice: invoice! }
}

describe('operatorDashboard', () => {
  it('counts sign-ups, analyses and tests per Riyadh day, active subscriptions, and net revenue per month', async () => {
    const db = testDb().db
    const [pkg] = await db
      .insert(packages)
      .values({ slug: 'm', nameAr: 'شهري', nameEn: 'Monthly', priceHalalas: 2900, months: 1 })
      .returning()
    // 27 Nov 21:30 UTC is 28 Nov 00:30 in Riyadh: today. 27 Nov 20:59 UTC is still the 27th there.
    const today1 = await user(new Date('2026-11-27T21:30:00Z'))
    const today2 = await user(new Date('2026-11-28T09:00:00Z'))
    const yesterday = await user(new Date('2026-11-27T20:59:00Z'))
    // The 30 days are 30 October to 28 November. 29 Oct 21:00 UTC = 30 Oct 00:00 in Riyadh: the
    // first of them; a minute earlier is 29 October there, outside.
    const firstDay = await user(new Date('2026-10-29T21:00:00Z'))
    await user(new Date('2026-10-29T20:59:00Z'))
    // Not yet: created after `now` (a clock the test holds back).
    await user(new Date('2026-11-28T11:00:00Z'))

    const analysis = (userId: string, createdAt: Date) =>
      db.insert(analyses).values({ userId, kind: 'absence', title: 'x', report: {}, records: [], createdAt })
    await analysis(today1.id, new Date('2026-11-28T08:00:00Z'))
    await analysis(today1.id, new Date('2026-11-28T08:10:00Z'))
    await analysis(yesterday.id, new Date('2026-11-27T12:00:00Z'))
    await db.insert(exams).values({ userId: today2.id, title: 'x', createdAt: new Date('2026-11-01T00:00:00Z') })

    // Revenue: November 2,900 + 9,900 + 2,900 (VAT 435 + 1,485 + 435), less a refund in November
    // of one of them, −2,900 (−435); October 2,900 (+435). An invoice 13 months ago is outside.
    const current = { startsAt: new Date('2026-11-20T00:00:00Z'), endsAt: new Date('2026-12-20T00:00:00Z') }
    await invoiced(today1.id, pkg!.id, 2900, new Date('2026-11-05T10:00:00Z'), current)
    await invoiced(today2.id, pkg!.id, 9900, new Date('2026-11-27T20:59:00Z'), current)
    // 31 Oct 21:30 UTC is 1 November in Riyadh: November's; 20:30 UTC is still October there.
    const refunded = await invoiced(yesterday.id, pkg!.id, 2900, new Date('2026-10-31T21:30:00Z'), {
      startsAt: new Date('2026-10-31T21:30:00Z'),
      endsAt: new Date('2026-11-27T00:00:00Z'),
    })
    await invoiced(yesterday.id, pkg!.id, 2900, new Date('2026-10-31T20:30:00Z'))
    await invoiced(firstDay.id, pkg!.id, 2900, new Date('2025-10-15T10:00:00Z'))
    await db.insert(creditNotes).values({
      ...seller,
      serial: 'CN-000001',
      invoiceId: refunded.invoice.id,
      invoiceSerial: refunded.invoice.serial,
      paymentId: refunded.payment.id,
      userId: yesterday.id,
      issuedAt: new Date('2026-11-10T10:00:00Z'),
      price: -2900,
      vat: -435,
      total: -3335,
    })

    const dash = await operatorDashboard({ db, now: NOW })
    expect(dash.teachers).toBe(6)
    // Two teachers with a current subscription (the refunded one ended on 27 November).
    expect(dash.activeSubscriptions).toBe(2)
    expect(dash.signUps).toHaveLength(30)
    expect(dash.signUps[0]).toEqual({ day: '2026-10-30', count: 1 })
    expect(dash.signUps.at(-1)).toEqual({ day: '2026-11-28', count: 2 })
    expect(dash.signUps.at(-2)).toEqual({ day: '2026-11-27', count: 1 })
    expect(dash.signUps.reduce((s, d) => s + d.count, 0)).toBe(4)
    expect(dash.analyses.at(-1)).toEqual({ day: '2026-11-28', count: 2 })
    expect(dash.analyses.at(-2)).toEqual({ day: '2026-11-27', count: 1 })
    expect(dash.tests.find((d) => d.day === '2026-11-01')?.count).toBe(1)
    expect(dash.tests.reduce((s, d) => s + d.count, 0)).toBe(1)

    expect(dash.revenue).toHaveLength(12)
    expect(dash.revenue[0]?.month).toBe('2025-12')
    expect(dash.revenue.at(-1)).toEqual({ month: '2026-11', excludingVat: 12_800, includingVat: 14_720 })
    expect(dash.revenue.at(-2)).toEqual({ month: '2026-10', excludingVat: 2900, includingVat: 3335 })
    expect(dash.revenue.slice(0, -2).every((m) => m.excludingVat === 0 && m.includingVat === 0)).toBe(true)
  })
})
