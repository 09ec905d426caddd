import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { users } from '#app/platform/db/schema.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { subscribedTeacher } from '#tests/subscriber.ts'
import { operatorRoleCommand } from './admin-users.ts'

// `npm run admin -- users:grant-operator|users:revoke-operator <email>`: what it changes, prints and exits with.

const testDb = setupTestDatabase()
let printed: string[] = []
beforeEach(() => {
  printed = []
  vi.spyOn(console, 'info').mockImplementation((line: string) => void printed.push(line))
  vi.spyOn(console, 'error').mockImplementation((line: string) => void printed.push(line))
})
afterEach(() => vi.restoreAllMocks())

const roleOf = async (id: string) => (await testDb().db.select({ role: users.role }).from(users).where(eq(users.id, id)))[0]?.role

describe('users:grant-operator and users:revoke-operator', () => {
  it('make a teacher an operator (whatever the case of the email typed) and a teacher again', async () => {
    const db = testDb().db
    const teacher = await subscribedTeacher(db, { subscribed: false })
    expect(await roleOf(teacher.id)).toBe('teacher')

    expect(await operatorRoleCommand({ db, command: 'users:grant-operator', email: ` ${teacher.email.toUpperCase()} ` })).toBe(0)
    expect(await roleOf(teacher.id)).toBe('operator')
    expect(printed.at(-1)).toMatch(/opens once it turns on two-step verification/)

    await db.update(users).set({ totpEnabledAt: new Date() }).where(eq(users.id, teacher.id))
    expect(await operatorRoleCommand({ db, command: 'users:grant-operator', email: teacher.email })).toBe(0)
    expect(printed.at(-1)).toMatch(/\/ar\/admin/)

    expect(await operatorRoleCommand({ db, command: 'users:revoke-operator', email: teacher.email })).toBe(0)
    expect(await roleOf(teacher.id)).toBe('teacher')
    expect(printed.at(-1)).toMatch(/teacher again/)
  })

  it('say so and exit 1 for an email with no account, changing nobody', async () => {
    const db = testDb().db
    const bystander = await subscribedTeacher(db, { subscribed: false })
    expect(await operatorRoleCommand({ db, command: 'users:grant-operator', email: 'nobody@school.sa' })).toBe(1)
    expect(printed.at(-1)).toBe('No account with that email.')
    expect(await roleOf(bystander.id)).toBe('teacher')
  })
})
