import { z } from '#app/lib/zod.ts'
import { EXAM_LIMITS } from '#app/features/exams/schemas.ts'

// What /api/v1 answers (api.md "Shapes", absence.md and grades.md "API shape"), as zod schemas.
// openapi.ts turns them into the document's response schemas with z.toJSONSchema, and the API
// tests check every answer they receive against that document (tests/api-conformance.ts).
// Objects are strict: a field the document does not name is a mismatch, not a bonus.

const dateTime = z.iso.datetime().describe('ISO-8601, UTC')
const day = z.iso.date().describe('YYYY-MM-DD')
const id = z.uuid()
const halalas = (what: string) => z.int().min(0).describe(`${what}, in halalas`)
/** Two decimals, half away from zero (absence.md, grades.md). */
const rate = z.number()
const count = z.int().min(0)

// ---- Errors ----

export const messageBody = z.object({ message: z.string().describe('In the language of Accept-Language') })

const fieldErrors = z.record(z.string(), z.array(z.string())).describe('The messages of each field, by its name in the request')

/** 4xx other than 422: the message, and per-field messages when the failure belongs to a field (wrong password: `email`). */
export const errorBody = z.object({ message: z.string().describe('In the language of Accept-Language'), errors: fieldErrors.optional() })

/** 422 (api.md): the message and every field's messages (none when no one field is at fault). */
export const validationErrorBody = z.object({ message: z.string(), errors: fieldErrors })

const skippedRow = z.object({
  sheet: z.string().optional().describe('The sheet’s name (none for a CSV file)'),
  row: z.int().min(1).describe('As Excel numbers it'),
  reason: z.string(),
})

/** A refused workbook (422): the message, also as the `file` field's, and the missing columns or the first skipped rows when those are why. */
export const analysisErrorBody = z.object({
  message: z.string(),
  errors: fieldErrors,
  missingColumns: z.array(z.string()).optional(),
  skipped: z.array(skippedRow).optional(),
})

// ---- Accounts ----

export const packageRef = z.object({ id: z.int(), name: z.string() })

export const user = z.object({
  id,
  username: z.string(),
  email: z.email(),
  phone: z.string().describe('+9665xxxxxxxx'),
  avatar_url: z.string().nullable(),
  email_verified_at: dateTime.nullable(),
  created_at: dateTime,
  subscription: z.object({ package: packageRef, starts_at: dateTime, ends_at: dateTime }).nullable().describe('The subscription in force now'),
})

export const notification = z.object({ id, kind: z.string(), title: z.string(), body: z.string(), read_at: dateTime.nullable(), created_at: dateTime })

export const review = z.object({ id, rating: z.int().min(1).max(5), comment: z.string(), username: z.string(), created_at: dateTime })

export const reviewReceived = z.object({ id, rating: z.int().min(1).max(5), comment: z.string(), status: z.enum(['pending', 'approved', 'rejected']) })

// ---- Billing ----

export const packageJson = z.object({
  id: z.int(),
  name: z.string(),
  description: z.string(),
  months: z.int().min(1),
  price: halalas('Before VAT'),
  vat_rate: z.number().describe('A percentage (15)'),
  vat: halalas('The VAT'),
  total: halalas('With VAT'),
  is_best_seller: z.boolean(),
})

export const subscription = z.object({
  id,
  package: packageRef,
  status: z.enum(['current', 'expired']),
  starts_at: dateTime,
  ends_at: dateTime,
  payment: z.object({ id, method: z.string(), amount: halalas('Paid'), status: z.string() }),
})

export const checkout = z.object({ payment_url: z.string().nullable().describe('Where the payer goes next'), payment_id: id })

export const invoice = z.object({
  id,
  serial: z.string(),
  issued_at: dateTime,
  seller: z.object({ name: z.string(), vat_number: z.string(), address: z.string() }),
  customer_name: z.string(),
  package_name: z.string(),
  months: z.int().min(1),
  price: halalas('Before VAT'),
  vat_rate: z.number().describe('A percentage (15)'),
  vat: halalas('The VAT'),
  total: halalas('With VAT'),
  payment_method: z.string(),
  qr: z.string().describe('The ZATCA TLV, Base64'),
})

// ---- Tests (exams) ----

const questionBase = {
  text: z.string(),
  marks: z.number().positive(),
  image: id.nullable().describe('From POST uploads/images'),
  image_url: z.string().nullable().describe('Where to read the image, with the bearer token'),
}
const option = z.string()

export const question = z.discriminatedUnion('type', [
  z.object({ type: z.literal('multiple_choice'), ...questionBase, options: z.array(option).length(4), correct: z.int().min(0).max(3) }),
  z.object({
    type: z.literal('checkbox'),
    ...questionBase,
    options: z.array(option).min(EXAM_LIMITS.checkboxOptions.min).max(EXAM_LIMITS.checkboxOptions.max),
    correct: z.array(z.int().min(0)).min(1),
  }),
  z.object({ type: z.literal('true_false'), ...questionBase, correct: z.boolean() }),
  z.object({ type: z.literal('essay'), ...questionBase, lines: z.int().min(EXAM_LIMITS.essayLines.min).max(EXAM_LIMITS.essayLines.max) }),
  z.object({
    type: z.literal('matching'),
    ...questionBase,
    pairs: z.array(z.object({ left: z.string(), right: z.string() })).min(EXAM_LIMITS.matchingPairs.min).max(EXAM_LIMITS.matchingPairs.max),
  }),
  z.object({ type: z.literal('fill_blank'), ...questionBase, answers: z.array(z.string()).describe('One per blank (`___`)') }),
])

export const exam = z.object({
  id,
  title: z.string(),
  school_name: z.string(),
  subject: z.string(),
  grade: z.string(),
  date: day.nullable(),
  duration_minutes: z.int().min(1).nullable(),
  info: z.string(),
  show_student_name: z.boolean(),
  total_marks: z.number().min(0),
  questions: z.array(question),
  created_at: dateTime,
  updated_at: dateTime,
})

export const examSummary = exam.pick({ id: true, title: true, subject: true, grade: true, date: true, total_marks: true, created_at: true, updated_at: true }).extend({ question_count: count })

export const image = z.object({ id, url: z.string(), width: z.int().min(1), height: z.int().min(1) })

// ---- Analyses ----

const counts = { records: count, present: count, excused: count, unexcused: count, late: count }
const rates = { attendanceRate: rate, excusedRate: rate, unexcusedRate: rate, lateRate: rate }
const figures = { ...counts, ...rates }

const analysisHead = { id, title: z.string(), createdAt: dateTime, meta: z.record(z.string(), z.string()).describe('The title block as written, and the sheet’s name') }

/** What was recognised in the file (docs/noor-layouts.md): layout, sheets, classrooms, students, and the notes. */
const recognisedBase = {
  sheets: count.describe('Sheets read'),
  sheetsSkipped: count.describe('Sheets that hold no table of the layout (a cover, School Info)'),
  classrooms: count,
  gradeCodes: z.array(z.string()).optional().describe('Grades written as Noor’s codes, kept as written'),
}
const absenceRecognised = z.object({
  layout: z.enum(['absence-daily', 'absence-totals']),
  ...recognisedBase,
  students: count,
  idsIgnored: z.boolean().describe('The IDs were in scientific notation: students told apart by name, grade and classroom'),
  schoolDays: z.int().min(1).optional().describe('Totals: the school days the figures use'),
  period: z.object({ from: z.string(), to: z.string(), fromDate: day, toDate: day }).nullable().optional().describe('Totals: the period as written and as Gregorian dates'),
})
const gradesRecognised = z.object({
  layout: z.enum(['grades-rows', 'report-cards', 'band-summary']),
  ...recognisedBase,
  students: count.nullable().describe('Null for a band summary'),
  assumedMaxima: z.record(z.string(), z.number().positive()).optional().describe('Report cards without maxima: the maximum assumed per subject'),
})

export const absenceAnalysis = z.object({
  ...analysisHead,
  kind: z.literal('absence'),
  recognised: absenceRecognised.optional().describe('Absent from analyses saved before Noor’s layouts were read'),
  summary: z.object({ students: count, days: count.describe('School days with records, or the totals’ school days'), ...figures }),
  bySection: z.array(z.object({ section: z.string(), ...figures })),
  byClassroom: z.array(z.object({ grade: z.string(), classroom: z.string(), ...figures })),
  bySystem: z.array(z.object({ system: z.string(), ...figures })),
  byWeekday: z.array(z.object({ weekday: z.int().min(0).max(6).describe('0 = Sunday'), ...figures })).optional().describe('Daily records only'),
  byDate: z.array(z.object({ date: day, hijri: z.string(), ...figures })).optional().describe('Daily records only'),
  periodAbsences: count.optional().describe('Absences from a lesson, counted apart (present for the day)'),
  skipped: z.array(skippedRow),
})

const band = z.object({ key: z.string(), min: z.number().min(0).max(100) })
const percentGroup = z.object({ count, average: rate.nullable() })
const studentScore = z.object({ name: z.string(), score: z.number() })
const scoreFigures = {
  students: count,
  absent: count,
  total: z.number(),
  average: rate.nullable(),
  highest: z.number().nullable(),
  lowest: z.number().nullable(),
  median: z.number().nullable(),
  stdDev: rate.nullable(),
  passRate: rate.nullable(),
  bands: z.array(z.object({ key: z.string(), count, percentage: rate.nullable() })),
  top: percentGroup,
  weak: percentGroup,
  gap: rate.nullable(),
  highest5: z.array(studentScore),
  lowest5: z.array(studentScore),
}

const bandCount = z.object({ key: z.string(), count, percentage: rate.nullable() })

export const gradesAnalysis = z.object({
  ...analysisHead,
  kind: z.literal('grades'),
  recognised: gradesRecognised.optional().describe('Absent from analyses saved before Noor’s layouts were read'),
  bands: z.array(band),
  subjects: z.array(
    z.object({
      subject: z.string(),
      max: z.number().positive(),
      summary: z.object(scoreFigures),
      byClassroom: z.array(z.object({ grade: z.string(), classroom: z.string(), ...scoreFigures })),
    }),
  ),
  bandSubjects: z
    .array(
      z.object({
        subject: z.string(),
        summary: z.object({ students: count, bands: z.array(bandCount) }),
        byClassroom: z.array(z.object({ grade: z.string(), classroom: z.string(), students: count, bands: z.array(bandCount) })),
      }),
    )
    .optional()
    .describe('A band summary: students per band, no scores (then `subjects` is empty)'),
  skipped: z.array(skippedRow),
})

export const analysis = z.discriminatedUnion('kind', [absenceAnalysis, gradesAnalysis])

export const analysisSummary = z.object({
  ...analysisHead,
  kind: z.enum(['absence', 'grades']),
  headline: z.record(z.string(), z.union([z.number(), z.string(), z.null()])).describe('The list’s figures: attendance or average, counts, period'),
})

export const student = z.object({
  name: z.string(),
  studentId: z.string().nullable(),
  grade: z.string(),
  classroom: z.string(),
  section: z.string(),
  system: z.string(),
  ...counts,
  absenceRate: rate,
  warningLevel: z.int().min(0).max(3).describe('0 none; 1, 2, 3 from 3, 5, 10 unexcused days'),
  absences: z
    .array(z.object({ date: day, hijri: z.string(), weekday: z.int().min(0).max(6), type: z.enum(['excused', 'unexcused']) }))
    .optional()
    .describe('Daily records only: a totals file has no dates'),
})

/** The document's named schemas (components/schemas), each referenced by name where it is used. */
export const responseComponents = {
  Message: messageBody,
  Error: errorBody,
  ValidationError: validationErrorBody,
  AnalysisError: analysisErrorBody,
  User: user,
  PackageRef: packageRef,
  Package: packageJson,
  Subscription: subscription,
  Invoice: invoice,
  Question: question,
  Exam: exam,
  ExamSummary: examSummary,
  Image: image,
  Notification: notification,
  Review: review,
  AnalysisSummary: analysisSummary,
  AbsenceAnalysis: absenceAnalysis,
  GradesAnalysis: gradesAnalysis,
  Analysis: analysis,
  Student: student,
} satisfies Record<string, z.ZodType>

/** api.md's success: `{message, data}`. */
export const envelope = (data: z.ZodType = z.null()) => z.object({ message: z.string(), data })
