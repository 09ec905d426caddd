import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { operatorAudit, users } from '#app/platform/db/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { subscribedTeacher } from '#tests/subscriber.ts'
import { listOperatorActions, recordOperatorAction } from './audit.server.ts'

// The audit log (docs/operators.md): written by one function, read newest first by pages, and
// append-only in the database itself.

const testDb = setupTestDatabase()

async function anOperator() {
  const user = await subscribedTeacher(testDb().db, { subscribed: false })
  await testDb().db.update(users).set({ role: 'operator' }).where(eq(users.id, user.id))
  return { id: user.id, email: user.email }
}

describe('recordOperatorAction', () => {
  it('keeps who, what, which record, when and the detail; the log reads newest first, a page at a time', async () => {
    const db = testDb().db
    const operator = await anOperator()
    for (let i = 1; i <= 5; i++)
      await recordOperatorAction({ db, operator, action: 'review.approve', target: { type: 'review', id: `r${i}` }, detail: { n: i } })
    const first = await listOperatorActions({ db, page: 1, pageSize: 2 })
    expect(first.total).toBe(5)
    expect(first.pages).toBe(3)
    expect(first.entries.map((e) => e.targetId)).toEqual(['r5', 'r4'])
    expect(first.entries[0]).toMatchObject({
      operatorId: operator.id,
      operatorEmail: operator.email,
      action: 'review.approve',
      targetType: 'review',
      detail: { n: 5 },
    })
    expect((await listOperatorActions({ db, page: 3, pageSize: 2 })).entries.map((e) => e.targetId)).toEqual(['r1'])
    // A page past the end shows the last one; a page that is not a number, the first.
    expect((await listOperatorActions({ db, page: 9, pageSize: 2 })).page).toBe(3)
    expect((await listOperatorActions({ db, page: Number.NaN, pageSize: 2 })).page).toBe(1)
  })
})

describe('the audit log in the database', () => {
  it('refuses to change or delete an entry', async () => {
    const db = testDb().db
    const operator = await anOperator()
    await recordOperatorAction({ db, operator, action: 'teacher.deactivate', target: { type: 'user', id: 'u1' } })
    const [row] = await db.select().from(operatorAudit).where(eq(operatorAudit.operatorId, operator.id))
    // The database's own refusal (the trigger's message), not any failure.
    const refusal = (error: unknown) => String((error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message)
    const attempts = [
      db.update(operatorAudit).set({ action: 'teacher.reactivate' }).where(eq(operatorAudit.id, row!.id)),
      db.update(operatorAudit).set({ operatorEmail: 'someone@else.sa' }).where(eq(operatorAudit.id, row!.id)),
      db.delete(operatorAudit).where(eq(operatorAudit.id, row!.id)),
      db.execute(sql`delete from operator_audit`),
    ]
    for (const attempt of attempts) await expect(attempt.then(() => 'done', refusal)).resolves.toContain('operator_audit is append-only')
    const [still] = await db.select().from(operatorAudit).where(eq(operatorAudit.id, row!.id))
    expect(still).toEqual(row)
  })

  it('outlives the operator’s account: the link is cleared, the email and the entry stay', async () => {
    const db = testDb().db
    const operator = await anOperator()
    await recordOperatorAction({ db, operator, action: 'message.answer', target: { type: 'contact_message', id: 'm1' } })
    await db.delete(users).where(eq(users.id, operator.id))
    const rows = await db.select().from(operatorAudit).where(eq(operatorAudit.operatorEmail, operator.email))
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ operatorId: null, action: 'message.answer', targetId: 'm1' })
  })
})
