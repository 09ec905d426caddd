import { z } from '#app/lib/zod-mini.ts'
import { registerStatuses } from './register-status.ts'

// The register's forms (record an issued document, change an entry), shared by the follow-up page
// (instant feedback), its action and the REST endpoints. Messages are keys of `follow-up-register`.

const ARABIC_DIGITS = /[\u0660-\u0669\u06F0-\u06F9]/g
const latinDigits = (text: string) => text.replace(ARABIC_DIGITS, (d) => String((d.charCodeAt(0) & 0xf) % 10))

/** A whole number from a number or a form's text. */
const wholeNumber = (message: string, min: number, max: number) =>
  z.pipe(
    z.union([z.number({ error: message }), z.string({ error: message })]),
    z.pipe(
      z.transform((v: number | string) =>
        typeof v === 'number' ? v : /^\s*\d{1,6}\s*$/.test(latinDigits(v)) ? Number(latinDigits(v)) : NaN,
      ),
      z.number({ error: message }).check(z.int({ error: message }), z.gte(min, message), z.lte(max, message)),
    ),
  )

/** A calendar day, YYYY-MM-DD (Arabic digits read), that exists (no 31 April). */
const isoDay = z.pipe(
  z.string({ error: 'follow-up-register.errors.date' }).check(z.trim()),
  z.pipe(
    z.transform((v: string) => latinDigits(v)),
    z.string().check(
      z.refine((text: string) => {
        if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false
        const day = new Date(`${text}T00:00:00Z`)
        return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text
      }, 'follow-up-register.errors.date'),
    ),
  ),
)

const issuedBy = z
  .string({ error: 'follow-up-register.errors.issuedBy' })
  .check(z.trim(), z.minLength(1, 'follow-up-register.errors.issuedBy'), z.maxLength(120, 'follow-up-register.errors.issuedByLong'))
const status = z.enum(registerStatuses, { error: 'follow-up-register.errors.status' })
const notes = z
  .string({ error: 'follow-up-register.errors.notesLong' })
  .check(z.trim(), z.maxLength(1000, 'follow-up-register.errors.notesLong'))

export const issueFields = ['student', 'step', 'school_year', 'issued_on', 'issued_by', 'status', 'notes'] as const

/** Record a document issued to a student at a step (the student as the register page names it: `student`). */
export const issueSchema = z.object({
  student: z
    .string({ error: 'follow-up-register.errors.student' })
    .check(z.minLength(1, 'follow-up-register.errors.student'), z.maxLength(1000)),
  step: wholeNumber('follow-up-register.errors.step', 1, 8),
  school_year: wholeNumber('follow-up-register.errors.schoolYear', 2000, 2200),
  issued_on: isoDay,
  issued_by: issuedBy,
  status: z._default(status, 'awaiting'),
  notes: z._default(notes, ''),
})

export const updateFields = ['status', 'notes', 'issued_on', 'issued_by'] as const

/** Change an entry: its status, notes, date or issuer (what is sent changes). */
export const updateSchema = z.object({
  status: z.optional(status),
  notes: z.optional(notes),
  issued_on: z.optional(isoDay),
  issued_by: z.optional(issuedBy),
})
