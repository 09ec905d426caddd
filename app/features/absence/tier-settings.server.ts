import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '#app/platform/db/client.server.ts'
import { absenceSettings, analysisEntries } from '#app/platform/db/schema.ts'
import { classroomKey, countTiers, defaultTierThresholds, hundredths, tiersFromClassrooms, type AbsenceTiers, type ClassroomTiers, type TierThresholds } from './tiers.ts'
import type { AbsenceAnalysis, AbsenceReport } from './analyse-absence.ts'

/** The teacher's tier thresholds; the defaults (5, 10, 20) until she sets her own. */
export async function tierThresholdsOf(db: Db, userId: string): Promise<TierThresholds> {
  const [row] = await db.select().from(absenceSettings).where(eq(absenceSettings.userId, userId)).limit(1)
  return row ? { atRisk: row.tierAtRisk / 100, chronic: row.tierChronic / 100, severe: row.tierSevere / 100 } : defaultTierThresholds
}

/** Saves the teacher's tier thresholds (already validated by tierThresholdsSchema); every report shows them from now on. */
export async function saveTierThresholds(db: Db, userId: string, thresholds: TierThresholds): Promise<TierThresholds> {
  const values = { tierAtRisk: hundredths(thresholds.atRisk), tierChronic: hundredths(thresholds.chronic), tierSevere: hundredths(thresholds.severe) }
  await db
    .insert(absenceSettings)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: absenceSettings.userId, set: { ...values, updatedAt: new Date() } })
  return tierThresholdsOf(db, userId)
}

/** The tiers of an analysis whose students are all at hand (one saved before entries, or recomputed for other school days). */
export function tiersOfAnalysis(analysis: Pick<AbsenceAnalysis, 'report' | 'students'>, thresholds: TierThresholds): AbsenceTiers {
  return countTiers(analysis.students, analysis.report.byClassroom, thresholds)
}

/**
 * The tiers of an analysis whose students are entries, counted by the database per classroom
 * (one row per classroom comes back, never the students): a page shows them without reading
 * every student. The same whole-number comparison as tierOf: 10000·missed ≥ (100·p)·days.
 */
export async function tiersOfEntries(db: Db, analysisId: string, part: number, report: Pick<AbsenceReport, 'byClassroom'>, thresholds: TierThresholds): Promise<AbsenceTiers> {
  const missed = sql`(10000 * ((${analysisEntries.data} ->> 'excused')::bigint + (${analysisEntries.data} ->> 'unexcused')::bigint))`
  const days = sql`((${analysisEntries.data} ->> 'records')::bigint)`
  const reaches = (percent: number) => sql`${days} > 0 and ${missed} >= ${hundredths(percent)} * ${days}`
  const grade = sql<string>`${analysisEntries.data} ->> 'grade'`
  const classroom = sql<string>`${analysisEntries.data} ->> 'classroom'`
  const rows = await db
    .select({
      grade,
      classroom,
      students: sql<number>`count(*)::int`,
      noTier: sql<number>`(count(*) filter (where not (${days} > 0)))::int`,
      severe: sql<number>`(count(*) filter (where ${reaches(thresholds.severe)}))::int`,
      chronic: sql<number>`(count(*) filter (where ${reaches(thresholds.chronic)} and not (${reaches(thresholds.severe)})))::int`,
      atRisk: sql<number>`(count(*) filter (where ${reaches(thresholds.atRisk)} and not (${reaches(thresholds.chronic)})))::int`,
      satisfactory: sql<number>`(count(*) filter (where ${days} > 0 and not (${reaches(thresholds.atRisk)})))::int`,
    })
    .from(analysisEntries)
    .where(and(eq(analysisEntries.analysisId, analysisId), eq(analysisEntries.part, part)))
    .groupBy(grade, classroom)
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
