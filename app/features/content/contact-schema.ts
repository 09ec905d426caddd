import { plainText } from '#app/lib/plain-text.ts'
import { required } from '#app/lib/required.ts'
import { z } from '#app/lib/zod-mini.ts'
import { contactMessageTypes } from '#app/lib/constants.ts'

// Shared by the contact page (instant feedback), its action and POST /api/v1/contact.
// Messages are translation keys, translated where the error is shown. zod/mini: the page sends
// it to the browser.

export const contactSchema = z.object({
  type: z.enum(contactMessageTypes, { error: 'contact.errors.type' }),
  name: z
    .string({ error: 'contact.errors.nameRequired' })
    .check(plainText(), z.trim(), required('contact.errors.nameRequired'), z.maxLength(100, 'contact.errors.nameTooLong')),
  email: z.pipe(
    z
      .string({ error: 'common.validation.emailRequired' })
      .check(plainText(), z.trim(), required('common.validation.emailRequired'), z.maxLength(254, 'common.validation.email')),
    z.email('common.validation.email'),
  ),
  message: z
    .string({ error: 'contact.errors.messageRequired' })
    .check(
      plainText(),
      z.trim(),
      required('contact.errors.messageRequired'),
      z.minLength(10, 'contact.errors.messageTooShort'),
      z.maxLength(5000, 'contact.errors.messageTooLong'),
    ),
})

export type ContactInput = z.infer<typeof contactSchema>
