/**
 * The escalation ladder (issue 18): steps on a student's unexcused days, each with the document a
 * school issues at it. Pure: a step is computed when an analysis is read, with the ladder in force
 * then (docs/follow-up.md). The presets follow what is reported of the ministry's rules; a school's
 * own rules prevail, so every step is editable.
 */

/** The documents a step can issue, in the order a school escalates. */
export const ladderDocuments = ['firstWarning', 'secondWarning', 'guardianPledge', 'counsellorReferral', 'enrolmentChange'] as const
export type LadderDocument = (typeof ladderDocuments)[number]

export interface LadderStep {
  /** Unexcused days from which the step applies (a whole number, 1 to 200). */
  readonly days: number
  /** The step's name as the teacher wrote it; null: the document's standard name in the page's language. */
  readonly name: string | null
  readonly document: LadderDocument
}

export const ladderPresetNames = ['standard', 'short'] as const
export type LadderPresetName = (typeof ladderPresetNames)[number]

/** Limits of an edited ladder (the settings form and the API check them). */
export const ladderLimits = { minSteps: 1, maxSteps: 8, minDays: 1, maxDays: 200, maxNameLength: 80 } as const

/**
 * standard: 3 first warning, 5 second warning, 10 guardian's pledge, 15 referral to the student
 * counsellor, 25 the file for a change of enrolment. short: 10 warning, 15 second warning, 20 referral.
 */
export const ladderPresets: { readonly [P in LadderPresetName]: readonly LadderStep[] } = {
  standard: [
    { days: 3, name: null, document: 'firstWarning' },
    { days: 5, name: null, document: 'secondWarning' },
    { days: 10, name: null, document: 'guardianPledge' },
    { days: 15, name: null, document: 'counsellorReferral' },
    { days: 25, name: null, document: 'enrolmentChange' },
  ],
  short: [
    { days: 10, name: null, document: 'firstWarning' },
    { days: 15, name: null, document: 'secondWarning' },
    { days: 20, name: null, document: 'counsellorReferral' },
  ],
}

export const defaultLadder: readonly LadderStep[] = ladderPresets.standard

/** Why a ladder is refused, as a locale key under `followUp.ladder.errors`; null when it holds. */
export function ladderProblem(steps: readonly LadderStep[]): 'count' | 'days' | 'ascending' | 'name' | null {
  if (steps.length < ladderLimits.minSteps || steps.length > ladderLimits.maxSteps) return 'count'
  for (const step of steps) {
    if (!Number.isInteger(step.days) || step.days < ladderLimits.minDays || step.days > ladderLimits.maxDays) return 'days'
    if (step.name !== null && (step.name.trim() === '' || step.name.length > ladderLimits.maxNameLength)) return 'name'
  }
  for (let i = 1; i < steps.length; i++) if ((steps[i]?.days ?? 0) <= (steps[i - 1]?.days ?? 0)) return 'ascending'
  return null
}

/**
 * The index of the highest step a student has reached (days ≥ the step's days), or null below the
 * first. A boundary belongs to the step it starts: exactly 3 days is step 0 of the standard ladder,
 * 2 days is none. Steps are ascending (ladderProblem refuses any other ladder).
 */
export function stepOf(unexcusedDays: number, steps: readonly LadderStep[]): number | null {
  let reached: number | null = null
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]
    if (step !== undefined && unexcusedDays >= step.days) reached = i
  }
  return reached
}

/** Which preset a ladder is, or null when the teacher changed it. */
export function presetOf(steps: readonly LadderStep[]): LadderPresetName | null {
  for (const name of ladderPresetNames) {
    const preset = ladderPresets[name]
    if (
      preset.length === steps.length &&
      preset.every((p, i) => p.days === steps[i]?.days && p.document === steps[i]?.document && steps[i]?.name === null)
    )
      return name
  }
  return null
}
