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
