import { z } from '#app/lib/zod-mini.ts'
import type { TierThresholds } from './tiers.ts'

// The tier thresholds form (three boundaries, percent of school days missed), shared by the
// settings page (instant feedback), its action and PUT /api/v1/settings/absence-tiers. Messages
// are keys of the `absence` namespace. Written with zod/mini: the page sends it to the browser.

/** The form's (and the API body's) field names, in order. */
export const tierThresholdFields = ['at_risk', 'chronic', 'severe'] as const

const ARABIC_DIGITS = /[\u0660-\u0669\u06F0-\u06F9]/g

/** `٧٫٥` or `7,5` as `7.5`: a number typed on an Arabic keyboard reads as one. */
function readPercent(value: string): number {
  const text = value
    .replace(ARABIC_DIGITS, (d) => String((d.charCodeAt(0) & 0xf) % 10))
    .replace(/[٫,]/g, '.')
    .replace(/[\s%٪]/g, '')
  return /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN
}

/** A percent from 0 (excluded) to 100 with at most two decimals, from a number or the text of a form field. */
const percentField = z.pipe(
  z.union([
    z.number({ error: 'absence.tiers.errors.number' }),
    z.string({ error: 'absence.tiers.errors.number' }).check(z.trim(), z.minLength(1, 'absence.tiers.errors.required')),
  ]),
  z.pipe(
    z.transform((v: number | string) => (typeof v === 'number' ? v : readPercent(v))),
    z.number({ error: 'absence.tiers.errors.number' }).check(
      z.gt(0, 'absence.tiers.errors.range'),
      z.lte(100, 'absence.tiers.errors.range'),
      // Hundredths at the finest: shares are compared exactly in whole hundredths of a percent.
      z.refine((n: number) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-9, 'absence.tiers.errors.decimals'),
    ),
  ),
)

/** The three boundaries, each above the one before: 0 < at risk < chronic < severe ≤ 100. */
export const tierThresholdsSchema = z.pipe(
  z.object({ at_risk: percentField, chronic: percentField, severe: percentField }).check(
    z.superRefine((v: { at_risk: number; chronic: number; severe: number }, ctx) => {
      // Zod runs this even when a field failed: an order is only said of two numbers read.
      const isRead = (n: unknown) => typeof n === 'number' && Number.isFinite(n)
      if (isRead(v.at_risk) && isRead(v.chronic) && !(v.chronic > v.at_risk))
        ctx.addIssue({ code: 'custom', path: ['chronic'], message: 'absence.tiers.errors.ascending', input: v })
      if (isRead(v.chronic) && isRead(v.severe) && !(v.severe > v.chronic))
        ctx.addIssue({ code: 'custom', path: ['severe'], message: 'absence.tiers.errors.ascending', input: v })
    }),
  ),
  z.transform((v): TierThresholds => ({ atRisk: v.at_risk, chronic: v.chronic, severe: v.severe })),
)

/** Thresholds as the form and the API write them. */
export const tierThresholdsWire = (t: TierThresholds) => ({ at_risk: t.atRisk, chronic: t.chronic, severe: t.severe })
