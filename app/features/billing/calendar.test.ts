import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { addCalendarMonths } from './calendar.ts'

describe('addCalendarMonths', () => {
  it('keeps the day of the month, clamped to the end of shorter months', () => {
    expect(addCalendarMonths(new Date('2026-01-31T08:00:00Z'), 1).toISOString()).toBe('2026-02-28T08:00:00.000Z')
    expect(addCalendarMonths(new Date('2028-01-31T08:00:00Z'), 1).toISOString()).toBe('2028-02-29T08:00:00.000Z')
    expect(addCalendarMonths(new Date('2026-03-15T10:30:00Z'), 4).toISOString()).toBe('2026-07-15T10:30:00.000Z')
    expect(addCalendarMonths(new Date('2026-11-30T00:00:00Z'), 12).toISOString()).toBe('2027-11-30T00:00:00.000Z')
    expect(addCalendarMonths(new Date('2026-08-31T00:00:00Z'), 1).toISOString()).toBe('2026-09-30T00:00:00.000Z')
  })

  it('always moves forward by the right number of months', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2020-01-01'), max: new Date('2040-01-01'), noInvalidDate: true }),
        fc.integer({ min: 1, max: 36 }),
        (start, months) => {
          const end = addCalendarMonths(start, months)
          expect(end.getTime()).toBeGreaterThan(start.getTime())
          const monthDiff = (end.getUTCFullYear() - start.getUTCFullYear()) * 12 + end.getUTCMonth() - start.getUTCMonth()
          expect(monthDiff).toBe(months)
        },
      ),
    )
  })
})
