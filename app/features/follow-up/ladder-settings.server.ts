import { eq } from 'drizzle-orm'
import { DomainError } from '#app/lib/errors.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { followUpLadders } from '#app/platform/db/schema.ts'
import { defaultLadder, ladderDocuments, ladderProblem, type LadderDocument, type LadderStep } from './ladder.ts'

// Each teacher's escalation ladder (docs/follow-up.md): read when a report, an export, a letter or
// the register is made, so a change applies to every analysis at once (as the tiers do, decision 018).

export interface LadderOfOptions {
  readonly db: Db
  readonly userId: string
}

export interface SaveLadderOptions extends LadderOfOptions {
  readonly steps: readonly LadderStep[]
}

const isDocument = (value: string): value is LadderDocument => (ladderDocuments as readonly string[]).includes(value)

/** The teacher's ladder; the standard preset (3, 5, 10, 15, 25) until she sets her own. */
export async function ladderOf({ db, userId }: LadderOfOptions): Promise<readonly LadderStep[]> {
  const [row] = await db.select({ steps: followUpLadders.steps }).from(followUpLadders).where(eq(followUpLadders.userId, userId)).limit(1)
  if (!row) return defaultLadder
  const steps = row.steps.map((s) => ({ days: s.days, name: s.name, document: isDocument(s.document) ? s.document : 'firstWarning' }))
  // A row that no longer holds (a rule tightened since it was saved) gives way to the default.
  return ladderProblem(steps) === null ? steps : defaultLadder
}

/** Saves the teacher's ladder (a preset's steps or her own); refused with the rule it breaks. */
export async function saveLadder({ db, userId, steps }: SaveLadderOptions): Promise<readonly LadderStep[]> {
  const problem = ladderProblem(steps)
  if (problem) throw new DomainError(422, `followUp.ladder.errors.${problem}`, { steps: [`followUp.ladder.errors.${problem}`] })
  const values = steps.map((s) => ({ days: s.days, name: s.name, document: s.document }))
  await db
    .insert(followUpLadders)
    .values({ userId, steps: values })
    .onConflictDoUpdate({ target: followUpLadders.userId, set: { steps: values, updatedAt: new Date() } })
  return ladderOf({ db, userId })
}
