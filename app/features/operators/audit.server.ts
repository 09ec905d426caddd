import { count, desc } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { operatorAudit } from '#app/platform/db/schema.ts'

// The operators' audit log (docs/operators.md): one row per action, written by
// `recordOperatorAction` in the same transaction as the action where there is one. Append-only:
// this file has no update or delete, and the database refuses both (migration 0014_operators's trigger).

/** Who acted: the operator's account and its email at the time (kept when the account is deleted). */
export type Operator = { id: string; email: string }

/**
 * Every action an operator can take, as `area.verb`. The audit page names each from
 * `operators.audit.actions.<area>.<verb>` (both languages); a new action adds its key here and there.
 */
export const operatorActions = [
  'teacher.deactivate',
  'teacher.reactivate',
  'teacher.endSessions',
  'teacher.twoFactorOff',
  'review.approve',
  'review.reject',
  'message.handle',
  'message.answer',
  'payment.refund',
  'package.create',
  'package.edit',
  'package.deactivate',
  'package.reactivate',
] as const
export type OperatorAction = (typeof operatorActions)[number] | (string & {})

/** The record acted on: its kind (`user`, `review`, `contact_message`, `payment`, `package`…) and id. */
export type AuditTarget = { type: string; id: string }

/** A few facts worth keeping with the action (a status, an amount, a serial): never student data, never free text from a teacher. */
export type AuditDetail = Record<string, string | number | boolean | null>

export type RecordOperatorActionOptions = {
  /** The database or the action's own transaction. */
  db: Db
  operator: Operator
  action: OperatorAction
  target: AuditTarget
  detail?: AuditDetail
}

export async function recordOperatorAction({ db, operator, action, target, detail = {} }: RecordOperatorActionOptions): Promise<void> {
  await db.insert(operatorAudit).values({
    operatorId: operator.id,
    operatorEmail: operator.email,
    action,
    targetType: target.type,
    targetId: target.id,
    detail,
  })
}

export const AUDIT_PAGE_SIZE = 50

export type ListOperatorActionsOptions = { db: Db; page: number; pageSize?: number }

export type AuditEntry = typeof operatorAudit.$inferSelect

/** One page of the log, newest first, and how many pages there are. */
export async function listOperatorActions({ db, page, pageSize = AUDIT_PAGE_SIZE }: ListOperatorActionsOptions) {
  const [total] = await db.select({ n: count() }).from(operatorAudit)
  const pages = Math.max(1, Math.ceil((total?.n ?? 0) / pageSize))
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages)
  const entries: AuditEntry[] = await db
    .select()
    .from(operatorAudit)
    .orderBy(desc(operatorAudit.seq))
    .limit(pageSize)
    .offset((current - 1) * pageSize)
  return { entries, page: current, pages, total: total?.n ?? 0 }
}
