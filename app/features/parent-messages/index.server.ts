export { defaultTemplates, messageTemplatesOf, restoreMessageTemplates, saveMessageTemplates } from './store.server.ts'
export { studentsMessages, teacherLadder, type StudentsMessagesOptions } from './messages.server.ts'
export { messageTemplatesWire } from './wire.server.ts'
