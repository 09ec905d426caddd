import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { contactMessageTypes, type SchoolStudents } from '../../lib/constants.ts'

// One schema for PGlite and PostgreSQL. Money is integer halalas, time is UTC.

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow()

export const packages = pgTable(
  'packages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    slug: text('slug').notNull().unique(),
    nameAr: text('name_ar').notNull(),
    nameEn: text('name_en').notNull(),
    descriptionAr: text('description_ar').notNull().default(''),
    descriptionEn: text('description_en').notNull().default(''),
    priceHalalas: integer('price_halalas').notNull(),
    months: integer('months').notNull(),
    isBestSeller: boolean('is_best_seller').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check('packages_price_positive', sql`${t.priceHalalas} > 0`), check('packages_months_range', sql`${t.months} between 1 and 36`)],
)

export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    type: text('type', { enum: contactMessageTypes }).notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    message: text('message').notNull(),
    lang: text('lang', { enum: ['ar', 'en'] }).notNull(),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    /** The operator who marked it handled (null once that account is deleted). */
    handledBy: uuid('handled_by').references(() => users.id, { onDelete: 'set null' }),
    /** The answer mailed from the operator area, as sent (docs/operators.md). */
    answerText: text('answer_text'),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    answeredBy: uuid('answered_by').references(() => users.id, { onDelete: 'set null' }),
    /** The sender's email at the time: kept when the operator's account goes. */
    answeredByEmail: text('answered_by_email'),
    createdAt: createdAt(),
  },
  (t) => [
    check('contact_messages_type', sql`${t.type} in ('request', 'suggestion', 'inquiry', 'complaint', 'other')`),
    index('contact_messages_created_at').on(t.createdAt),
  ],
)

/** Fixed-window counters shared by every process (login, codes, uploads, contact form). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
})

// Accounts. Emails are stored lower-case; usernames are unique without regard to case.

/** Teachers use the tools; operators also open the operator area (docs/operators.md). */
export const userRoles = ['teacher', 'operator'] as const
export type UserRole = (typeof userRoles)[number]
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    passwordHash: text('password_hash').notNull(),
    avatarFile: text('avatar_file'),
    /** The name printed on documents and invoices and used in greetings; the username stays for signing in. */
    fullNameAr: text('full_name_ar'),
    /** The name in Latin letters, for the English side of a document; optional. */
    fullNameEn: text('full_name_en'),
    /** When the teacher was asked for her full name (given or skipped), so she is asked once. */
    fullNameAskedAt: timestamp('full_name_asked_at', { withTimezone: true }),
    lang: text('lang', { enum: ['ar', 'en'] })
      .notNull()
      .default('ar'),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** The authenticator key of the optional second factor, sealed with the server's secret; set from the start of enrolment. */
    totpSecret: text('totp_secret'),
    /** Set once a code from the app confirmed the enrolment: from then on, sign-in asks for a code. */
    totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true }),
    /** The time step of the last code accepted, so a code works only once. */
    totpLastStep: integer('totp_last_step'),
    /** Granted and revoked with `npm run admin -- users:grant-operator|users:revoke-operator <email>`. */
    role: text('role', { enum: userRoles }).notNull().default('teacher'),
    /** Set by an operator: the account cannot sign in and its sessions are gone until reactivated. */
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('users_role', sql`${t.role} in ('teacher', 'operator')`),
    uniqueIndex('users_email_unique').on(t.email),
    uniqueIndex('users_username_lower_unique').on(sql`lower(${t.username})`),
  ],
)

export const sessionKinds = ['web', 'api'] as const

/** Web sessions (cookie) and API tokens (bearer): only the HMAC of the secret is stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: sessionKinds }).notNull(),
    /** A short description of the device ("Chrome on Android"), never the full user agent or the IP. */
    device: text('device').notNull().default(''),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user').on(t.userId)],
)

export const codePurposes = ['activation', 'reset', 'change_email', 'change_password'] as const
export type CodePurpose = (typeof codePurposes)[number]

/** Six-digit codes sent by email, stored as an HMAC with their purpose and target address. */
export const oneTimeCodes = pgTable(
  'one_time_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: codePurposes }).notNull(),
    codeHash: text('code_hash').notNull(),
    targetEmail: text('target_email').notNull(),
    /** What the code confirms, e.g. the new password's hash for a password change. */
    payload: jsonb('payload').$type<Record<string, string>>(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('one_time_codes_user_purpose').on(t.userId, t.purpose, t.createdAt)],
)

/** The password-reset flow's temporary token (one hour); userId is null for an unknown email. */
export const resetFlows = pgTable('reset_flows', {
  id: uuid('id').primaryKey().defaultRandom(),
  tokenHash: text('token_hash').notNull().unique(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
  stage: text('stage', { enum: ['code_sent', 'verified'] }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
})

/** The one-use recovery codes of a second factor, as HMACs; replaced when the factor is set up again. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull().unique(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('recovery_codes_user').on(t.userId)],
)

/** A sign-in waiting for its second factor: the password was right; a code from the app finishes it. */
export const loginChallenges = pgTable(
  'login_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('login_challenges_user').on(t.userId)],
)

/** Notifications store a kind and its parameters; the text is written in the reader's language. */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    params: jsonb('params').$type<Record<string, string | number>>().notNull().default({}),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('notifications_user_created').on(t.userId, t.createdAt)],
)

export const reviewStatuses = ['pending', 'approved', 'rejected'] as const

export const reviews = pgTable(
  'reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rating: integer('rating').notNull(),
    comment: text('comment').notNull(),
    status: text('status', { enum: reviewStatuses }).notNull().default('pending'),
    createdAt: createdAt(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [check('reviews_rating_range', sql`${t.rating} between 1 and 5`), index('reviews_status_created').on(t.status, t.createdAt)],
)

// Billing. Amounts in halalas; invoices are append-only with a gap-free serial per seller.

export const paymentMethods = ['mada', 'creditcard', 'applepay', 'stcpay'] as const
/** refunded: paid, then its full amount given back through the gateway (docs/billing.md, "Refunds"). */
export const paymentStatuses = ['initiated', 'paid', 'failed', 'refunded'] as const

export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Payments are financial records: they outlive a deleted account, without its identity. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    packageId: integer('package_id')
      .notNull()
      .references(() => packages.id),
    gateway: text('gateway', { enum: ['sandbox', 'moyasar'] }).notNull(),
    gatewayPaymentId: text('gateway_payment_id'),
    method: text('method', { enum: paymentMethods }).notNull(),
    /** Sent to the gateway as its idempotency key (Moyasar's given_id). */
    idempotencyKey: uuid('idempotency_key').notNull().unique().defaultRandom(),
    price: integer('price').notNull(),
    vatRateBp: integer('vat_rate_bp').notNull(),
    vat: integer('vat').notNull(),
    total: integer('total').notNull(),
    currency: text('currency').notNull().default('SAR'),
    status: text('status', { enum: paymentStatuses }).notNull().default('initiated'),
    failureReason: text('failure_reason'),
    createdAt: createdAt(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    /** When the gateway confirmed the refund; the credit note is issued in the same transaction. */
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payments_gateway_id_unique').on(t.gateway, t.gatewayPaymentId),
    index('payments_user').on(t.userId, t.createdAt),
    index('payments_status').on(t.status),
  ],
)

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    packageId: integer('package_id')
      .notNull()
      .references(() => packages.id),
    /** One paid payment starts exactly one subscription. */
    paymentId: uuid('payment_id')
      .notNull()
      .unique()
      .references(() => payments.id),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    /** When the "ends in 7 days" and "ended" notifications went out (each once). */
    endingNotifiedAt: timestamp('ending_notified_at', { withTimezone: true }),
    endedNotifiedAt: timestamp('ended_notified_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('subscriptions_user_ends').on(t.userId, t.endsAt)],
)

/** The serial counter: one row per seller, locked in the invoice's transaction. */
export const invoiceCounters = pgTable('invoice_counters', {
  seller: text('seller').primaryKey(),
  lastSerial: integer('last_serial').notNull().default(0),
})

/**
 * Tax invoices: never updated or deleted (a trigger refuses it). They keep their own copy of
 * every printed field, and outlive the account (user_id is set null when it is deleted).
 */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    serial: text('serial').notNull().unique(),
    seller: text('seller').notNull(),
    paymentId: uuid('payment_id')
      .notNull()
      .unique()
      .references(() => payments.id, { onDelete: 'restrict' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    sellerNameAr: text('seller_name_ar').notNull(),
    sellerNameEn: text('seller_name_en').notNull(),
    sellerAddressAr: text('seller_address_ar').notNull(),
    sellerAddressEn: text('seller_address_en').notNull(),
    sellerVatNumber: text('seller_vat_number').notNull(),
    /** The account's username at issue; printed when the invoice's language has no full name. */
    customerName: text('customer_name').notNull(),
    /** The account's full names at issue (null: none given, or issued before full names). */
    customerNameAr: text('customer_name_ar'),
    customerNameEn: text('customer_name_en'),
    packageNameAr: text('package_name_ar').notNull(),
    packageNameEn: text('package_name_en').notNull(),
    months: integer('months').notNull(),
    price: integer('price').notNull(),
    vatRateBp: integer('vat_rate_bp').notNull(),
    vat: integer('vat').notNull(),
    total: integer('total').notNull(),
    paymentMethod: text('payment_method', { enum: paymentMethods }).notNull(),
    qr: text('qr').notNull(),
  },
  (t) => [index('invoices_user').on(t.userId, t.issuedAt)],
)

/** The credit notes' serial counter: one row per seller, apart from the invoices' (CN- serials). */
export const creditNoteCounters = pgTable('credit_note_counters', {
  seller: text('seller').primaryKey(),
  lastSerial: integer('last_serial').notNull().default(0),
})

/**
 * Credit notes: the refund of a paid payment, issued with its own gap-free serial and referring
 * to the invoice it reverses (which stays as it was). Append-only like invoices (a trigger); the
 * amounts are the invoice's, negated (docs/billing.md, "Refunds and credit notes").
 */
export const creditNotes = pgTable(
  'credit_notes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    serial: text('serial').notNull().unique(),
    seller: text('seller').notNull(),
    /** One credit note per invoice: a refund is of the whole payment, once. */
    invoiceId: uuid('invoice_id')
      .notNull()
      .unique()
      .references(() => invoices.id, { onDelete: 'restrict' }),
    invoiceSerial: text('invoice_serial').notNull(),
    paymentId: uuid('payment_id')
      .notNull()
      .unique()
      .references(() => payments.id, { onDelete: 'restrict' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    sellerNameAr: text('seller_name_ar').notNull(),
    sellerNameEn: text('seller_name_en').notNull(),
    sellerAddressAr: text('seller_address_ar').notNull(),
    sellerAddressEn: text('seller_address_en').notNull(),
    sellerVatNumber: text('seller_vat_number').notNull(),
    customerName: text('customer_name').notNull(),
    customerNameAr: text('customer_name_ar'),
    customerNameEn: text('customer_name_en'),
    packageNameAr: text('package_name_ar').notNull(),
    packageNameEn: text('package_name_en').notNull(),
    months: integer('months').notNull(),
    /** Halalas, negative: minus the invoice's price, VAT and total. */
    price: integer('price').notNull(),
    vatRateBp: integer('vat_rate_bp').notNull(),
    vat: integer('vat').notNull(),
    total: integer('total').notNull(),
    paymentMethod: text('payment_method', { enum: paymentMethods }).notNull(),
    /** The gateway's own reference for the refund, when it gives one (support looks it up there). */
    gatewayRefundId: text('gateway_refund_id'),
    qr: text('qr').notNull(),
  },
  (t) => [
    index('credit_notes_user').on(t.userId, t.issuedAt),
    check('credit_notes_negative', sql`${t.price} <= 0 AND ${t.vat} <= 0 AND ${t.total} = ${t.price} + ${t.vat}`),
  ],
)

/**
 * The built-in sandbox gateway's own ledger: it behaves like a remote gateway, so it keeps its
 * payments apart from ours (and in the database, so every process sees them).
 */
export const sandboxPayments = pgTable('sandbox_payments', {
  id: text('id').primaryKey(),
  givenId: text('given_id').notNull().unique(),
  amount: integer('amount').notNull(),
  currency: text('currency').notNull(),
  description: text('description').notNull(),
  callbackUrl: text('callback_url').notNull(),
  metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
  status: text('status', { enum: ['initiated', 'awaiting_3ds', 'paid', 'failed', 'refunded'] })
    .notNull()
    .default('initiated'),
  cardLast4: text('card_last4'),
  message: text('message'),
  /** Halalas given back, and when (a refund is of the whole amount). */
  refundedAmount: integer('refunded_amount').notNull().default(0),
  refundedAt: timestamp('refunded_at', { withTimezone: true }),
  createdAt: createdAt(),
})

export const analysisKinds = ['absence', 'grades'] as const
export type AnalysisKind = (typeof analysisKinds)[number]

/**
 * A teacher's saved analysis: what the uploaded workbook said (the title block), the computed
 * report, and the records the report's pages and exports need (per student), in one row each,
 * never the uploaded file. Deleted with the teacher's account.
 */
export const analyses = pgTable(
  'analyses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: analysisKinds }).notNull(),
    title: text('title').notNull(),
    /** The title block and sheet: school, period, term, subject… as the workbook wrote them. */
    meta: jsonb('meta').$type<Record<string, string>>().notNull().default({}),
    /** Figures the list shows without reading the report: overall rate, records, students. */
    headline: jsonb('headline').$type<Record<string, number | string | null>>().notNull().default({}),
    report: jsonb('report').$type<unknown>().notNull(),
    /** What the kind keeps beside its entries (or, for analyses stored before entries, every record). */
    records: jsonb('records').$type<unknown>().notNull(),
    /**
     * False while its entries are being written (in batches, outside one long transaction): an
     * unfinished analysis is never listed or read, and one left by a crash is swept away.
     */
    complete: boolean('complete').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('analyses_user_created').on(t.userId, t.createdAt),
    check('analyses_title_length', sql`char_length(${t.title}) between 1 and 200`),
  ],
)

/**
 * An analysis' records one row each (a student's figures; a totals file's rows as read), so a
 * page reads only what it shows: a search by the normalised name's first words (prefix index),
 * the students with a warning, or, for an export, all of them in order. `part` tells a kind's
 * lists apart; `position` keeps each list's order. Deleted with the analysis.
 */
export const analysisEntries = pgTable(
  'analysis_entries',
  {
    analysisId: uuid('analysis_id')
      .notNull()
      .references(() => analyses.id, { onDelete: 'cascade' }),
    part: integer('part').notNull(),
    position: integer('position').notNull(),
    /** The name's words normalised (search-students.ts), lower case, one space apart. */
    nameKey: text('name_key'),
    warningLevel: integer('warning_level'),
    data: jsonb('data').$type<unknown>().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.analysisId, t.part, t.position] }),
    index('analysis_entries_name').on(t.analysisId, t.part, t.nameKey.op('text_pattern_ops')),
  ],
)

/**
 * A teacher's settings of the absence analysis (issue 18): the tier boundaries, in hundredths
 * of a percent (500 = 5%), so a share is compared in whole numbers. No row: the defaults (5, 10,
 * 20). The escalation ladder and the school's details will sit beside them. Deleted with the
 * teacher's account.
 */
export const absenceSettings = pgTable(
  'absence_settings',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    tierAtRisk: integer('tier_at_risk').notNull(),
    tierChronic: integer('tier_chronic').notNull(),
    tierSevere: integer('tier_severe').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      'absence_settings_tiers_ascending',
      sql`0 < ${t.tierAtRisk} and ${t.tierAtRisk} < ${t.tierChronic} and ${t.tierChronic} < ${t.tierSevere} and ${t.tierSevere} <= 10000`,
    ),
  ],
)

/**
 * A teacher's escalation ladder (issue 18, docs/follow-up.md): the steps on unexcused days, each
 * with its document, as typed JSON checked by `ladderProblem` before every write. No row: the
 * standard preset. Deleted with the teacher's account.
 */
export const followUpLadders = pgTable('follow_up_ladders', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  steps: jsonb('steps').$type<readonly { days: number; name: string | null; document: string }[]>().notNull(),
  updatedAt: updatedAt(),
})

export const followUpStatuses = ['awaiting', 'signed', 'declined'] as const

/**
 * The follow-up register (docs/follow-up.md): the documents a teacher issued, one per student,
 * school year and step. It keeps its own copy of who the student was and what was issued, so
 * deleting an analysis never loses an entry; `studentKey` matches it to the students of later
 * analyses. Deleted with the teacher's account.
 */
export const followUpRegister = pgTable(
  'follow_up_register',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The Gregorian year the school year starts in (2025 for 2025–2026). */
    schoolYear: integer('school_year').notNull(),
    studentKey: text('student_key').notNull(),
    studentName: text('student_name').notNull(),
    studentId: text('student_id'),
    grade: text('grade').notNull(),
    classroom: text('classroom').notNull(),
    /** The step's position on the ladder when issued (1 = first), its days, name and document. */
    step: integer('step').notNull(),
    stepDays: integer('step_days').notNull(),
    stepName: text('step_name'),
    document: text('document').notNull(),
    /** Unexcused days when the document was issued. */
    unexcused: integer('unexcused').notNull(),
    issuedOn: date('issued_on', { mode: 'string' }).notNull(),
    issuedBy: text('issued_by').notNull(),
    status: text('status', { enum: followUpStatuses }).notNull().default('awaiting'),
    notes: text('notes').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('follow_up_register_step').on(t.userId, t.schoolYear, t.studentKey, t.step),
    check('follow_up_register_step_range', sql`${t.step} between 1 and 8`),
    check('follow_up_register_texts', sql`char_length(${t.issuedBy}) between 1 and 120 and char_length(${t.notes}) <= 1000`),
  ],
)

/**
 * A teacher's parent messages (issue 18): the templates per escalation document and for a
 * same-day absence, in Arabic and English (`{ ar: { firstWarning: '…', … }, en: { … } }`, checked
 * by the parent-messages feature's schema before every write). No row: the default templates of
 * the locale files. Deleted with the teacher's account.
 */
export const parentMessageTemplates = pgTable('parent_message_templates', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  templates: jsonb('templates').$type<Record<string, Record<string, string>>>().notNull(),
  updatedAt: updatedAt(),
})

/**
 * The school a teacher works in, as every follow-up document prints it (issue 18): the school's
 * name, its education office, the principal's and the student counsellor's names, and an optional
 * logo (a key in the file store, like the profile picture), and whether the school is for boys or
 * for girls (Saudi schools are one or the other; the letters' wording follows). One row per
 * teacher, none until she fills them in; deleted with her account (the logo's file by deleteAccount).
 */
export const schoolDetails = pgTable(
  'school_details',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    schoolName: text('school_name').notNull(),
    educationOffice: text('education_office'),
    principalName: text('principal_name'),
    counsellorName: text('counsellor_name'),
    logoFile: text('logo_file'),
    students: text('students').$type<SchoolStudents>().notNull().default('boys'),
    updatedAt: updatedAt(),
  },
  (t) => [check('school_details_students', sql`${t.students} in ('boys', 'girls')`)],
)

/**
 * A teacher's paper test: the header fields, and the questions as typed JSON (docs/api.md's shapes,
 * validated by the exams feature's schema before every write). The count and total are kept
 * beside them for the list. Deleted with the teacher's account.
 */
export const exams = pgTable(
  'exams',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    schoolName: text('school_name').notNull().default(''),
    subject: text('subject').notNull().default(''),
    grade: text('grade').notNull().default(''),
    /** The Gregorian day of the test (`YYYY-MM-DD`); the print adds the Umm al-Qura date. */
    date: date('date', { mode: 'string' }),
    durationMinutes: integer('duration_minutes'),
    info: text('info').notNull().default(''),
    showStudentName: boolean('show_student_name').notNull().default(true),
    questions: jsonb('questions').$type<unknown[]>().notNull().default([]),
    questionCount: integer('question_count').notNull().default(0),
    /** Quarter marks at the finest, so the sum is exact in a double. */
    totalMarks: doublePrecision('total_marks').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('exams_user_created').on(t.userId, t.createdAt),
    check('exams_title_length', sql`char_length(${t.title}) between 1 and 200`),
  ],
)

/**
 * Question images: re-encoded uploads in the file store (`fileKey`), owned by the teacher who
 * uploaded them, removed once no test of theirs uses them.
 */
export const examImages = pgTable(
  'exam_images',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fileKey: text('file_key').notNull().unique(),
    contentType: text('content_type', { enum: ['image/png', 'image/jpeg'] }).notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: integer('bytes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('exam_images_user_created').on(t.userId, t.createdAt)],
)

/** A column of raw bytes; node-postgres and PGlite both hand it back as bytes. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' })

/**
 * The file store on PostgreSQL (app/platform/files.server.ts): chosen when DATABASE_URL is set and
 * FILE_STORE_URL is not, so every process on the database sees every stored picture.
 */
export const storedFiles = pgTable('stored_files', {
  key: text('key').primaryKey(),
  bytes: bytea('bytes').notNull(),
  size: integer('size').notNull(),
  /** Hex SHA-256 of the bytes, checked by `files:migrate`. */
  sha256: text('sha256').notNull(),
  createdAt: createdAt(),
})

/**
 * What operators did (docs/operators.md): append-only (a trigger refuses UPDATE and DELETE, except
 * clearing operator_id when that account is deleted), kept like invoices. The operator's email
 * at the time stays; `detail` holds no student data.
 */
export const operatorAudit = pgTable(
  'operator_audit',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The order of writing, for "newest first" (two entries may share a timestamp). */
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    operatorId: uuid('operator_id').references(() => users.id, { onDelete: 'set null' }),
    operatorEmail: text('operator_email').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    detail: jsonb('detail').$type<Record<string, string | number | boolean | null>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('operator_audit_seq').on(t.seq), index('operator_audit_target').on(t.targetType, t.targetId)],
)
