import { wireShape } from '#app/lib/wire.server.ts'
import { z } from '#app/lib/zod.ts'
import { templateFields } from './templates.ts'

/** GET and PUT settings/message-templates: every template by its field's name (`ar_first_warning`, `en_same_day`). */
export const messageTemplatesWire = wireShape(
  'ParentMessageTemplates',
  z
    .object(Object.fromEntries(templateFields.map((field) => [field, z.string()])) as Record<string, z.ZodString>)
    .describe(
      'The parent message templates, Arabic (`ar_…`) and English (`en_…`), per escalation document and for a same-day absence (`…_same_day`); placeholders {student} {classroom} {count} {dates} {school}, or in Arabic {اسم الطالب} {الصف والفصل} {عدد الأيام} {التواريخ} {اسم المدرسة}',
    ),
)
