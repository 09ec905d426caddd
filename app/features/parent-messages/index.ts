// Parent messages (issue 18): templates per escalation document and for a same-day absence, filled
// per student, copied or opened in WhatsApp by the teacher (docs/parent-messages.md).
export {
  fillTemplate,
  messageKinds,
  messageLangs,
  messageTemplatesSchema,
  placeholders,
  templateField,
  templateFields,
  templateMaxLength,
  templatesFromFields,
  templatesWire,
  unknownPlaceholders,
  whatsAppUrl,
  type MessageKind,
  type MessageLang,
  type MessageTemplates,
} from './templates.ts'
export { datesInMessage, studentMessages, type MessageStudent, type ParentMessage } from './student-messages.ts'
export { ParentMessageCard, ParentMessages } from './message-card.tsx'
export { MessageTemplatesForm } from './templates-form.tsx'
