import { describe, expect, it } from 'vitest'
import { formatDate, formatMoney, formatNumber } from './format.ts'

describe('formatting', () => {
  it('prints money as docs/billing.md shows it', () => {
    expect(formatMoney('ar', 11500)).toBe('115.00 ر.س')
    expect(formatMoney('en', 11500)).toBe('SAR 115.00')
    expect(formatMoney('en', 123456789)).toBe('SAR 1,234,567.89')
    expect(formatMoney('ar', 5)).toBe('0.05 ر.س')
    // A credit note's negative amounts: in Arabic a left-to-right mark keeps the minus before the digits.
    expect(formatMoney('en', -5635)).toBe('SAR -56.35')
    expect(formatMoney('ar', -5635)).toBe('\u200E-56.35 ر.س')
  })

  it('uses Latin digits in Arabic', () => {
    expect(formatNumber('ar', 1234.5)).toMatch(/^1[,٬]234[.٫]5$/)
    expect(formatNumber('ar', 95)).toBe('95')
  })

  it('gives the Umm al-Qura date beside the Gregorian one, in Riyadh time', () => {
    // 2026-11-22 is 12 Jumada II 1448 AH; 22:30 UTC is already the next day in Riyadh.
    const ar = formatDate('ar', '2026-11-22T10:00:00Z')
    expect(ar.gregorian).toBe('22 نوفمبر 2026')
    expect(ar.hijri).toContain('1448')
    expect(ar.hijri).toContain('جمادى')
    expect(formatDate('en', '2026-11-22T22:30:00Z').gregorian).toBe('23 November 2026')
  })

  it('leaves the Hijri era out when asked, for a line that writes it its own way', () => {
    expect(formatDate('ar', '2025-10-12T12:00:00Z', { hijriEra: false })).toEqual({
      gregorian: '12 أكتوبر 2025',
      hijri: '20 ربيع الآخر 1447',
    })
    expect(formatDate('en', '2025-10-12T12:00:00Z', { hijriEra: false })).toEqual({
      gregorian: '12 October 2025',
      hijri: '20 Rabiʻ II 1447',
    })
    expect(formatDate('en', '2025-10-12T12:00:00Z').hijri).toBe('20 Rabiʻ II 1447 AH')
  })
})
