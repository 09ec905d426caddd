import { eq } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { users, type UserRole } from '#app/platform/db/schema.ts'

// Operators are granted and revoked from the command line only (`npm run admin --
// users:grant-operator <email>`), by whoever runs the server: no page or endpoint makes one.

export type SetUserRoleOptions = { db: Db; email: string; role: UserRole }

/** Sets an account's role by its email; false when there is no such account. */
export async function setUserRole({ db, email, role }: SetUserRoleOptions): Promise<{ found: boolean; hasTwoFactor: boolean }> {
  const [row] = await db
    .update(users)
    .set({ role, updatedAt: new Date() })
    .where(eq(users.email, email.trim().toLowerCase()))
    .returning({ totpEnabledAt: users.totpEnabledAt })
  return { found: Boolean(row), hasTwoFactor: Boolean(row?.totpEnabledAt) }
}
