import { wireCount, wireDateTime, wireId, wireShape, type Wire } from '#app/lib/wire.server.ts'
import { z } from '#app/lib/zod.ts'
import { contactMessageTypes } from '#app/lib/constants.ts'
import type { AuditEntry } from './audit.server.ts'
import type { ContactMessage } from './messages.server.ts'
import type { TeacherRow } from './teachers.server.ts'

// What /api/v1/admin answers (docs/operators.md), declared beside the functions that build it.

export const adminTeacherWire = wireShape(
  'AdminTeacher',
  z.object({
    id: wireId,
    username: z.string(),
    email: z.string(),
    full_name_ar: z.string().nullable(),
    full_name_en: z.string().nullable(),
    role: z.enum(['teacher', 'operator']),
    created_at: wireDateTime,
    is_activated: z.boolean(),
    deactivated_at: wireDateTime.nullable(),
    has_two_factor: z.boolean(),
    sessions: wireCount.describe('Open sessions and API tokens'),
  }),
)

export function adminTeacherToJson(row: TeacherRow): Wire<typeof adminTeacherWire> {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    full_name_ar: row.fullNameAr,
    full_name_en: row.fullNameEn,
    role: row.role,
    created_at: row.createdAt.toISOString(),
    is_activated: row.isActivated,
    deactivated_at: row.deactivatedAt?.toISOString() ?? null,
    has_two_factor: row.hasTwoFactor,
    sessions: row.sessions,
  }
}

export const adminReviewWire = wireShape(
  'AdminReview',
  z.object({ id: wireId, rating: z.int().min(1).max(5), comment: z.string(), username: z.string(), created_at: wireDateTime }),
)

export function adminReviewToJson(row: {
  id: string
  rating: number
  comment: string
  username: string
  createdAt: Date
}): Wire<typeof adminReviewWire> {
  return { id: row.id, rating: row.rating, comment: row.comment, username: row.username, created_at: row.createdAt.toISOString() }
}

export const adminContactMessageWire = wireShape(
  'AdminContactMessage',
  z.object({
    id: wireId,
    type: z.enum(contactMessageTypes),
    name: z.string(),
    email: z.string(),
    message: z.string(),
    lang: z.enum(['ar', 'en']),
    created_at: wireDateTime,
    handled_at: wireDateTime.nullable(),
    answer: z
      .object({ text: z.string(), answered_at: wireDateTime, answered_by: z.string().describe('The operator’s email at the time') })
      .nullable(),
  }),
)

export function adminContactMessageToJson(row: ContactMessage): Wire<typeof adminContactMessageWire> {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    email: row.email,
    message: row.message,
    lang: row.lang,
    created_at: row.createdAt.toISOString(),
    handled_at: row.handledAt?.toISOString() ?? null,
    answer: row.answeredAt
      ? { text: row.answerText ?? '', answered_at: row.answeredAt.toISOString(), answered_by: row.answeredByEmail ?? '' }
      : null,
  }
}

export const adminAuditEntryWire = wireShape(
  'AdminAuditEntry',
  z.object({
    id: wireId,
    at: wireDateTime,
    operator_id: wireId.nullable().describe('Null once the operator’s account is deleted'),
    operator_email: z.string(),
    action: z.string().describe('`area.verb`: teacher.deactivate, review.approve, message.answer…'),
    target_type: z.string(),
    target_id: z.string(),
    detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  }),
)

export function adminAuditEntryToJson(row: AuditEntry): Wire<typeof adminAuditEntryWire> {
  return {
    id: row.id,
    at: row.createdAt.toISOString(),
    operator_id: row.operatorId,
    operator_email: row.operatorEmail,
    action: row.action,
    target_type: row.targetType,
    target_id: row.targetId,
    detail: row.detail,
  }
}

export const adminPageWire = (what: string) =>
  z.object({ page: z.int().min(1), pages: z.int().min(1), total: wireCount.describe(`How many ${what} in all`) })
