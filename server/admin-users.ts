import { setUserRole } from '#app/features/operators/index.server.ts'
import type { Db } from '#app/platform/db/client.server.ts'

// `npm run admin -- users:grant-operator <email>` and `users:revoke-operator <email>`: the only way
// an account becomes an operator (docs/operators.md). Prints what was done; the exit code says whether.

export type OperatorRoleCommandOptions = { db: Db; command: 'users:grant-operator' | 'users:revoke-operator'; email: string }

export async function operatorRoleCommand({ db, command, email }: OperatorRoleCommandOptions): Promise<number> {
  const isGrant = command === 'users:grant-operator'
  const { found, hasTwoFactor } = await setUserRole({ db, email, role: isGrant ? 'operator' : 'teacher' })
  if (!found) {
    console.error('No account with that email.')
    return 1
  }
  console.info(
    !isGrant
      ? 'That account is a teacher again: the operator area is closed to it.'
      : hasTwoFactor
        ? 'That account is an operator: the area is at /ar/admin (or /en/admin).'
        : 'That account is an operator; the area opens once it turns on two-step verification in its profile.',
  )
  return 0
}
