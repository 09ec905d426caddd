import { z } from '#app/lib/zod.ts'
import { contactMessageTypes } from '#app/lib/constants.ts'

// Shared by the contact page (instant feedback), its action and POST /api/v1/contact.
// Messages are translation keys, translated where the error is shown.

export const contactSchema = z.object({
  type: z.enum(contactMessageTypes, { error: 'contact.errors.type' }),
  name: z
    .string({ error: 'contact.errors.nameRequired' })
    .trim()
    .min(1, 'contact.errors.nameRequired')
    .max(100, 'contact.errors.nameTooLong'),
  email: z
    .string({ error: 'common.validation.emailRequired' })
    .trim()
    .min(1, 'common.validation.emailRequired')
    .max(254, 'common.validation.email')
    .pipe(z.email('common.validation.email')),
  message: z
    .string({ error: 'contact.errors.messageRequired' })
    .trim()
    .min(1, 'contact.errors.messageRequired')
    .min(10, 'contact.errors.messageTooShort')
    .max(5000, 'contact.errors.messageTooLong'),
})

export type ContactInput = z.infer<typeof contactSchema>
