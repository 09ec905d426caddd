import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { dayOfGregorian, dayOfHijri, fromExcelSerial, hijriOfDay, parseDateCell, parseDateText, schoolDateOfDay } from './dates.ts'

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000

describe('Excel serials', () => {
  it('reads the 1900 date system, ignoring the time of day', () => {
    expect(fromExcelSerial(45893)).toEqual({ date: '2025-08-24', hijri: '1447-03-01', weekday: 0, day: day('2025-08-24') })
    expect(fromExcelSerial(45893.75)?.date).toBe('2025-08-24')
    expect(fromExcelSerial(1)?.date).toBe('1900-01-01')
    expect(fromExcelSerial(59)?.date).toBe('1900-02-28')
    expect(fromExcelSerial(61)?.date).toBe('1900-03-01')
  })

  it('refuses the 29 February 1900 Excel invents, zero, negatives and the impossible', () => {
    expect(fromExcelSerial(60)).toBeNull()
    expect(fromExcelSerial(0)).toBeNull()
    expect(fromExcelSerial(-5)).toBeNull()
    expect(fromExcelSerial(3_000_000)).toBeNull()
    expect(fromExcelSerial(Number.NaN)).toBeNull()
  })
})

describe('Gregorian text', () => {
  it('reads yyyy/mm/dd and dd/mm/yyyy with /, - or .', () => {
    const texts = ['2025/08/24', '2025-08-24', '2025.08.24', '24/08/2025', '24-08-2025', '24.8.2025', '2025/8/24']
    expect(texts.map((text) => [text, parseDateText(text)?.date])).toEqual(texts.map((text) => [text, '2025-08-24']))
  })

  it('accepts Arabic-Indic digits, spaces around separators, a time and an era letter', () => {
    expect(parseDateText('٢٠٢٥/٠٨/٢٤')?.date).toBe('2025-08-24')
    expect(parseDateText('۲۴-۰۸-۲۰۲۵')?.date).toBe('2025-08-24')
    expect(parseDateText(' 2025 / 08 / 24 ')?.date).toBe('2025-08-24')
    expect(parseDateText('2025-08-24 07:30:00')?.date).toBe('2025-08-24')
    expect(parseDateText('2025-08-24T07:30:00Z')?.date).toBe('2025-08-24')
    expect(parseDateText('24/08/2025 م')?.date).toBe('2025-08-24')
  })

  it('validates the date', () => {
    expect(parseDateText('2024/02/29')?.date).toBe('2024-02-29')
    expect(parseDateText('2025/02/29')).toBeNull()
    expect(parseDateText('1900/02/29')).toBeNull()
    expect(parseDateText('2025/13/01')).toBeNull()
    expect(parseDateText('2025/04/31')).toBeNull()
    expect(parseDateText('2025/00/10')).toBeNull()
  })

  it('refuses years outside the Hijri and Gregorian ranges and other shapes', () => {
    const texts = [
      '1299/01/01',
      '1601/01/01',
      '1700/01/01',
      '1899/12/31',
      '24/08/25',
      '2025/08',
      '08/24/2025',
      'unknown',
      'غير معروف',
      '',
      '2025/08/24/1',
    ]
    expect(texts.map((text) => [text, parseDateText(text)])).toEqual(texts.map((text) => [text, null]))
  })
})

describe('Hijri (Umm al-Qura) text', () => {
  it('converts to Gregorian, both ways round', () => {
    expect(parseDateText('1447/03/01')).toEqual({ date: '2025-08-24', hijri: '1447-03-01', weekday: 0, day: day('2025-08-24') })
    expect(parseDateText('01/03/1447')?.date).toBe('2025-08-24')
    expect(parseDateText('1447-01-01')?.date).toBe('2025-06-26')
    expect(parseDateText('1446.09.01')?.date).toBe('2025-03-01')
    expect(parseDateText('١٤٤٧/٠٣/١٢ هـ')?.date).toBe('2025-09-04')
  })

  it('validates that the Hijri day exists (29- and 30-day months)', () => {
    expect(parseDateText('1447/02/29')?.date).toBe('2025-08-23')
    expect(parseDateText('1447/02/30')).toBeNull() // Safar 1447 has 29 days
    expect(parseDateText('1447/13/01')).toBeNull()
    expect(parseDateText('1447/03/31')).toBeNull()
    expect(parseDateText('1447/00/10')).toBeNull()
  })

  it('covers 1300 to 1600', () => {
    expect(dayOfHijri(1300, 1, 1)).toBe(day('1882-11-12'))
    expect(dayOfHijri(1600, 12, 29)).not.toBeNull()
    expect(dayOfHijri(1299, 12, 29)).toBeNull()
    expect(dayOfHijri(1601, 1, 1)).toBeNull()
  })

  it('inverts the Gregorian → Hijri mapping for every day it covers', () => {
    fc.assert(
      fc.property(fc.integer({ min: day('1882-11-12'), max: day('2174-11-25') }), (d) => {
        const h = hijriOfDay(d)
        expect(dayOfHijri(h.year, h.month, h.day)).toBe(d)
        const text = `${h.year}/${String(h.month).padStart(2, '0')}/${String(h.day).padStart(2, '0')}`
        expect(parseDateText(text)?.day).toBe(d)
        expect(schoolDateOfDay(d).hijri).toBe(text.replaceAll('/', '-'))
      }),
      { numRuns: 2000 },
    )
  })
})

describe('weekdays and days', () => {
  it('counts weekdays from Sunday = 0', () => {
    expect(parseDateText('2025-08-24')?.weekday).toBe(0)
    expect(parseDateText('2025-08-28')?.weekday).toBe(4)
    expect(parseDateText('2025-08-30')?.weekday).toBe(6)
    expect(schoolDateOfDay(0)).toEqual({ date: '1970-01-01', hijri: '1389-10-22', weekday: 4, day: 0 })
    expect(schoolDateOfDay(-1).weekday).toBe(3)
  })

  it('agrees with Date for Gregorian days', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1900-03-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true }),
        (date) => {
          const iso = date.toISOString().slice(0, 10)
          const [y, m, d] = iso.split('-').map(Number) as [number, number, number]
          const found = dayOfGregorian(y, m, d)
          expect(found).toBe(day(iso))
          expect(schoolDateOfDay(found as number)).toMatchObject({ date: iso, weekday: new Date(`${iso}T00:00:00Z`).getUTCDay() })
        },
      ),
    )
  })
})

describe('parseDateCell', () => {
  it('reads Excel date cells, text and bare serials in school years', () => {
    expect(parseDateCell({ kind: 'date', serial: 45893 })?.date).toBe('2025-08-24')
    expect(parseDateCell('01/03/1447')?.date).toBe('2025-08-24')
    expect(parseDateCell(45893)?.date).toBe('2025-08-24')
  })

  it('refuses empty cells, booleans and numbers that are not plausible serials', () => {
    expect(parseDateCell(null)).toBeNull()
    expect(parseDateCell(true)).toBeNull()
    expect(parseDateCell(1447)).toBeNull()
    expect(parseDateCell(20250824)).toBeNull()
  })
})
