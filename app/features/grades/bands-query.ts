import { bandPresets, parseBands, type BandPresetName, type GradeBand } from './bands.ts'

/**
 * The bands a report page shows, from its address: `preset` (default or elementary) and, to
 * change the thresholds, `min` once per band from the highest down (the last is always 0).
 * The same query string goes to the exports, so they print what the page shows.
 */
export type BandsChoice = {
  preset: BandPresetName
  bands: readonly GradeBand[]
  custom: boolean
  error: { key: string; values?: Record<string, string | number> } | null
}

export function bandsFromQuery(params: URLSearchParams): BandsChoice {
  const preset: BandPresetName = params.get('preset') === 'elementary' ? 'elementary' : 'default'
  const base = bandPresets[preset]
  // Thresholds typed for the preset the page showed do not carry over to the other one.
  const shown = params.get('shown')
  const mins = shown && shown !== preset ? [] : params.getAll('min')
  if (mins.length === 0) return { preset, bands: base, custom: false, error: null }
  const candidate = base.map((band, i) => ({ key: band.key, min: i === base.length - 1 ? '0' : (mins[i] ?? '') }))
  const parsed = parseBands(candidate)
  if (!parsed.ok)
    return {
      preset,
      bands: base,
      custom: false,
      error: { key: parsed.error.key, ...(parsed.error.values ? { values: { ...parsed.error.values } } : {}) },
    }
  const custom = parsed.bands.some((band, i) => band.min !== base[i]?.min)
  return { preset, bands: parsed.bands, custom, error: null }
}

/** `preset=…&min=…` for links (exports) that must use the same bands; empty for the default. */
export function bandsQuery(choice: Pick<BandsChoice, 'preset' | 'bands' | 'custom'>): string {
  if (choice.preset === 'default' && !choice.custom) return ''
  const params = new URLSearchParams({ preset: choice.preset })
  if (choice.custom) for (const band of choice.bands.slice(0, -1)) params.append('min', String(band.min))
  return params.toString()
}
