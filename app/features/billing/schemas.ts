import { z } from '#app/lib/zod-mini.ts'

// The payment forms, shared by the checkout page's action and /api/v1/subscriptions. zod/mini,
// as every schema module that could reach the browser (the classic chained API drags zod's
// whole core into the chunk).

export const paymentMethodField = z.enum(['mada', 'creditcard', 'applepay', 'stcpay'], { error: 'billing.errors.method' })

export const checkoutSchema = z.object({ method: paymentMethodField })

/** POST /api/v1/subscriptions */
export const subscribeSchema = z.object({
  // `z.int` as a check on the coerced number (as the chained `.int()` does): `integer` in the OpenAPI document.
  package_id: z.coerce
    .number({ error: 'billing.errors.packageNotFound' })
    .check(z.int('billing.errors.packageNotFound'), z.positive('billing.errors.packageNotFound')),
  method: paymentMethodField,
})

// The operator area's package form, shared by its page and POST/PATCH /api/v1/admin/packages.
// Money as everywhere: integer halalas (2900 = SAR 29.00), excluding VAT.
const text = (max: number, key: string) => z.string().check(z.trim(), z.minLength(1, key), z.maxLength(max, key))
const wholeNumber = (min: number, max: number, key: string) =>
  z.coerce.number({ error: key }).check(z.int(key), z.gte(min, key), z.lte(max, key))
/** A checkbox: present ("on", "true", "1") or absent; JSON booleans too. */
const checkbox = z.pipe(
  z.optional(z.union([z.boolean(), z.string()])),
  z.transform((value) => value === true || value === 'on' || value === 'true' || value === '1'),
)

export const packageFormSchema = z.object({
  slug: z.string().check(z.trim(), z.regex(/^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/, 'billing.admin.errors.slug')),
  name_ar: text(80, 'billing.admin.errors.name'),
  name_en: text(80, 'billing.admin.errors.name'),
  description_ar: z._default(z.string().check(z.trim(), z.maxLength(500, 'billing.admin.errors.description')), ''),
  description_en: z._default(z.string().check(z.trim(), z.maxLength(500, 'billing.admin.errors.description')), ''),
  price: wholeNumber(100, 10_000_000, 'billing.admin.errors.price'),
  months: wholeNumber(1, 36, 'billing.admin.errors.months'),
  sort_order: z._default(wholeNumber(0, 1000, 'billing.admin.errors.sortOrder'), 0),
  is_best_seller: checkbox,
})

export const refundSchema = z.object({
  /** The operator ticks that the money goes back and the subscription ends (the confirmation step). */
  confirm: z.literal('yes', 'billing.admin.errors.confirm'),
})
