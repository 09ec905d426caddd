import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { packages } from '#app/platform/db/schema.ts'
import { defaultPackages, seedPackages } from '#app/platform/db/seed.server.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { listPackages } from './list-packages.server.ts'

const testDb = setupTestDatabase()

describe('packages', () => {
  it('lists nothing on an empty database', async () => {
    expect(await listPackages({ db: testDb().db, lang: 'ar', vatRateBasisPoints: 1500 })).toEqual([])
  })

  it('seeds three packages once, the year as best seller', async () => {
    expect(await seedPackages({ db: testDb().db })).toBe(3)
    expect(await seedPackages({ db: testDb().db })).toBe(0)
    const list = await listPackages({ db: testDb().db, lang: 'en', vatRateBasisPoints: 1500 })
    expect(list.map((p) => p.months)).toEqual([1, 4, 12])
    expect(list.filter((p) => p.isBestSeller).map((p) => p.months)).toEqual([12])
  })

  it('shows the price, VAT and total in halalas, names in the language asked', async () => {
    const [monthly] = await listPackages({ db: testDb().db, lang: 'ar', vatRateBasisPoints: 1500 })
    const seeded = defaultPackages[0]!
    expect(monthly?.name).toBe(seeded.nameAr)
    expect(monthly?.price).toBe(seeded.priceHalalas)
    expect(monthly?.vat).toBe(Math.floor((seeded.priceHalalas * 15 + 50) / 100))
    expect(monthly?.total).toBe(seeded.priceHalalas + (monthly?.vat ?? 0))
    expect(monthly?.vatRate).toBe(15)
  })

  it('hides inactive packages', async () => {
    await testDb().db.update(packages).set({ isActive: false }).where(eq(packages.slug, 'term'))
    const list = await listPackages({ db: testDb().db, lang: 'en', vatRateBasisPoints: 1500 })
    expect(list.map((p) => p.months)).toEqual([1, 12])
  })
})
