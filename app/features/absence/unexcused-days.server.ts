import { sql } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { analysisEntries } from '#app/platform/db/schema.ts'
import { hasEntries, loadAbsence, STUDENTS, type StoredAbsence } from './export.server.ts'

export interface UnexcusedDaysTallyOptions {
  readonly db: Db
  readonly stored: StoredAbsence
}

/** How many students of a classroom have a number of unexcused days. */
export interface UnexcusedDaysCount {
  readonly grade: string
  readonly classroom: string
  readonly unexcused: number
  readonly students: number
}

/**
 * How many students of each classroom have each number of unexcused days, counted by the
 * database when the students are entries: the report's follow-up block counts its steps from it
 * without reading every student's absences.
 */
export async function unexcusedDaysTally({ db, stored }: UnexcusedDaysTallyOptions): Promise<UnexcusedDaysCount[]> {
  if (!hasEntries(stored.records)) {
    const counts = new Map<string, UnexcusedDaysCount>()
    for (const s of (await loadAbsence({ db, stored })).students) {
      const key = JSON.stringify([s.grade, s.classroom, s.unexcused])
      const known = counts.get(key)
      counts.set(key, { grade: s.grade, classroom: s.classroom, unexcused: s.unexcused, students: (known?.students ?? 0) + 1 })
    }
    return [...counts.values()]
  }
  const query = sql`
    select s.grade, s.classroom, s.unexcused, count(*)::int as students
    from ${analysisEntries} e, lateral jsonb_to_record(e.data) as s(grade text, classroom text, unexcused int)
    where e.analysis_id = ${stored.id} and e.part = ${STUDENTS}
    group by s.grade, s.classroom, s.unexcused`
  type Row = { grade: string | null; classroom: string | null; unexcused: number | null; students: number }
  // Both drivers (node-postgres, PGlite) answer a raw query with its rows.
  const { rows } = (await db.execute(query)) as unknown as { rows: Row[] }
  return rows.map((row) => ({
    grade: row.grade ?? '',
    classroom: row.classroom ?? '',
    unexcused: Number(row.unexcused ?? 0),
    students: Number(row.students),
  }))
}
