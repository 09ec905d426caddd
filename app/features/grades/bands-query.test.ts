import { describe, expect, it } from 'vitest'
import { bandPresets } from './bands.ts'
import { bandsFromQuery, bandsQuery } from './bands-query.ts'

const q = (s: string) => new URLSearchParams(s)

describe('bands from a report page address', () => {
  it('takes the default preset when nothing is asked, and the elementary one by name', () => {
    expect(bandsFromQuery(q(''))).toEqual({ preset: 'default', bands: bandPresets.default, custom: false, error: null })
    expect(bandsFromQuery(q('preset=elementary')).bands).toEqual(bandPresets.elementary)
  })

  it('changes the thresholds of the preset shown, and says which band is wrong', () => {
    const choice = bandsFromQuery(q('preset=default&shown=default&min=85&min=75&min=65&min=40'))
    expect(choice.bands.map((b) => b.min)).toEqual([85, 75, 65, 40, 0])
    expect(choice.custom).toBe(true)
    expect(bandsQuery(choice)).toBe('preset=default&min=85&min=75&min=65&min=40')
    const wrong = bandsFromQuery(q('preset=default&min=85&min=90&min=65&min=40'))
    expect(wrong.error).toEqual({ key: 'grades.bandErrors.order', values: { band: 2 } })
    expect(wrong.bands).toEqual(bandPresets.default)
    expect(bandsFromQuery(q('min=abc&min=80&min=70&min=50')).error?.key).toBe('grades.bandErrors.min')
  })

  it('starts from the other preset’s own thresholds when the preset is switched', () => {
    const choice = bandsFromQuery(q('preset=elementary&shown=default&min=90&min=80&min=70&min=50'))
    expect(choice).toEqual({ preset: 'elementary', bands: bandPresets.elementary, custom: false, error: null })
    expect(bandsQuery(choice)).toBe('preset=elementary')
    expect(bandsQuery(bandsFromQuery(q('')))).toBe('')
  })
})
