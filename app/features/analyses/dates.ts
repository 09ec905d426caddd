import { isExcelDate, type CellValue } from '#app/platform/xlsx/types.ts'
import { normalizeText } from './normalize.ts'

/** A school day, read from an Excel date cell or from Gregorian or Hijri (Umm al-Qura) text. */
export interface SchoolDate {
  /** Gregorian, ISO `YYYY-MM-DD`. */
  readonly date: string
  /** Hijri (Umm al-Qura), `YYYY-MM-DD`. */
  readonly hijri: string
  /** 0 = Sunday … 6 = Saturday. */
  readonly weekday: number
  /** Days since 1970-01-01 (for ordering and arithmetic). */
  readonly day: number
}

export interface HijriDate {
  readonly year: number
  readonly month: number
  readonly day: number
}

const msPerDay = 86_400_000
/** Excel's serial of 1970-01-01 in the 1900 date system. */
const excelUnixEpoch = 25_569
const maxExcelSerial = 2_958_465 // 9999-12-31
// A plain number in a date column is taken as a serial only when it falls in 1950–2100: the
// cell lost its date format, and a number outside these years is not a school day.
const plainSerialMin = 18_264
const plainSerialMax = 73_051
/** ICU holds the Umm al-Qura tables for these years; outside them it would silently compute another calendar. */
export const hijriYears = { min: 1300, max: 1600 } as const
export const gregorianYears = { min: 1900, max: 9999 } as const

// Built on first use: a browser takes 10–20 ms to build it, and a page that only imports this
// module (the analysis pages, through the feature's index) should not pay that while it loads.
let hijriFormatter: Intl.DateTimeFormat | undefined
const hijriFormat = () =>
  (hijriFormatter ??= new Intl.DateTimeFormat('en-u-ca-islamic-umalqura-nu-latn', {
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    timeZone: 'UTC',
  }))

const cacheLimit = 20_000
const hijriByDay = new Map<number, HijriDate>()
const schoolDates = new Map<number, SchoolDate>()
const monthStarts = new Map<number, number | null>()
const parsedTexts = new Map<string, SchoolDate | null>()

function remember<K, V>(cache: Map<K, V>, key: K, value: V): V {
  if (cache.size >= cacheLimit) cache.clear()
  cache.set(key, value)
  return value
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n))

/** The Hijri (Umm al-Qura) date of a day (days since 1970-01-01). */
export function hijriOfDay(day: number): HijriDate {
  const known = hijriByDay.get(day)
  if (known) return known
  let year = 0
  let month = 0
  let dayOfMonth = 0
  for (const part of hijriFormat().formatToParts(new Date(day * msPerDay))) {
    if (part.type === 'year') year = Number(part.value)
    else if (part.type === 'month') month = Number(part.value)
    else if (part.type === 'day') dayOfMonth = Number(part.value)
  }
  return remember(hijriByDay, day, { year, month, day: dayOfMonth })
}

function compareHijri(a: HijriDate, year: number, month: number, day: number): number {
  return a.year - year || a.month - month || a.day - day
}

/** The day (since 1970-01-01) on which a Hijri month starts, found by searching the Gregorian→Hijri mapping. */
function hijriMonthStart(year: number, month: number): number | null {
  const key = year * 12 + month
  const known = monthStarts.get(key)
  if (known !== undefined) return known
  // The tabular (arithmetic) calendar lands within a day or two of Umm al-Qura.
  const months = (year - 1) * 12 + (month - 1)
  let guess = Math.floor(months * 29.530588853) - 492_148
  for (let step = 0; step < 12; step++) {
    const h = hijriOfDay(guess)
    const monthsOff = (year - h.year) * 12 + (month - h.month)
    if (monthsOff === 0 && h.day === 1) return remember(monthStarts, key, guess)
    const move = Math.round(monthsOff * 29.530588853) + (1 - h.day)
    guess += move === 0 ? (monthsOff > 0 ? 1 : -1) : move
  }
  return remember(monthStarts, key, null)
}

/** The day (since 1970-01-01) of a Hijri date, or null when that day does not exist (e.g. the 30th of a 29-day month). */
export function dayOfHijri(year: number, month: number, day: number): number | null {
  if (!Number.isInteger(year) || year < hijriYears.min || year > hijriYears.max) return null
  if (!Number.isInteger(month) || month < 1 || month > 12 || !Number.isInteger(day) || day < 1 || day > 30) return null
  const start = hijriMonthStart(year, month)
  if (start === null) return null
  const candidate = start + day - 1
  return compareHijri(hijriOfDay(candidate), year, month, day) === 0 ? candidate : null
}

/** The day (since 1970-01-01) of a Gregorian date, or null when the date does not exist. */
export function dayOfGregorian(year: number, month: number, day: number): number | null {
  if (!Number.isInteger(year) || year < gregorianYears.min || year > gregorianYears.max) return null
  if (!Number.isInteger(month) || month < 1 || month > 12 || !Number.isInteger(day) || day < 1 || day > 31) return null
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null
  return Date.UTC(year, month - 1, day) / msPerDay
}

/** Gregorian, Hijri and weekday of a day (days since 1970-01-01). */
export function schoolDateOfDay(day: number): SchoolDate {
  const known = schoolDates.get(day)
  if (known) return known
  const h = hijriOfDay(day)
  return remember(schoolDates, day, {
    date: new Date(day * msPerDay).toISOString().slice(0, 10),
    hijri: `${h.year}-${pad2(h.month)}-${pad2(h.day)}`,
    weekday: (((day + 4) % 7) + 7) % 7, // 1970-01-01 was a Thursday
    day,
  })
}

/** An Excel 1900-system serial (time of day ignored), or null outside Excel's dates. */
export function fromExcelSerial(serial: number): SchoolDate | null {
  if (!Number.isFinite(serial)) return null
  const whole = Math.floor(serial)
  if (whole < 1 || whole > maxExcelSerial || whole === 60) return null
  // Excel counts a 29 February 1900 that never was (serial 60): earlier serials are one day off.
  return schoolDateOfDay(whole < 60 ? whole - excelUnixEpoch + 1 : whole - excelUnixEpoch)
}

// yyyy/mm/dd or dd/mm/yyyy with / - or . between the parts; an optional time (a date typed with
// one) and an optional era letter (هـ after tatweel removal is ه; م for Gregorian).
const datePattern = /^(\d{1,4}) ?[/.-] ?(\d{1,2}) ?[/.-] ?(\d{1,4})(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z?)?(?: ?[هم])?$/

function computeDateText(text: string): SchoolDate | null {
  const match = datePattern.exec(normalizeText(text))
  if (!match) return null
  const [, a = '', b = '', c = ''] = match
  let year: number
  let day: number
  if (a.length === 4 && c.length <= 2) {
    year = Number(a)
    day = Number(c)
  } else if (c.length === 4 && a.length <= 2) {
    year = Number(c)
    day = Number(a)
  } else return null
  const month = Number(b)
  const dayNumber =
    year >= hijriYears.min && year <= hijriYears.max
      ? dayOfHijri(year, month, day)
      : year >= gregorianYears.min
        ? dayOfGregorian(year, month, day)
        : null
  return dayNumber === null ? null : schoolDateOfDay(dayNumber)
}

/** Text `yyyy/mm/dd` or `dd/mm/yyyy` (`/`, `-` or `.`): years 1300–1600 are Hijri (Umm al-Qura), 1900 on Gregorian. */
export function parseDateText(text: string): SchoolDate | null {
  const known = parsedTexts.get(text)
  if (known !== undefined) return known
  return remember(parsedTexts, text, computeDateText(text))
}

/** A date cell: an Excel date, date text, or a bare serial that lost its date format. Null when unreadable. */
export function parseDateCell(value: CellValue): SchoolDate | null {
  if (value === null || typeof value === 'boolean') return null
  if (typeof value === 'string') return parseDateText(value)
  if (typeof value === 'number') return value >= plainSerialMin && value <= plainSerialMax ? fromExcelSerial(value) : null
  return isExcelDate(value) ? fromExcelSerial(value.serial) : null
}
