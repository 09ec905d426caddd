import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decimalPlaces, percent, roundFraction, roundHalfAway, roundRatio, roundSqrtFraction } from './rounding.ts'

// Reference: exact rational arithmetic in BigInt, the result written as decimal text and parsed.
function referenceRound(numerator: bigint, denominator: bigint, decimals: number): number {
  const negative = numerator < 0n !== denominator < 0n && numerator !== 0n
  const n = numerator < 0n ? -numerator : numerator
  const d = denominator < 0n ? -denominator : denominator
  const scaled = n * 10n ** BigInt(decimals)
  let q = scaled / d
  if ((scaled % d) * 2n >= d) q += 1n
  const digits = q.toString().padStart(decimals + 1, '0')
  const text = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`
  const value = Number(`${negative ? '-' : ''}${text}`)
  return value === 0 ? 0 : value
}

/** A decimal literal and its exact value as a fraction over a power of ten. */
const decimalLiteral = fc
  .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 999_999_999n }), fc.integer({ min: 0, max: 6 }), fc.bigInt({ min: 0n, max: 999_999n }))
  .map(([negative, whole, places, fraction]) => {
    const fractionDigits = places === 0 ? '' : (fraction % 10n ** BigInt(places)).toString().padStart(places, '0')
    const text = `${negative ? '-' : ''}${whole}${fractionDigits ? `.${fractionDigits}` : ''}`
    const exact = BigInt(`${negative ? '-' : ''}${whole}${fractionDigits}`)
    return { text, exact, scale: places }
  })

describe('roundHalfAway', () => {
  it('rounds as the decimal reads, not as the binary float falls', () => {
    expect(roundHalfAway(1.005)).toBe(1.01)
    expect(roundHalfAway(1.015)).toBe(1.02)
    expect(roundHalfAway(2.675)).toBe(2.68)
    expect(roundHalfAway(1.255)).toBe(1.26)
    expect(roundHalfAway(0.125)).toBe(0.13)
    expect(roundHalfAway(1.0049999)).toBe(1)
    expect(roundHalfAway(8.345)).toBe(8.35)
  })

  it('rounds halves away from zero on both sides', () => {
    expect(roundHalfAway(-1.005)).toBe(-1.01)
    expect(roundHalfAway(-0.125)).toBe(-0.13)
    expect(roundHalfAway(-0.004)).toBe(0)
    expect(Object.is(roundHalfAway(-0.004), -0)).toBe(false)
    expect(roundHalfAway(2.5, 0)).toBe(3)
    expect(roundHalfAway(-2.5, 0)).toBe(-3)
  })

  it('handles exponent forms and numbers already short enough', () => {
    expect(roundHalfAway(1e-7)).toBe(0)
    expect(roundHalfAway(5e-3)).toBe(0.01)
    expect(roundHalfAway(1.5e21)).toBe(1.5e21)
    expect(roundHalfAway(42)).toBe(42)
    expect(roundHalfAway(12.3)).toBe(12.3)
    expect(roundHalfAway(12.345, 1)).toBe(12.3)
  })

  it('refuses what is not a finite number', () => {
    expect(() => roundHalfAway(Number.NaN)).toThrow(RangeError)
    expect(() => roundHalfAway(Number.POSITIVE_INFINITY)).toThrow(RangeError)
    expect(() => roundHalfAway(1, -1)).toThrow(RangeError)
  })

  it('matches exact decimal rounding for every decimal literal', () => {
    fc.assert(
      fc.property(decimalLiteral, fc.integer({ min: 0, max: 4 }), ({ text, exact, scale }, decimals) => {
        expect(roundHalfAway(Number(text), decimals)).toBe(referenceRound(exact, 10n ** BigInt(scale), decimals))
      }),
      { numRuns: 5000 },
    )
  })
})

describe('roundRatio and percent', () => {
  it('gives the figures of the absence spec', () => {
    expect(percent(56, 60)).toBe(93.33)
    expect(percent(1, 60)).toBe(1.67)
    expect(percent(3, 60)).toBe(5)
    expect(percent(2, 3)).toBe(66.67)
    expect(percent(1, 8)).toBe(12.5)
    expect(percent(1, 800)).toBe(0.13) // 0.125 exactly: half away from zero
    expect(percent(0, 7)).toBe(0)
    expect(percent(7, 7)).toBe(100)
  })

  it('is exact for decimal parts and wholes (grades out of 20 or 15)', () => {
    expect(percent(17.5, 20)).toBe(87.5)
    expect(percent(1.005, 1)).toBe(100.5)
    expect(percent(0.1, 3)).toBe(3.33)
    expect(percent(12.75, 15)).toBe(85)
    expect(roundRatio(1.005, 1)).toBe(1.01)
    expect(roundRatio(10.05, 10)).toBe(1.01) // 1.005 exactly
    expect(roundRatio(-1, 8)).toBe(-0.13)
    expect(roundRatio(1, -8)).toBe(-0.13)
  })

  it('refuses a zero denominator', () => {
    expect(() => percent(1, 0)).toThrow(RangeError)
    expect(() => roundRatio(1, 0)).toThrow(RangeError)
    expect(() => percent(0.5, 0)).toThrow(RangeError)
  })

  it('matches the rational reference for integer counts', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.nat(), fc.integer({ min: 0, max: 4 }), (whole, seed, decimals) => {
        const part = seed % (whole + 1)
        expect(percent(part, whole, decimals)).toBe(referenceRound(BigInt(part) * 100n, BigInt(whole), decimals))
        expect(roundRatio(-part, whole, decimals)).toBe(referenceRound(-BigInt(part), BigInt(whole), decimals))
      }),
      { numRuns: 5000 },
    )
  })

  it('matches the rational reference for decimal numerators and denominators', () => {
    fc.assert(
      fc.property(decimalLiteral, decimalLiteral, fc.integer({ min: 0, max: 4 }), (n, d, decimals) => {
        fc.pre(d.exact !== 0n)
        const reference = referenceRound(n.exact * 10n ** BigInt(d.scale), d.exact * 10n ** BigInt(n.scale), decimals)
        expect(roundRatio(Number(n.text), Number(d.text), decimals)).toBe(reference)
        expect(percent(Number(n.text), Number(d.text), decimals)).toBe(
          referenceRound(100n * n.exact * 10n ** BigInt(d.scale), d.exact * 10n ** BigInt(n.scale), decimals),
        )
      }),
      { numRuns: 5000 },
    )
  })
})

describe('roundFraction', () => {
  it('rounds big-integer fractions exactly, half away from zero', () => {
    expect(roundFraction(2n, 3n)).toBe(0.67)
    expect(roundFraction(1n, 8n)).toBe(0.13)
    expect(roundFraction(-1n, 8n)).toBe(-0.13)
    expect(roundFraction(0n, -8n)).toBe(0)
    expect(Object.is(roundFraction(-1n, 1000n), -0)).toBe(false)
    expect(roundFraction(10n ** 30n + 5n, 10n ** 30n * 1000n, 2)).toBe(0)
    expect(() => roundFraction(1n, 0n)).toThrow(RangeError)
  })

  it('matches the rational reference', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.integer({ min: 0, max: 4 }),
        (n, d, decimals) => {
          expect(roundFraction(n, d, decimals)).toBe(referenceRound(n, d, decimals))
        },
      ),
      { numRuns: 3000 },
    )
  })
})

describe('roundSqrtFraction', () => {
  it('rounds square roots exactly, halves away from zero', () => {
    expect(roundSqrtFraction(15625n, 1_000_000n)).toBe(0.13) // √0.015625 = 0.125
    expect(roundSqrtFraction(4n, 1n)).toBe(2)
    expect(roundSqrtFraction(2n, 1n)).toBe(1.41)
    expect(roundSqrtFraction(3n, 1n, 4)).toBe(1.7321)
    expect(roundSqrtFraction(0n, 5n)).toBe(0)
    expect(roundSqrtFraction(10n ** 40n, 1n)).toBe(1e20)
    expect(() => roundSqrtFraction(-1n, 1n)).toThrow(RangeError)
    expect(() => roundSqrtFraction(1n, 0n)).toThrow(RangeError)
  })

  it('gives the integer r with (r − ½)² ≤ x < (r + ½)², in hundredths', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 24n }), fc.bigInt({ min: 1n, max: 10n ** 9n }), (n, d) => {
        const r = BigInt(Math.round(roundSqrtFraction(n, d) * 100))
        // x·10⁴ = 10⁴·n/d; (2r − 1)²·d ≤ 4·10⁴·n < (2r + 1)²·d
        const x4 = 4n * 10_000n * n
        expect((2n * r - 1n) ** 2n * d <= x4 || r === 0n).toBe(true)
        expect(x4 < (2n * r + 1n) ** 2n * d).toBe(true)
      }),
      { numRuns: 3000 },
    )
  })
})

describe('decimalPlaces', () => {
  it('counts the decimals a number prints with', () => {
    expect([7, 41.25, 0.5, 33.3, -2.125, 1e-7, 0.1 + 0.2, 1e21].map(decimalPlaces)).toEqual([0, 2, 1, 1, 3, 7, 17, 0])
  })

  it('agrees with the printed form for every decimal literal', () => {
    fc.assert(
      fc.property(decimalLiteral, ({ text }) => {
        const printed = String(Number(text))
        const match = /\.(\d+)$/.exec(printed)
        expect(decimalPlaces(Number(text))).toBe(match?.[1]?.length ?? 0)
      }),
      { numRuns: 3000 },
    )
  })
})
