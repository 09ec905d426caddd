import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { priceBreakdown, vatOf } from './vat.ts'

describe('VAT in halalas', () => {
  it('rounds half up', () => {
    expect(vatOf(10000, 1500)).toBe(1500)
    expect(vatOf(2900, 1500)).toBe(435)
    expect(vatOf(1, 1500)).toBe(0) // 0.15 halala
    expect(vatOf(3, 1500)).toBe(0) // 0.45
    expect(vatOf(10, 1500)).toBe(2) // 1.5 → 2
    expect(vatOf(30, 1500)).toBe(5) // 4.5 → 5
  })

  it('matches an exact decimal computation for every price', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), fc.integer({ min: 0, max: 10_000 }), (price, rate) => {
        const exact = BigInt(price) * BigInt(rate) // VAT × 10 000
        const expected = Number((exact + 5_000n) / 10_000n)
        expect(vatOf(price, rate)).toBe(expected)
        const b = priceBreakdown(price, rate)
        expect(b.total).toBe(b.price + b.vat)
        expect(Number.isInteger(b.vat)).toBe(true)
      }),
      { numRuns: 5000 },
    )
  })

  it('refuses fractions and negatives', () => {
    expect(() => vatOf(1.5, 1500)).toThrow(RangeError)
    expect(() => vatOf(-1, 1500)).toThrow(RangeError)
  })
})
