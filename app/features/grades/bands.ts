import { cleanText, normalizeLabel, normalizeText, type MessageRef } from '#app/features/analyses/index.ts'
import { DomainError } from '#app/lib/errors.ts'

/**
 * Grade bands by percent (docs/grades.md, "The figures"): a score falls in the first band whose
 * `min` its percent reaches. Bands are listed from the highest down; the last starts at 0, so
 * every score has a band.
 */

/** Band names the app translates (`grades.bands.<key>`): the default preset's, then the elementary one's. */
export const bandKeys = [
  'excellent',
  'veryGood',
  'good',
  'acceptable',
  'weak',
  'outstanding',
  'advanced',
  'proficient',
  'notPassed',
] as const

export type BandKey = (typeof bandKeys)[number]

export interface GradeBand {
  /** A key of `bandKeys` (translated on screen), or a teacher's own label (shown as written). */
  readonly key: string
  /** The lowest percent in the band: a whole number from 0 to 100. */
  readonly min: number
}

export type BandPresetName = 'default' | 'elementary'

export const bandPresets = {
  default: [
    { key: 'excellent', min: 90 },
    { key: 'veryGood', min: 80 },
    { key: 'good', min: 70 },
    { key: 'acceptable', min: 50 },
    { key: 'weak', min: 0 },
  ],
  elementary: [
    { key: 'outstanding', min: 95 },
    { key: 'advanced', min: 85 },
    { key: 'proficient', min: 75 },
    { key: 'notPassed', min: 0 },
  ],
} as const satisfies Record<BandPresetName, readonly GradeBand[]>

/**
 * A band's label with the percents it covers, from the thresholds in force (docs/grades.md): the top
 * band "ممتاز (90٪ فأكثر)", the last "ضعيف (أقل من 50٪)", the others "جيد (70٪ إلى أقل من 80٪)".
 * `name` is the band's name as shown, `t` the page's or the export's translator.
 */
export function bandRangeLabel(
  t: (key: string, values?: Record<string, string | number>) => string,
  bands: readonly Pick<GradeBand, 'min'>[],
  index: number,
  name: string,
): string {
  const min = bands[index]?.min ?? 0
  const upper = bands[index - 1]?.min
  if (upper === undefined) return t('grades.bandRange.top', { band: name, min })
  if (index === bands.length - 1 && min === 0) return t('grades.bandRange.bottom', { band: name, upper })
  return t('grades.bandRange.middle', { band: name, min, upper })
}

export const minBands = 2
export const maxBands = 8
/** Longest label a teacher may give a band of their own. */
export const maxBandLabelLength = 40

const knownKeys = new Set<string>(bandKeys)

export function isBandKey(key: string): key is BandKey {
  return knownKeys.has(key)
}

export type ParseBandsResult =
  { readonly ok: true; readonly bands: readonly GradeBand[] } | { readonly ok: false; readonly error: MessageRef }

// The messages read on their own; `band` (1 = the highest) tells a form which field to mark.
const failure = (key: string, band?: number): ParseBandsResult => ({
  ok: false,
  error: band === undefined ? { key: `grades.bandErrors.${key}` } : { key: `grades.bandErrors.${key}`, values: { band } },
})

// Control characters and the bidi overrides that could make a label read as something else.
// oxlint-disable-next-line no-control-regex -- matching control characters is the point
const unsafeLabel = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/

function readMin(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? normalizeText(value) : ''
  if (!/^\d{1,3}$/.test(text)) return null
  const min = Number(text)
  return min <= 100 ? min : null
}

/**
 * Bands from a form or the API: a preset's name, or a list of `{key, min}` from the highest
 * band down: 2 to 8 bands, whole-number mins from 100 down to a last band at 0, strictly
 * descending, keys from `bandKeys` or labels of the teacher's own (1–40 characters, no control
 * characters), no two alike. Errors are `grades.bandErrors.*` with the band's position.
 */
export function parseBands(input: unknown): ParseBandsResult {
  if (input === 'default' || input === 'elementary') return { ok: true, bands: bandPresets[input] }
  if (!Array.isArray(input) || input.length < minBands || input.length > maxBands) return failure('count')
  const bands: GradeBand[] = []
  const seen = new Set<string>()
  for (const [i, item] of input.entries()) {
    const position = i + 1
    const { key: rawKey, min: rawMin } = (item && typeof item === 'object' ? item : {}) as { key?: unknown; min?: unknown }
    if (typeof rawKey !== 'string' || unsafeLabel.test(rawKey)) return failure('label', position)
    const key = isBandKey(rawKey) ? rawKey : cleanText(rawKey)
    if (key === '' || key.length > maxBandLabelLength) return failure('label', position)
    const identity = normalizeLabel(key)
    if (seen.has(identity)) return failure('duplicate', position)
    seen.add(identity)
    const min = readMin(rawMin)
    if (min === null) return failure('min', position)
    const previous = bands.at(-1)
    if (previous && min >= previous.min) return failure('order', position)
    bands.push({ key, min })
  }
  if (bands.at(-1)?.min !== 0) return failure('lastZero', bands.length)
  return { ok: true, bands }
}

/** The bands an analysis runs with: the default preset unless told; invalid bands are a 400 with the reason's key. */
export function resolveBands(bands: readonly GradeBand[] | BandPresetName | undefined): readonly GradeBand[] {
  const parsed = parseBands(bands ?? 'default')
  if (!parsed.ok) throw new DomainError(400, parsed.error.key, { bands: [parsed.error.key] })
  return parsed.bands
}
