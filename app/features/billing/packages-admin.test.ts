import { describe, expect, it } from 'vitest'
import { setupTestDatabase } from '#tests/db.ts'
import { addPackage, listAllPackages, parsePrice, updatePackage } from './packages-admin.server.ts'

const testDb = setupTestDatabase()

describe('package administration', () => {
  it('reads prices in halalas or riyals', () => {
    expect(parsePrice('SAR 99.00')).toBe(9900)
    expect(parsePrice('99')).toBe(9900)
    expect(parsePrice('99.5')).toBe(9950)
    expect(parsePrice('24900')).toBe(24900)
    expect(parsePrice('249.00 ر.س')).toBe(24900)
    expect(parsePrice('abc')).toBeNull()
  })

  it('adds, updates and deactivates, with one best seller at a time', async () => {
    const db = testDb().db
    await addPackage({ db, fields: { slug: 'a', nameAr: 'أ', nameEn: 'A', priceHalalas: 1000, months: 1, isBestSeller: true } })
    await addPackage({ db, fields: { slug: 'b', nameAr: 'ب', nameEn: 'B', priceHalalas: 2000, months: 2, isBestSeller: true } })
    let all = await listAllPackages({ db })
    expect(all.filter((p) => p.isBestSeller).map((p) => p.slug)).toEqual(['b'])
    await updatePackage({ db, slug: 'a', fields: { priceHalalas: 1500, isActive: false } })
    all = await listAllPackages({ db })
    expect(all.find((p) => p.slug === 'a')).toMatchObject({ priceHalalas: 1500, isActive: false })
    expect(await updatePackage({ db, slug: 'missing', fields: { months: 3 } })).toBeNull()
  })
})
