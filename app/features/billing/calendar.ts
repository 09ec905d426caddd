/**
 * A subscription ends after its package's calendar months, on the same day of the month,
 * clamped to the month's end (31 January + 1 month = 28 or 29 February), at the same time of day (UTC).
 */
export function addCalendarMonths(start: Date, months: number): Date {
  const year = start.getUTCFullYear()
  const month = start.getUTCMonth() + months
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
  const day = Math.min(start.getUTCDate(), lastDay)
  return new Date(Date.UTC(year, month, day, start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds(), start.getUTCMilliseconds()))
}
