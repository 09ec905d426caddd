export * from './index.ts'
export {
  AUDIT_PAGE_SIZE,
  listOperatorActions,
  operatorActions,
  recordOperatorAction,
  type AuditDetail,
  type AuditEntry,
  type AuditTarget,
  type Operator,
  type OperatorAction,
  type RecordOperatorActionOptions,
} from './audit.server.ts'
export {
  isOperatorGateRefusal,
  operatorAccess,
  operatorAreaAccess,
  requireOperatorPage,
  type OperatorAccess,
  type OperatorGateRefusal,
} from './gate.server.ts'
export { setUserRole, type SetUserRoleOptions } from './roles.server.ts'
export { limitOperatorWrites, OPERATOR_WRITES_PER_HOUR, type LimitOperatorWritesOptions } from './limits.server.ts'
export * from './schemas.ts'
export {
  actOnTeacher,
  searchTeachers,
  TEACHER_SEARCH_LIMIT,
  type ActOnTeacherOptions,
  type SearchTeachersOptions,
  type TeacherRow,
} from './teachers.server.ts'
export {
  decideReviewAsOperator,
  listReviewsForOperators,
  type DecideReviewAsOperatorOptions,
  type ListReviewsOptions,
  type ReviewStatus,
} from './reviews.server.ts'
export {
  answerContactMessage,
  answerEmail,
  findContactMessage,
  listContactMessages,
  markMessageHandled,
  MESSAGES_PAGE_SIZE,
  type AnswerContactMessageOptions,
  type ContactMessage,
  type FindContactMessageOptions,
  type ListContactMessagesOptions,
  type MarkMessageHandledOptions,
} from './messages.server.ts'
export { operatorOf, operatorPageWrite, parseOperatorForm, type OperatorPageWriteOptions } from './page-write.server.ts'
export {
  adminAuditEntryToJson,
  adminAuditEntryWire,
  adminContactMessageToJson,
  adminContactMessageWire,
  adminPageWire,
  adminReviewToJson,
  adminReviewWire,
  adminTeacherToJson,
  adminTeacherWire,
} from './wire.server.ts'
export { operatorDashboard, type DayCount, type MonthRevenue, type OperatorDashboard } from './dashboard.server.ts'
export { createPackageByOperator, editPackageByOperator, refundPaymentByOperator, setPackageActiveByOperator } from './money.server.ts'
