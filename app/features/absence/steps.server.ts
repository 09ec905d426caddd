import { sql } from 'drizzle-orm'
import type { LadderStep } from '#app/features/follow-up/index.ts'
import type { Db } from '#app/platform/db/client.server.ts'
import { analysisEntries } from '#app/platform/db/schema.ts'
import type { AbsenceReport } from './analyse-absence.ts'
import { countSteps, type AbsenceSteps } from './steps.ts'

/**
 * The steps of an analysis whose students are entries: the database groups them by classroom
 * and unexcused days (a few rows per classroom come back, never the students), and countSteps
 * places each group on the ladder.
 */
export type StepsOfEntriesOptions = {
  db: Db
  analysisId: string
  part: number
  report: Pick<AbsenceReport, 'byClassroom'>
  ladder: readonly LadderStep[]
}

export async function stepsOfEntries({ db, analysisId, part, report, ladder }: StepsOfEntriesOptions): Promise<AbsenceSteps> {
  const query = sql`
    select s.grade, s.classroom, s.unexcused, count(*)::int as count
    from ${analysisEntries} e, lateral jsonb_to_record(e.data) as s(grade text, classroom text, unexcused int)
    where e.analysis_id = ${analysisId} and e.part = ${part}
    group by s.grade, s.classroom, s.unexcused`
  type Row = { grade: string; classroom: string; unexcused: number; count: number }
  // Both drivers (node-postgres, PGlite) answer a raw query with its rows.
  const { rows } = (await db.execute(query)) as unknown as { rows: Row[] }
  return countSteps(
    rows.map((r) => ({ grade: r.grade, classroom: r.classroom, unexcused: Number(r.unexcused), count: Number(r.count) })),
    report.byClassroom,
    ladder,
  )
}
