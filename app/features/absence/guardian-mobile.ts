import { cellText, isBlankCell } from '#app/features/analyses/index.ts'
import type { CellValue } from '#app/platform/xlsx/types.ts'

/**
 * The guardian's mobile number of a student, when the uploaded file has a column for it (issue
 * 18, parent messages): read by header words like the other columns (docs/noor-layouts.md), kept
 * only with that student's stored record (for the "Open in WhatsApp" link), deleted with the
 * analysis, never logged, never exported. A number that cannot be read is left out: it never
 * refuses a row.
 */
export const guardianMobileColumn = {
  headers: [
    'جوال ولي الأمر',
    'رقم جوال ولي الأمر',
    'هاتف ولي الأمر',
    'رقم ولي الأمر',
    'جوال ولي أمر الطالب',
    'Guardian mobile',
    'Guardian phone',
    'Parent mobile',
    'Parent phone',
  ],
  required: false,
} as const

/**
 * A Saudi mobile number as WhatsApp's links want it (country code, no `+` or leading zeros):
 * `05xxxxxxxx`, `5xxxxxxxx` (a number cell that lost its 0), `+9665…`, `009665…` → `9665xxxxxxxx`.
 * Another international number (8 to 15 digits with its country code) is kept as its digits;
 * anything else (text, a number in scientific notation) is null.
 */
export function normaliseGuardianMobile(value: CellValue | string | undefined): string | null {
  if (value === undefined || isBlankCell(value)) return null
  if (typeof value === 'number' && !Number.isSafeInteger(value)) return null
  // Not through the shared normalisers: their caches would keep the numbers in memory.
  const text = cellText(value)
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[\u06F0-\u06F9]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .replace(/[\u200B-\u200F\u202A-\u202E\u2066-\u2069\u061C\uFEFF]/g, '')
    .trim()
  if (/e/i.test(text) || !/^[\d\s+\-().]+$/.test(text)) return null
  let digits = text.replace(/\D/g, '')
  if (text.trim().startsWith('+')) digits = digits.replace(/^0+/, '')
  else if (digits.startsWith('00')) digits = digits.slice(2)
  if (/^05\d{8}$/.test(digits)) return `966${digits.slice(1)}`
  if (/^5\d{8}$/.test(digits)) return `966${digits}`
  if (/^9665\d{8}$/.test(digits)) return digits
  if (/^[1-9]\d{7,14}$/.test(digits) && !digits.startsWith('0')) return digits
  return null
}
