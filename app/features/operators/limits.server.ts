import { DomainError } from '#app/lib/errors.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { hitRateLimit } from '#app/platform/rate-limit.server.ts'

/**
 * Every write in the operator area (pages and API) counts against one hourly allowance per
 * operator: generous for a person at work, short for a stolen session or a runaway script.
 */
export const OPERATOR_WRITES_PER_HOUR = 300

export type LimitOperatorWritesOptions = { db: Db; operatorId: string }

/** Counts one write; past the allowance, a 429 DomainError with the wait. */
export async function limitOperatorWrites({ db, operatorId }: LimitOperatorWritesOptions): Promise<void> {
  const limit = await hitRateLimit({ db, key: `operator-write:${operatorId}`, limit: OPERATOR_WRITES_PER_HOUR, windowSeconds: 3600 })
  if (!limit.allowed) throw new DomainError(429, 'common.errors.tooManyRequests', undefined, limit.retryAfterSeconds)
}
