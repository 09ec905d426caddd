import { analysisHeadWire, recognisedBaseWire, skippedRowWire } from '#app/features/analyses/index.server.ts'
import { wireCount, wireDay, wireRate, wireShape } from '#app/lib/wire.server.ts'
import { z } from '#app/lib/zod.ts'
import { ladderDocuments } from '#app/features/follow-up/index.ts'
import { tierKeys, type AbsenceTiers, type TierTally } from './tiers.ts'
import type { AbsenceSteps, StepTally } from './steps.ts'

// An absence analysis as the API answers it: its report's own camelCase fields (docs/api.md).

const counts = { records: wireCount, present: wireCount, excused: wireCount, unexcused: wireCount, late: wireCount }
const rates = { attendanceRate: wireRate, excusedRate: wireRate, unexcusedRate: wireRate, lateRate: wireRate }
const figures = { ...counts, ...rates }

const absenceRecognised = z.object({
  layout: z.enum(['absence-daily', 'absence-totals']),
  ...recognisedBaseWire,
  students: wireCount,
  idsIgnored: z.boolean().describe('The IDs were in scientific notation: students told apart by name, grade and classroom'),
  schoolDays: z.int().min(1).optional().describe('Totals: the school days the figures use'),
  period: z
    .object({ from: z.string(), to: z.string(), fromDate: wireDay, toDate: wireDay })
    .nullable()
    .optional()
    .describe('Totals: the period as written and as Gregorian dates'),
})

const tierTally = {
  students: wireCount,
  satisfactory: wireCount,
  atRisk: wireCount,
  chronic: wireCount,
  severe: wireCount,
  noTier: wireCount.describe('Students without school days: no share, no tier'),
}
const percentBoundary = z.number().gt(0).max(100)
const thresholdsWire = z
  .object({ atRisk: percentBoundary, chronic: percentBoundary, severe: percentBoundary })
  .describe('Percent of school days missed (excused and unexcused) from which each tier starts; below atRisk is satisfactory')

const tiersWire = z
  .object({
    thresholds: thresholdsWire,
    summary: z.object(tierTally),
    byClassroom: z.array(z.object({ grade: z.string(), classroom: z.string(), ...tierTally })),
  })
  .describe('Students per absence tier, with the teacher’s thresholds at the time of the request')

/** The tiers as the API answers them: exactly the wire's fields. */
export function tiersJson(tiers: AbsenceTiers) {
  const tally = (g: TierTally) => ({
    students: g.students,
    satisfactory: g.satisfactory,
    atRisk: g.atRisk,
    chronic: g.chronic,
    severe: g.severe,
    noTier: g.noTier,
  })
  return {
    thresholds: { atRisk: tiers.thresholds.atRisk, chronic: tiers.thresholds.chronic, severe: tiers.thresholds.severe },
    summary: tally(tiers.summary),
    byClassroom: tiers.byClassroom.map((g) => ({ grade: g.grade, classroom: g.classroom, ...tally(g) })),
  }
}

const ladderStepWire = z.object({
  days: z.int().min(1).max(200).describe('Unexcused days from which the step applies'),
  name: z.string().nullable().describe('The teacher’s name for the step; null: the document’s standard name'),
  document: z.enum(ladderDocuments),
})

/** A student's step on the teacher's ladder: its position (1 = first) and the step. */
const studentStepWire = ladderStepWire
  .extend({ number: z.int().min(1).max(8) })
  .nullable()
  .describe('The follow-up step reached on the teacher’s ladder (docs/follow-up.md); null below the first')

const stepTally = {
  atStep: z.array(wireCount).describe('Students at each step of the ladder, in its order'),
  reached: wireCount.describe('Students at any step'),
  students: wireCount,
}

const stepsWire = z
  .object({
    ladder: z.array(ladderStepWire),
    summary: z.object(stepTally),
    byClassroom: z.array(z.object({ grade: z.string(), classroom: z.string(), ...stepTally })),
  })
  .describe('Students per follow-up step, on the teacher’s ladder at the time of the request')

/** The steps as the API answers them: exactly the wire's fields. */
export function stepsJson(steps: AbsenceSteps) {
  const tally = (g: StepTally) => ({ atStep: [...g.atStep], reached: g.reached, students: g.students })
  return {
    ladder: steps.ladder.map((s) => ({ days: s.days, name: s.name, document: s.document })),
    summary: tally(steps.summary),
    byClassroom: steps.byClassroom.map((g) => ({ grade: g.grade, classroom: g.classroom, ...tally(g) })),
  }
}

/** GET and PUT settings/absence-ladder: the teacher's ladder, and which preset it is. */
export const ladderAnswerWire = wireShape(
  'AbsenceLadder',
  z.object({
    preset: z.enum(['standard', 'short']).nullable().describe('The ready ladder this is; null when edited'),
    steps: z.array(ladderStepWire),
  }),
)

/** GET and PUT settings/absence-tiers: the teacher's thresholds, by the names the form and the request use. */
export const tierThresholdsAnswerWire = wireShape(
  'AbsenceTierThresholds',
  z
    .object({ at_risk: percentBoundary, chronic: percentBoundary, severe: percentBoundary })
    .describe('Percent of school days missed from which each tier starts'),
)

export const absenceAnalysisWire = wireShape(
  'AbsenceAnalysis',
  z.object({
    ...analysisHeadWire,
    kind: z.literal('absence'),
    recognised: absenceRecognised.optional().describe('Absent from analyses saved before Noor’s layouts were read'),
    summary: z.object({
      students: wireCount,
      days: wireCount.describe('School days with records, or the totals’ school days'),
      ...figures,
    }),
    bySection: z.array(z.object({ section: z.string(), ...figures })),
    byClassroom: z.array(z.object({ grade: z.string(), classroom: z.string(), ...figures })),
    bySystem: z.array(z.object({ system: z.string(), ...figures })),
    byWeekday: z
      .array(z.object({ weekday: z.int().min(0).max(6).describe('0 = Sunday'), ...figures }))
      .optional()
      .describe('Daily records only'),
    byDate: z
      .array(z.object({ date: wireDay, hijri: z.string(), ...figures }))
      .optional()
      .describe('Daily records only'),
    periodAbsences: wireCount.optional().describe('Absences from a lesson, counted apart (present for the day)'),
    skipped: z.array(skippedRowWire),
    tiers: tiersWire,
    steps: stepsWire,
  }),
)

/** A student found by the search, with the student's figures and (daily records) the days missed. */
export const studentWire = wireShape(
  'Student',
  z.object({
    name: z.string(),
    studentId: z.string().nullable(),
    grade: z.string(),
    classroom: z.string(),
    section: z.string(),
    system: z.string(),
    ...counts,
    absenceRate: wireRate,
    warningLevel: z.int().min(0).max(3).describe('0 none; 1, 2, 3 from 3, 5, 10 unexcused days'),
    tier: z.enum(tierKeys).nullable().describe('The absence tier with the teacher’s thresholds; null without school days'),
    step: studentStepWire,
    absences: z
      .array(z.object({ date: wireDay, hijri: z.string(), weekday: z.int().min(0).max(6), type: z.enum(['excused', 'unexcused']) }))
      .optional()
      .describe('Daily records only: a totals file has no dates'),
    guardianMobile: z
      .string()
      .regex(/^\d{8,15}$/)
      .optional()
      .describe('The guardian’s mobile with its country code (9665…), when the uploaded file had the column; for a parent message'),
  }),
)
