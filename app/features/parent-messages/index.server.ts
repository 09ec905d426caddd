export { defaultTemplates, messageTemplatesOf, restoreMessageTemplates, saveMessageTemplates } from './store.server.ts'
export {
  stepMessages,
  stepMessagesLimit,
  studentsMessages,
  type StepMessagesOptions,
  type StudentsMessagesOptions,
} from './messages.server.ts'
export { messageTemplatesWire } from './wire.server.ts'
