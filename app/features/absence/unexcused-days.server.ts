import { sql } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { analysisEntries } from '#app/platform/db/schema.ts'
import { hasEntries, loadAbsence, STUDENTS, type StoredAbsence } from './export.server.ts'

export interface UnexcusedDaysTallyOptions {
  readonly db: Db
  readonly stored: StoredAbsence
}

/**
 * How many students have each number of unexcused days (days → students), counted by the
 * database when the students are entries: the report's follow-up block counts its steps from it
 * without reading every student's absences.
 */
export async function unexcusedDaysTally({ db, stored }: UnexcusedDaysTallyOptions): Promise<Map<number, number>> {
  const tally = new Map<number, number>()
  if (!hasEntries(stored.records)) {
    for (const s of (await loadAbsence(db, stored)).students) tally.set(s.unexcused, (tally.get(s.unexcused) ?? 0) + 1)
    return tally
  }
  const query = sql`
    select s.unexcused, count(*)::int as students
    from ${analysisEntries} e, lateral jsonb_to_record(e.data) as s(unexcused int)
    where e.analysis_id = ${stored.id} and e.part = ${STUDENTS}
    group by s.unexcused`
  // Both drivers (node-postgres, PGlite) answer a raw query with its rows.
  const { rows } = (await db.execute(query)) as unknown as { rows: { unexcused: number | null; students: number }[] }
  for (const row of rows) tally.set(Number(row.unexcused ?? 0), Number(row.students))
  return tally
}
