import { ladderDocuments, type LadderDocument } from '#app/features/follow-up/index.ts'
import { z } from '#app/lib/zod-mini.ts'

/**
 * Parent messages (issue 18): a template per escalation document and one for a same-day absence,
 * in Arabic and English, filled per student with {student} {classroom} {count} {dates} {school}
 * or their Arabic names (docs/parent-messages.md). Hallil only fills the text: the teacher copies
 * it or opens it in WhatsApp; nothing is sent from here. Pure, and written with zod/mini: the settings page sends
 * its schema to the browser.
 */

export const messageKinds = [...ladderDocuments, 'sameDay'] as const
export type MessageKind = LadderDocument | 'sameDay'

export const messageLangs = ['ar', 'en'] as const
export type MessageLang = (typeof messageLangs)[number]

/** Every template of a teacher: `templates.ar.firstWarning`. */
export type MessageTemplates = { readonly [L in MessageLang]: { readonly [K in MessageKind]: string } }

export const placeholders = ['student', 'classroom', 'count', 'dates', 'school'] as const
export type Placeholder = (typeof placeholders)[number]
export type PlaceholderValues = { readonly [P in Placeholder]: string }

/**
 * Each placeholder's Arabic name, which the Arabic templates use: Latin names inside an Arabic
 * sentence are laid out by the bidirectional algorithm in an order hard to edit, Arabic ones read
 * in place. Either name is filled in either language.
 */
export const arabicPlaceholders: { readonly [P in Placeholder]: string } = {
  student: 'اسم الطالب',
  classroom: 'الصف والفصل',
  count: 'عدد الأيام',
  dates: 'التواريخ',
  school: 'اسم المدرسة',
}

const placeholderOf = new Map<string, Placeholder>(
  placeholders.flatMap((p) => [
    [p, p],
    [arabicPlaceholders[p], p],
  ]),
)

/** The placeholder a name in braces stands for (`student` or `اسم الطالب`), or undefined. */
export const placeholderNamed = (name: string): Placeholder | undefined => placeholderOf.get(name)

/** The longest template a teacher may write (a WhatsApp message stays short). */
export const templateMaxLength = 1000

const snake = (kind: MessageKind) => kind.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

/** The form's (and the API body's) field of a template: `ar_first_warning`, `en_same_day`. */
export const templateField = (lang: MessageLang, kind: MessageKind) => `${lang}_${snake(kind)}`

/** Every field, Arabic first, in the ladder's order. */
export const templateFields = messageLangs.flatMap((lang) => messageKinds.map((kind) => templateField(lang, kind)))

const PLACEHOLDER = /\{([^{}]*)\}/g

/** The placeholders a template uses that Hallil does not fill (a typo such as `{name}`). */
export function unknownPlaceholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1] ?? '').filter((name) => placeholderNamed(name) === undefined)
}

/** A template with its placeholders filled; one it does not know is left as written. */
export function fillTemplate(template: string, values: PlaceholderValues): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    const placeholder = placeholderNamed(name)
    return placeholder ? values[placeholder] : whole
  })
}

/**
 * WhatsApp's link with the text (`https://wa.me/<number>?text=…`): to the guardian's number when
 * the file gave one (digits with the country code), else WhatsApp asks whom to send it to.
 */
export function whatsAppUrl(text: string, mobile?: string | null): string {
  const number = mobile && /^\d{8,15}$/.test(mobile) ? mobile : ''
  return `https://wa.me/${number}?text=${encodeURIComponent(text)}`
}

const templateText = z.pipe(
  z.string({ error: 'parent-messages.errors.required' }),
  z.pipe(
    z.transform((v: string) => v.replace(/\r\n?/g, '\n').trim()),
    z.string().check(
      z.minLength(1, 'parent-messages.errors.required'),
      z.maxLength(templateMaxLength, 'parent-messages.errors.tooLong'),
      z.refine((v: string) => unknownPlaceholders(v).length === 0, 'parent-messages.errors.placeholder'),
    ),
  ),
)

/** The twelve templates as the form and `PUT settings/message-templates` send them; every one required. */
export const messageTemplatesSchema = z.pipe(
  z.object(Object.fromEntries(templateFields.map((field) => [field, templateText])) as Record<string, typeof templateText>),
  z.transform((v: Record<string, string>): MessageTemplates => templatesFromFields(v)),
)

/** Templates from the fields' flat names. */
export function templatesFromFields(values: Record<string, string>): MessageTemplates {
  const side = (lang: MessageLang) =>
    Object.fromEntries(messageKinds.map((kind) => [kind, values[templateField(lang, kind)] ?? ''])) as Record<MessageKind, string>
  return { ar: side('ar'), en: side('en') }
}

/** Templates as the form and the API write them: one field each. */
export function templatesWire(templates: MessageTemplates): Record<string, string> {
  return Object.fromEntries(messageLangs.flatMap((lang) => messageKinds.map((kind) => [templateField(lang, kind), templates[lang][kind]])))
}
