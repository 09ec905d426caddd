import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core'
import { contactMessageTypes } from '../../lib/constants.ts'

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
  (t) => [
    check('packages_price_positive', sql`${t.priceHalalas} > 0`),
    check('packages_months_range', sql`${t.months} between 1 and 36`),
  ],
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
    createdAt: createdAt(),
  },
  (t) => [
    check(
      'contact_messages_type',
      sql`${t.type} in ('request', 'suggestion', 'inquiry', 'complaint', 'other')`,
    ),
    index('contact_messages_created_at').on(t.createdAt),
  ],
)

/** Fixed-window counters shared by every process (login, codes, uploads, contact form). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
})
