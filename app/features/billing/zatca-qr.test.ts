import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { halalasToDecimal, readZatcaQr, zatcaQr } from './zatca-qr.ts'

describe('ZATCA QR', () => {
  it('matches the test vector of docs/billing.md', () => {
    expect(
      zatcaQr({
        sellerName: 'Bobs Records',
        vatNumber: '310122393500003',
        timestamp: '2022-04-25T15:30:00Z',
        total: '1000.00',
        vat: '150.00',
      }),
    ).toBe('AQxCb2JzIFJlY29yZHMCDzMxMDEyMjM5MzUwMDAwMwMUMjAyMi0wNC0yNVQxNTozMDowMFoEBzEwMDAuMDAFBjE1MC4wMA==')
  })

  it('counts lengths in bytes, so Arabic names round-trip', () => {
    const qr = zatcaQr({
      sellerName: 'مؤسسة حلّل للخدمات التعليمية',
      vatNumber: '300000000000003',
      timestamp: '2026-11-22T10:00:00Z',
      total: '286.35',
      vat: '37.35',
    })
    const bytes = Buffer.from(qr, 'base64')
    expect(bytes[0]).toBe(1)
    expect(bytes[1]).toBe(new TextEncoder().encode('مؤسسة حلّل للخدمات التعليمية').length)
    expect(readZatcaQr(qr)).toEqual(['مؤسسة حلّل للخدمات التعليمية', '300000000000003', '2026-11-22T10:00:00Z', '286.35', '37.35'])
  })

  it('prints halalas with two decimals', () => {
    expect(halalasToDecimal(100000)).toBe('1000.00')
    expect(halalasToDecimal(3735)).toBe('37.35')
    expect(halalasToDecimal(5)).toBe('0.05')
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 12 }), (n) => {
        expect(Number(halalasToDecimal(n).replace('.', ''))).toBe(n)
      }),
    )
  })
})
