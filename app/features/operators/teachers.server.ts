import { and, count, desc, eq, ilike, inArray, isNotNull, or, sql } from 'drizzle-orm'
import { removeSecondFactor } from '#app/features/accounts/index.server.ts'
import { isUuid } from '#app/lib/ids.ts'
import { DomainError } from '#app/lib/errors.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { loginChallenges, resetFlows, sessions, users } from '#app/platform/db/schema.ts'
import type { Logger } from '#app/platform/logger.server.ts'
import { recordOperatorAction, type Operator } from './audit.server.ts'
import type { TeacherAction } from './schemas.ts'

// Teachers' accounts as an operator sees them (docs/operators.md): found by email or name;
// deactivated (every session ended, sign-in refused) and reactivated; all sessions ended; the
// second factor turned off for a teacher who lost both the phone and the recovery codes.

export const TEACHER_SEARCH_LIMIT = 25

/** What the teachers page shows of an account: enough to recognise it, nothing of its work. */
export type TeacherRow = {
  id: string
  username: string
  email: string
  fullNameAr: string | null
  fullNameEn: string | null
  role: 'teacher' | 'operator'
  createdAt: Date
  isActivated: boolean
  deactivatedAt: Date | null
  hasTwoFactor: boolean
  sessions: number
}

export type SearchTeachersOptions = { db: Db; query: string; limit?: number }

/** Accounts whose email, username or full name contains the query (any case); the newest when the query is empty. */
export async function searchTeachers({ db, query, limit = TEACHER_SEARCH_LIMIT }: SearchTeachersOptions): Promise<TeacherRow[]> {
  const q = query.trim().slice(0, 100)
  // % and _ typed in the box are looked for as themselves.
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  const where = q
    ? or(ilike(users.email, pattern), ilike(users.username, pattern), ilike(users.fullNameAr, pattern), ilike(users.fullNameEn, pattern))
    : undefined
  const rows = await db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      fullNameAr: users.fullNameAr,
      fullNameEn: users.fullNameEn,
      role: users.role,
      createdAt: users.createdAt,
      emailVerifiedAt: users.emailVerifiedAt,
      deactivatedAt: users.deactivatedAt,
      totpEnabledAt: users.totpEnabledAt,
    })
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(limit)
  const ids = rows.map((r) => r.id)
  const live =
    ids.length === 0
      ? []
      : await db
          .select({ userId: sessions.userId, n: count() })
          .from(sessions)
          .where(and(inArray(sessions.userId, ids), sql`${sessions.expiresAt} > now()`))
          .groupBy(sessions.userId)
  const sessionsOf = new Map(live.map((r) => [r.userId, r.n]))
  return rows.map(({ emailVerifiedAt, totpEnabledAt, ...r }) => ({
    ...r,
    isActivated: Boolean(emailVerifiedAt),
    hasTwoFactor: Boolean(totpEnabledAt),
    sessions: sessionsOf.get(r.id) ?? 0,
  }))
}

export type ActOnTeacherOptions = { db: Db; logger: Logger; operator: Operator; userId: string; action: TeacherAction }

/**
 * One operator action on an account, written to the audit log in the same transaction. 404 for
 * an id that is no account; 409 for an operator acting on their own account (deactivating it or
 * ending its sessions would lock them out mid-action), and for an action with nothing to do
 * (deactivating a deactivated account, turning off a second factor that is off).
 */
export async function actOnTeacher({ db, logger, operator, userId, action }: ActOnTeacherOptions): Promise<void> {
  if (!isUuid(userId)) throw new DomainError(404, 'operators.errors.teacherNotFound')
  if (userId === operator.id) throw new DomainError(409, 'operators.errors.notOnYourself')
  const [target] = await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId)).limit(1)
  if (!target) throw new DomainError(404, 'operators.errors.teacherNotFound')

  if (action === 'two-factor-off') {
    // The accounts feature's own way (the CLI's too): the factor, its recovery codes and open challenges, and a notification.
    if (!(await removeSecondFactor({ db, logger, input: { email: target.email } })))
      throw new DomainError(409, 'operators.errors.nothingToDo')
    await recordOperatorAction({ db, operator, action: 'teacher.twoFactorOff', target: { type: 'user', id: target.id } })
    return
  }

  const ended = await db.transaction(async (tx) => {
    if (action === 'deactivate' || action === 'reactivate') {
      const isDeactivate = action === 'deactivate'
      const [changed] = await tx
        .update(users)
        .set({ deactivatedAt: isDeactivate ? new Date() : null, updatedAt: new Date() })
        .where(and(eq(users.id, target.id), isDeactivate ? sql`${users.deactivatedAt} is null` : isNotNull(users.deactivatedAt)))
        .returning({ id: users.id })
      if (!changed) throw new DomainError(409, 'operators.errors.nothingToDo')
    }
    let removed = 0
    if (action === 'deactivate' || action === 'end-sessions') {
      // Every way in that is already open: sessions and API tokens, a sign-in waiting for its code, a password reset under way.
      removed = (await tx.delete(sessions).where(eq(sessions.userId, target.id)).returning({ id: sessions.id })).length
      await tx.delete(loginChallenges).where(eq(loginChallenges.userId, target.id))
      if (action === 'deactivate') await tx.delete(resetFlows).where(eq(resetFlows.userId, target.id))
    }
    const audited = { deactivate: 'teacher.deactivate', reactivate: 'teacher.reactivate', 'end-sessions': 'teacher.endSessions' } as const
    await recordOperatorAction({
      db: tx,
      operator,
      action: audited[action],
      target: { type: 'user', id: target.id },
      detail: action === 'reactivate' ? {} : { sessionsEnded: removed },
    })
    return removed
  })
  logger.info({ event: `operator.teacher.${action}`, userId: target.id, operatorId: operator.id, sessionsEnded: ended }, 'operator action')
}
