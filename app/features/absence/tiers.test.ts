import { describe, expect, it } from 'vitest'
import { tierThresholdsSchema } from './tier-thresholds.ts'
import { countTiers, defaultTierThresholds, tierOf } from './tiers.ts'

// Every expectation below is worked out by hand from the definition (share = (excused +
// unexcused) / school days; satisfactory < 5% ≤ at risk < 10% ≤ chronic < 20% ≤ severe), never
// from the code under test.

const student = (missed: number, records: number, excused = 0) => ({ excused, unexcused: missed - excused, records })

describe('tierOf, the default boundaries', () => {
  it.each([
    // [missed, school days, tier, why]
    [0, 180, 'satisfactory', '0%'],
    [499, 10_000, 'satisfactory', '4.99%'],
    [50, 1001, 'satisfactory', '4.995%: a rate rounds it to 5.00, the share is still under 5%'],
    [9, 180, 'atRisk', 'exactly 5% (9 of 180)'],
    [1, 20, 'atRisk', 'exactly 5% (1 of 20)'],
    [17, 180, 'atRisk', '9.44%'],
    [999, 10_000, 'atRisk', '9.99%'],
    [18, 180, 'chronic', 'exactly 10% (18 of 180: promotion at risk)'],
    [35, 180, 'chronic', '19.44%'],
    [1999, 10_000, 'chronic', '19.99%'],
    [36, 180, 'severe', 'exactly 20% (36 of 180)'],
    [1, 5, 'severe', '20%'],
    [10, 10, 'severe', '100%'],
  ] as const)('%i of %i days → %s (%s)', (missed, records, tier, _why) => {
    expect(tierOf(student(missed, records), defaultTierThresholds)).toBe(tier)
  })

  it('counts excused days as well as unexcused ones', () => {
    // 5 excused + 4 unexcused = 9 of 180 = 5%.
    expect(tierOf({ excused: 5, unexcused: 4, records: 180 }, defaultTierThresholds)).toBe('atRisk')
    // Unexcused alone (4 of 180 = 2.2%) would be satisfactory.
    expect(tierOf({ excused: 0, unexcused: 4, records: 180 }, defaultTierThresholds)).toBe('satisfactory')
  })

  it('gives no tier to a student with no school days', () => {
    expect(tierOf({ excused: 0, unexcused: 0, records: 0 }, defaultTierThresholds)).toBeNull()
  })
})

describe('tierOf, a teacher’s boundaries', () => {
  const own = { atRisk: 2.5, chronic: 7.5, severe: 15 }
  it('applies decimal boundaries exactly', () => {
    expect(tierOf(student(2, 80), own)).toBe('atRisk') // 2.5% exactly
    expect(tierOf(student(1, 41), own)).toBe('satisfactory') // 2.44%
    expect(tierOf(student(6, 80), own)).toBe('chronic') // 7.5% exactly
    expect(tierOf(student(12, 80), own)).toBe('severe') // 15% exactly
    expect(tierOf(student(11, 80), own)).toBe('chronic') // 13.75%
  })
  it('lets the last boundary be 100%', () => {
    const strict = { atRisk: 50, chronic: 90, severe: 100 }
    expect(tierOf(student(10, 10), strict)).toBe('severe')
    expect(tierOf(student(9, 10), strict)).toBe('chronic')
  })
})

describe('countTiers', () => {
  it('counts each classroom in the report’s order, and a student without days apart', () => {
    const order = [
      { grade: 'الأول المتوسط', classroom: '1' },
      { grade: 'الأول المتوسط', classroom: '2' },
      { grade: 'الثاني المتوسط', classroom: '1' },
    ]
    const a = { grade: 'الأول المتوسط', classroom: '1' }
    const b = { grade: 'الأول المتوسط', classroom: '2' }
    const tiers = countTiers(
      [
        { ...a, ...student(0, 20) }, // 0% satisfactory
        { ...a, ...student(1, 20) }, // 5% at risk
        { ...a, ...student(2, 20) }, // 10% chronic
        { ...b, ...student(4, 20) }, // 20% severe
        { ...b, ...student(3, 20) }, // 15% chronic
        { ...b, excused: 0, unexcused: 0, records: 0 }, // no days: no tier
      ],
      order,
      defaultTierThresholds,
    )
    expect(tiers.thresholds).toEqual({ atRisk: 5, chronic: 10, severe: 20 })
    expect(tiers.byClassroom).toEqual([
      { ...a, satisfactory: 1, atRisk: 1, chronic: 1, severe: 0, noTier: 0, students: 3 },
      { ...b, satisfactory: 0, atRisk: 0, chronic: 1, severe: 1, noTier: 1, students: 3 },
      // A classroom of the report with nobody counted (cannot happen in a real analysis) keeps its row of zeros.
      { grade: 'الثاني المتوسط', classroom: '1', satisfactory: 0, atRisk: 0, chronic: 0, severe: 0, noTier: 0, students: 0 },
    ])
    expect(tiers.summary).toEqual({ satisfactory: 1, atRisk: 1, chronic: 2, severe: 1, noTier: 1, students: 6 })
  })
})

describe('tierThresholdsSchema', () => {
  const parse = (input: unknown) => {
    const result = tierThresholdsSchema.safeParse(input)
    return result.success
      ? { ok: true as const, data: result.data }
      : { ok: false as const, errors: result.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`) }
  }

  it('reads the form’s text and the API’s numbers', () => {
    expect(parse({ at_risk: '5', chronic: '10', severe: '20' })).toEqual({ ok: true, data: { atRisk: 5, chronic: 10, severe: 20 } })
    expect(parse({ at_risk: 2.5, chronic: 7.5, severe: 100 })).toEqual({ ok: true, data: { atRisk: 2.5, chronic: 7.5, severe: 100 } })
    // Arabic-Indic digits, an Arabic decimal separator, a percent sign.
    expect(parse({ at_risk: '٧٫٥', chronic: '١٢', severe: '٢٠٪' })).toEqual({ ok: true, data: { atRisk: 7.5, chronic: 12, severe: 20 } })
  })

  it('refuses boundaries that are not ascending, or out of 0 < a < b < c ≤ 100', () => {
    expect(parse({ at_risk: '10', chronic: '10', severe: '20' })).toEqual({
      ok: false,
      errors: ['chronic: absence.tiers.errors.ascending'],
    })
    expect(parse({ at_risk: '5', chronic: '25', severe: '20' })).toEqual({ ok: false, errors: ['severe: absence.tiers.errors.ascending'] })
    expect(parse({ at_risk: '0', chronic: '10', severe: '20' })).toEqual({ ok: false, errors: ['at_risk: absence.tiers.errors.range'] })
    expect(parse({ at_risk: '5', chronic: '10', severe: '100.5' })).toEqual({ ok: false, errors: ['severe: absence.tiers.errors.range'] })
    expect(parse({ at_risk: -1, chronic: 10, severe: 20 })).toEqual({ ok: false, errors: ['at_risk: absence.tiers.errors.range'] })
  })

  it('refuses text that is not a number, an empty field and a third decimal', () => {
    expect(parse({ at_risk: 'five', chronic: '10', severe: '20' }).ok).toBe(false)
    expect(parse({ at_risk: '', chronic: '10', severe: '20' })).toEqual({ ok: false, errors: ['at_risk: absence.tiers.errors.required'] })
    // A field that failed says only why it failed, not also that it is out of order.
    expect(parse({ at_risk: '5', chronic: '10', severe: '' })).toEqual({ ok: false, errors: ['severe: absence.tiers.errors.required'] })
    expect(parse({ at_risk: '5', chronic: 'x', severe: '20' })).toEqual({ ok: false, errors: ['chronic: absence.tiers.errors.number'] })
    expect(parse({ at_risk: '5.125', chronic: '10', severe: '20' })).toEqual({
      ok: false,
      errors: ['at_risk: absence.tiers.errors.decimals'],
    })
    expect(parse({ chronic: '10', severe: '20' }).ok).toBe(false)
  })
})
