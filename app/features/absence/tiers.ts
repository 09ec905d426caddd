/**
 * Absence tiers (issue 18): a student's share of school days missed for any reason
 * (excused + unexcused over the student's school days) against three boundaries, the
 * teacher's own or Attendance Works' defaults: satisfactory below 5%, at risk from 5%, chronic
 * from 10%, severe from 20%. Pure: the pages, exports and API compute tiers when they are read,
 * with the thresholds in force then (a stored analysis keeps only the counts).
 */

export const tierKeys = ['satisfactory', 'atRisk', 'chronic', 'severe'] as const
export type AbsenceTier = (typeof tierKeys)[number]

/** Percent of school days missed from which each tier starts (at most two decimals): 0 < atRisk < chronic < severe ≤ 100. */
export interface TierThresholds {
  readonly atRisk: number
  readonly chronic: number
  readonly severe: number
}

export const defaultTierThresholds: TierThresholds = { atRisk: 5, chronic: 10, severe: 20 }

/** A boundary in hundredths of a percent, so a share is compared in whole numbers (never a rounded rate). */
export const hundredths = (percent: number): number => Math.round(percent * 100)

/** What a tier is computed from: the days missed for any reason and the student's school days. */
export interface TierCounts {
  readonly excused: number
  readonly unexcused: number
  readonly records: number
}

/**
 * The tier of a student: null without school days (no share to speak of). A boundary belongs
 * to the tier it starts: exactly 5% is at risk, 4.99% (or 4.995%, which a rate rounds to 5.00) is
 * satisfactory. Compared exactly: 100·missed/days ≥ p ⇔ 10000·missed ≥ (100·p)·days.
 */
export function tierOf({ excused, unexcused, records }: TierCounts, thresholds: TierThresholds): AbsenceTier | null {
  if (!(records > 0)) return null
  const missed = 10_000 * (excused + unexcused)
  const reaches = (percent: number) => missed >= hundredths(percent) * records
  if (reaches(thresholds.severe)) return 'severe'
  if (reaches(thresholds.chronic)) return 'chronic'
  if (reaches(thresholds.atRisk)) return 'atRisk'
  return 'satisfactory'
}

/** How many students are in each tier; `noTier`: students without school days. */
export type TierTally = { readonly [K in AbsenceTier]: number } & { readonly noTier: number; readonly students: number }
export type ClassroomTiers = { readonly grade: string; readonly classroom: string } & TierTally

/** The tiers of an analysis: the thresholds they were counted with, overall and per classroom (the report's classroom order). */
export interface AbsenceTiers {
  readonly thresholds: TierThresholds
  readonly summary: TierTally
  readonly byClassroom: readonly ClassroomTiers[]
}

type MutableTally = { -readonly [K in keyof TierTally]: number }
const emptyTally = (): MutableTally => ({ satisfactory: 0, atRisk: 0, chronic: 0, severe: 0, noTier: 0, students: 0 })

/** A key for a classroom as the report writes it (grade and classroom as first written). */
export const classroomKey = (c: { readonly grade: string; readonly classroom: string }) => `${c.grade}\u0000${c.classroom}`

/**
 * Adds classroom tallies up: the summary, and the classrooms in the report's order (a classroom
 * the report does not list, which a consistent analysis never has, goes last).
 */
export function tiersFromClassrooms(
  tallies: ReadonlyMap<string, ClassroomTiers>,
  order: readonly { readonly grade: string; readonly classroom: string }[],
  thresholds: TierThresholds,
): AbsenceTiers {
  const summary = emptyTally()
  const byClassroom: ClassroomTiers[] = []
  const seen = new Set<string>()
  const add = (tally: ClassroomTiers) => {
    for (const key of ['satisfactory', 'atRisk', 'chronic', 'severe', 'noTier', 'students'] as const) summary[key] += tally[key]
    byClassroom.push(tally)
  }
  for (const c of order) {
    const key = classroomKey(c)
    seen.add(key)
    add(tallies.get(key) ?? { grade: c.grade, classroom: c.classroom, ...emptyTally() })
  }
  for (const [key, tally] of tallies) if (!seen.has(key)) add(tally)
  return { thresholds, summary, byClassroom }
}

/** The tiers of every student given (a whole analysis), per classroom in the report's order. */
export function countTiers(
  students: Iterable<TierCounts & { readonly grade: string; readonly classroom: string }>,
  order: readonly { readonly grade: string; readonly classroom: string }[],
  thresholds: TierThresholds,
): AbsenceTiers {
  const tallies = new Map<string, { grade: string; classroom: string } & MutableTally>()
  for (const student of students) {
    const key = classroomKey(student)
    let tally = tallies.get(key)
    if (!tally) {
      tally = { grade: student.grade, classroom: student.classroom, ...emptyTally() }
      tallies.set(key, tally)
    }
    tally.students++
    tally[tierOf(student, thresholds) ?? 'noTier']++
  }
  return tiersFromClassrooms(tallies, order, thresholds)
}
