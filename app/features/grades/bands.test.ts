import { describe, expect, it } from 'vitest'
import { DomainError } from '#app/lib/errors.ts'
import { getMessages } from '#app/i18n/messages.server.ts'
import { createTranslator } from '#app/i18n/translate.ts'
import { bandKeys, bandPresets, bandRangeLabel, parseBands, resolveBands } from './bands.ts'

const error = (input: unknown) => {
  const result = parseBands(input)
  return result.ok ? null : result.error
}

describe('bandPresets', () => {
  it('are the thresholds of docs/grades.md, from the highest band down to 0, with known keys', () => {
    expect(bandPresets.default.map((b) => [b.key, b.min])).toEqual([
      ['excellent', 90],
      ['veryGood', 80],
      ['good', 70],
      ['acceptable', 50],
      ['weak', 0],
    ])
    expect(bandPresets.elementary.map((b) => [b.key, b.min])).toEqual([
      ['outstanding', 95],
      ['advanced', 85],
      ['proficient', 75],
      ['notPassed', 0],
    ])
    for (const preset of Object.values(bandPresets)) {
      expect(parseBands(preset)).toEqual({ ok: true, bands: preset })
      expect(preset.every((b) => (bandKeys as readonly string[]).includes(b.key))).toBe(true)
    }
  })
})

describe('parseBands', () => {
  it('takes a preset by name', () => {
    expect(parseBands('elementary')).toEqual({ ok: true, bands: bandPresets.elementary })
    expect(parseBands('default')).toEqual({ ok: true, bands: bandPresets.default })
    expect(error('other')).toEqual({ key: 'grades.bandErrors.count' })
  })

  it("takes a teacher's bands: mins as numbers or digits (Arabic-Indic too), labels cleaned", () => {
    expect(
      parseBands([
        { key: ' ممتازٌ  جداً ', min: '٩٥' },
        { key: 'good', min: 60 },
        { key: 'Needs support', min: '0' },
      ]),
    ).toEqual({
      ok: true,
      bands: [
        { key: 'ممتاز جدا', min: 95 },
        { key: 'good', min: 60 },
        { key: 'Needs support', min: 0 },
      ],
    })
  })

  it('wants 2 to 8 bands', () => {
    expect(error([{ key: 'weak', min: 0 }])).toEqual({ key: 'grades.bandErrors.count' })
    expect(error(Array.from({ length: 9 }, (_, i) => ({ key: `b${i}`, min: 80 - 10 * i })))).toEqual({ key: 'grades.bandErrors.count' })
    expect(parseBands(Array.from({ length: 8 }, (_, i) => ({ key: `b${i}`, min: 70 - 10 * i }))).ok).toBe(true)
    expect(error(null)).toEqual({ key: 'grades.bandErrors.count' })
    expect(error({ key: 'weak', min: 0 })).toEqual({ key: 'grades.bandErrors.count' })
  })

  it('wants whole-number mins from 100 down, strictly descending, the last at 0', () => {
    const two = (first: unknown, last: unknown = 0) => [
      { key: 'good', min: first },
      { key: 'weak', min: last },
    ]
    expect(error(two(101))).toEqual({ key: 'grades.bandErrors.min', values: { band: 1 } })
    expect(error(two(-1))).toEqual({ key: 'grades.bandErrors.min', values: { band: 1 } })
    expect(error(two(59.5))).toEqual({ key: 'grades.bandErrors.min', values: { band: 1 } })
    expect(error(two('خمسون'))).toEqual({ key: 'grades.bandErrors.min', values: { band: 1 } })
    expect(error(two(null))).toEqual({ key: 'grades.bandErrors.min', values: { band: 1 } })
    expect(error(two(Number.NaN))).toEqual({ key: 'grades.bandErrors.min', values: { band: 1 } })
    expect(error(two(50, 50))).toEqual({ key: 'grades.bandErrors.order', values: { band: 2 } })
    expect(error(two(50, 60))).toEqual({ key: 'grades.bandErrors.order', values: { band: 2 } })
    expect(error(two(50, 10))).toEqual({ key: 'grades.bandErrors.lastZero', values: { band: 2 } })
    expect(parseBands(two(100)).ok).toBe(true)
  })

  it('wants names of 1 to 40 characters, no control characters, no two alike', () => {
    const named = (key: unknown) => [
      { key, min: 50 },
      { key: 'weak', min: 0 },
    ]
    expect(error(named(''))).toEqual({ key: 'grades.bandErrors.label', values: { band: 1 } })
    expect(error(named('   '))).toEqual({ key: 'grades.bandErrors.label', values: { band: 1 } })
    expect(error(named('x'.repeat(41)))).toEqual({ key: 'grades.bandErrors.label', values: { band: 1 } })
    expect(parseBands(named('x'.repeat(40))).ok).toBe(true)
    expect(error(named('a\u0000b'))).toEqual({ key: 'grades.bandErrors.label', values: { band: 1 } })
    expect(error(named('\u202Eevil'))).toEqual({ key: 'grades.bandErrors.label', values: { band: 1 } })
    expect(error(named(42))).toEqual({ key: 'grades.bandErrors.label', values: { band: 1 } })
    expect(error(named('Weak'))).toEqual({ key: 'grades.bandErrors.duplicate', values: { band: 2 } })
    expect(
      error([
        { key: 'ناجح', min: 50 },
        { key: 'ناجـح', min: 0 },
      ]),
    ).toEqual({ key: 'grades.bandErrors.duplicate', values: { band: 2 } })
  })
})

describe('resolveBands', () => {
  it('gives the default preset unless told, and refuses invalid bands as a 400 naming the reason', () => {
    expect(resolveBands(undefined)).toEqual(bandPresets.default)
    expect(resolveBands('elementary')).toEqual(bandPresets.elementary)
    expect(() => resolveBands([{ key: 'weak', min: 0 }])).toThrow(DomainError)
    expect(() => resolveBands([{ key: 'weak', min: 0 }])).toThrow(
      expect.objectContaining({ status: 400, messageKey: 'grades.bandErrors.count' }),
    )
  })
})

describe('bandRangeLabel', () => {
  const translator = (lang: 'ar' | 'en') => createTranslator(lang, getMessages(lang, ['grades'])).t

  it('names each band with the percents it covers, from the thresholds in force, in both languages', () => {
    const t = translator('ar')
    const labels = bandPresets.default.map((b, i) => bandRangeLabel(t, bandPresets.default, i, t(`grades.bands.${b.key}`)))
    expect(labels).toEqual([
      'ممتاز (90٪ فأكثر)',
      'جيد جدًا (80٪ إلى أقل من 90٪)',
      'جيد (70٪ إلى أقل من 80٪)',
      'مقبول (50٪ إلى أقل من 70٪)',
      'ضعيف (أقل من 50٪)',
    ])
    // A teacher's own thresholds change the labels with them.
    const own = [
      { key: 'A', min: 85 },
      { key: 'B', min: 60 },
      { key: 'C', min: 0 },
    ]
    expect(own.map((b, i) => bandRangeLabel(translator('en'), own, i, b.key))).toEqual([
      'A (85% and above)',
      'B (60% to under 85%)',
      'C (below 60%)',
    ])
  })
})
