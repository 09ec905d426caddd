import { z } from '#app/lib/zod-mini.ts'
import {
  ladderDocuments,
  ladderLimits,
  ladderPresetNames,
  ladderProblem,
  presetOf,
  type LadderDocument,
  type LadderStep,
} from './ladder.ts'

// The ladder's settings form and PUT /api/v1/settings/absence-ladder (docs/follow-up.md): one set
// of rules, `ladderProblem`, reported as keys of the `followUp` namespace. Written with zod/mini:
// the settings page sends the form's schema to the browser.

type Problem = NonNullable<ReturnType<typeof ladderProblem>>
const problemKey = (problem: Problem) => `followUp.ladder.errors.${problem}`

/** The step a problem is about (the first that breaks the rule), or null when it is the whole ladder's (the count). */
export function problemStep(steps: readonly LadderStep[], problem: Problem): number | null {
  if (problem === 'count') return null
  const index = steps.findIndex((step, i) => {
    if (problem === 'days') return !Number.isInteger(step.days) || step.days < ladderLimits.minDays || step.days > ladderLimits.maxDays
    if (problem === 'name') return step.name !== null && (step.name.trim() === '' || step.name.length > ladderLimits.maxNameLength)
    return i > 0 && step.days <= (steps[i - 1]?.days ?? 0)
  })
  return index < 0 ? null : index
}

// ---- the page's form: a row of fields per step (days_0, name_0, document_0, remove_0 …) -----------

/** Rows the form shows: the saved steps and one empty row to add a step (the most a ladder may have). */
export const ladderFormRows = ladderLimits.maxSteps
export const ladderRowFields = ['days', 'name', 'document', 'remove'] as const
export const ladderFormFields: readonly string[] = Array.from({ length: ladderFormRows }, (_, i) =>
  ladderRowFields.map((f) => `${f}_${i}`),
).flat()

const ARABIC_DIGITS = /[\u0660-\u0669\u06F0-\u06F9]/g
/** `١٠` typed on an Arabic keyboard reads as 10; anything but a whole number is NaN. */
function readDays(text: string): number {
  const plain = text.replace(ARABIC_DIGITS, (d) => String((d.charCodeAt(0) & 0xf) % 10)).trim()
  return /^\d{1,4}$/.test(plain) ? Number(plain) : Number.NaN
}

const isDocument = (value: string): value is LadderDocument => (ladderDocuments as readonly string[]).includes(value)

/**
 * The form's flat fields as a ladder: a row marked "remove", or left empty (the row for a new
 * step), is not a step. Errors name the row's field, and the form as a whole, so a teacher sees
 * which step to fix. An empty name is the document's standard name.
 */
export const ladderFormSchema = z.pipe(
  z.record(z.string(), z.string()),
  z.transform((values: Record<string, string>, ctx): LadderStep[] => {
    const steps: LadderStep[] = []
    const rows: number[] = []
    for (let i = 0; i < ladderFormRows; i++) {
      const days = (values[`days_${i}`] ?? '').trim()
      const name = (values[`name_${i}`] ?? '').trim()
      const document = values[`document_${i}`] ?? ''
      if (values[`remove_${i}`] === 'on' || (days === '' && name === '')) continue
      if (!isDocument(document)) {
        ctx.issues.push({ code: 'custom', path: [`document_${i}`], message: 'followUp.ladder.errors.document', input: document })
        continue
      }
      steps.push({ days: readDays(days), name: name === '' ? null : name, document })
      rows.push(i)
    }
    const problem = ladderProblem(steps)
    if (problem) {
      const at = problemStep(steps, problem)
      const field = at === null ? '_form' : `${problem === 'name' ? 'name' : 'days'}_${rows[at] ?? 0}`
      ctx.issues.push({ code: 'custom', path: [field], message: problemKey(problem), input: values })
      if (field !== '_form') ctx.issues.push({ code: 'custom', path: ['_form'], message: 'followUp.ladder.errors.fix', input: values })
    }
    return ctx.issues.length ? (z.NEVER as never) : steps
  }),
)

/** A ladder as the form's fields (the saved one, to fill the rows in). */
export function ladderFormValues(steps: readonly LadderStep[]): Record<string, string> {
  const out: Record<string, string> = {}
  steps.forEach((step, i) => {
    out[`days_${i}`] = String(step.days)
    out[`name_${i}`] = step.name ?? ''
    out[`document_${i}`] = step.document
  })
  return out
}

// ---- the API's body: a preset by name, or the steps ------------------------------------------------

const stepBody = z.object({
  days: z.number({ error: 'followUp.ladder.errors.days' }),
  name: z.optional(z.nullable(z.string({ error: 'followUp.ladder.errors.name' }))),
  document: z.enum(ladderDocuments, { error: 'followUp.ladder.errors.document' }),
})

/** `{preset}` or `{steps}`: the steps checked by ladderProblem (an empty name is the document's standard name). */
export const ladderBodySchema = z.pipe(
  z.object({
    preset: z.optional(z.enum(ladderPresetNames, { error: 'followUp.ladder.errors.preset' })),
    steps: z.optional(z.array(stepBody, { error: 'followUp.ladder.errors.count' })),
  }),
  z.transform((body, ctx): { preset: (typeof ladderPresetNames)[number] } | { steps: LadderStep[] } => {
    if ((body.preset === undefined) === (body.steps === undefined)) {
      ctx.issues.push({ code: 'custom', path: ['steps'], message: 'followUp.ladder.errors.presetOrSteps', input: body })
      return z.NEVER as never
    }
    if (body.preset !== undefined) return { preset: body.preset }
    const steps = (body.steps ?? []).map((s) => ({ days: s.days, name: s.name?.trim() ? s.name.trim() : null, document: s.document }))
    const problem = ladderProblem(steps)
    if (problem) {
      ctx.issues.push({ code: 'custom', path: ['steps'], message: problemKey(problem), input: body })
      return z.NEVER as never
    }
    return { steps }
  }),
)

/** The ladder as the API answers it: which preset it is (null when edited) and its steps. */
export function ladderWire(steps: readonly LadderStep[]) {
  return { preset: presetOf(steps), steps: steps.map((s) => ({ days: s.days, name: s.name, document: s.document })) }
}
