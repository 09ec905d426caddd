import { describe, expect, it } from 'vitest'
import { normaliseGuardianMobile } from './guardian-mobile.ts'

describe('the guardian’s mobile number', () => {
  it.each([
    ['0551234567', '966551234567'],
    ['055 123 4567', '966551234567'],
    ['055-123-4567', '966551234567'],
    ['٠٥٥١٢٣٤٥٦٧', '966551234567'],
    ['+966551234567', '966551234567'],
    ['00966551234567', '966551234567'],
    ['966551234567', '966551234567'],
    ['\u200f0551234567', '966551234567'],
  ])('%s → %s', (written, normalised) => {
    expect(normaliseGuardianMobile(written)).toBe(normalised)
  })
  it('reads a number cell that lost its leading zero', () => {
    expect(normaliseGuardianMobile(551234567)).toBe('966551234567')
  })
  it('keeps another country’s number as its digits', () => {
    expect(normaliseGuardianMobile('+971501234567')).toBe('971501234567')
  })
  it('leaves out what cannot be a number, without refusing anything', () => {
    for (const value of ['', null, 'لا يوجد', '1.2E+9', 5.51234567e9 + 0.5, '12345', '0123'])
      expect(normaliseGuardianMobile(value as string | number | null)).toBeNull()
  })
})
