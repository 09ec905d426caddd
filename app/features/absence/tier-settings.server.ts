import { eq, sql } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { absenceSettings, analysisEntries } from '#app/platform/db/schema.ts'
import {
  classroomKey,
  countTiers,
  defaultTierThresholds,
  hundredths,
  tiersFromClassrooms,
  type AbsenceTiers,
  type ClassroomTiers,
  type TierThresholds,
} from './tiers.ts'
import type { AbsenceAnalysis, AbsenceReport } from './analyse-absence.ts'

export type TierThresholdsOfOptions = { db: Db; userId: string }

/** The teacher's tier thresholds; the defaults (5, 10, 20) until she sets her own. */
export async function tierThresholdsOf({ db, userId }: TierThresholdsOfOptions): Promise<TierThresholds> {
  const [row] = await db.select().from(absenceSettings).where(eq(absenceSettings.userId, userId)).limit(1)
  return row ? { atRisk: row.tierAtRisk / 100, chronic: row.tierChronic / 100, severe: row.tierSevere / 100 } : defaultTierThresholds
}

export type SaveTierThresholdsOptions = { db: Db; userId: string; thresholds: TierThresholds }

/** Saves the teacher's tier thresholds (already validated by tierThresholdsSchema); every report shows them from now on. */
export async function saveTierThresholds({ db, userId, thresholds }: SaveTierThresholdsOptions): Promise<TierThresholds> {
  const values = {
    tierAtRisk: hundredths(thresholds.atRisk),
    tierChronic: hundredths(thresholds.chronic),
    tierSevere: hundredths(thresholds.severe),
  }
  await db
    .insert(absenceSettings)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: absenceSettings.userId, set: { ...values, updatedAt: new Date() } })
  return tierThresholdsOf({ db, userId })
}

/** The tiers of an analysis whose students are all at hand (one saved before entries, or recomputed for other school days). */
export function tiersOfAnalysis(analysis: Pick<AbsenceAnalysis, 'report' | 'students'>, thresholds: TierThresholds): AbsenceTiers {
  return countTiers(analysis.students, analysis.report.byClassroom, thresholds)
}

export type TiersOfEntriesOptions = {
  db: Db
  analysisId: string
  part: number
  report: Pick<AbsenceReport, 'byClassroom'>
  thresholds: TierThresholds
}

/**
 * The tiers of an analysis whose students are entries, counted by the database per classroom
 * (one row per classroom comes back, never the students): a page shows them without reading
 * every student. Each entry's JSON is opened once (jsonb_to_record: a student with many absences
 * is a large value kept out of line), then compared as tierOf does, in whole numbers:
 * 10000·missed ≥ (100·p)·days.
 */
export async function tiersOfEntries({ db, analysisId, part, report, thresholds }: TiersOfEntriesOptions): Promise<AbsenceTiers> {
  const missed = sql`(10000 * (s.excused::bigint + s.unexcused::bigint))`
  const reaches = (percent: number) => sql`(s.records > 0 and ${missed} >= ${hundredths(percent)}::bigint * s.records)`
  const query = sql`
    select s.grade, s.classroom,
      count(*)::int as students,
      (count(*) filter (where not (s.records > 0)))::int as "noTier",
      (count(*) filter (where ${reaches(thresholds.severe)}))::int as severe,
      (count(*) filter (where ${reaches(thresholds.chronic)} and not ${reaches(thresholds.severe)}))::int as chronic,
      (count(*) filter (where ${reaches(thresholds.atRisk)} and not ${reaches(thresholds.chronic)}))::int as "atRisk",
      (count(*) filter (where s.records > 0 and not ${reaches(thresholds.atRisk)}))::int as satisfactory
    from ${analysisEntries} e,
      lateral jsonb_to_record(e.data) as s(grade text, classroom text, excused int, unexcused int, records int)
    where e.analysis_id = ${analysisId} and e.part = ${part}
    group by s.grade, s.classroom`
  type Row = {
    grade: string
    classroom: string
    students: number
    noTier: number
    severe: number
    chronic: number
    atRisk: number
    satisfactory: number
  }
  // Both drivers (node-postgres, PGlite) answer a raw query with its rows.
  const { rows } = (await db.execute(query)) as unknown as { rows: Row[] }
  const tallies = new Map<string, ClassroomTiers>()
  for (const row of rows) {
    const tally: ClassroomTiers = {
      grade: row.grade,
      classroom: row.classroom,
      satisfactory: Number(row.satisfactory),
      atRisk: Number(row.atRisk),
      chronic: Number(row.chronic),
      severe: Number(row.severe),
      noTier: Number(row.noTier),
      students: Number(row.students),
    }
    tallies.set(classroomKey(tally), tally)
  }
  return tiersFromClassrooms(tallies, report.byClassroom, thresholds)
}
