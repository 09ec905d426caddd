import { z } from '#app/lib/zod.ts'

export const paymentMethodField = z.enum(['mada', 'creditcard', 'applepay', 'stcpay'], { error: 'billing.errors.method' })

export const checkoutSchema = z.object({ method: paymentMethodField })

/** POST /api/v1/subscriptions */
export const subscribeSchema = z.object({
  package_id: z.coerce.number({ error: 'billing.errors.packageNotFound' }).int('billing.errors.packageNotFound').positive('billing.errors.packageNotFound'),
  method: paymentMethodField,
})
