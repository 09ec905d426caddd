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
export { operatorDashboard, type DayCount, type MonthRevenue, type OperatorDashboard } from './dashboard.server.ts'
export { createPackageByOperator, editPackageByOperator, refundPaymentByOperator, setPackageActiveByOperator } from './money.server.ts'
