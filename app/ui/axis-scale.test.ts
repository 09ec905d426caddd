import { describe, expect, it } from 'vitest'
import { axisScale } from './charts.tsx'

// The column charts' axis (the operator dashboard): round steps, whole units, about four of them.
describe('axisScale', () => {
  it('steps in whole counts, never half a sign-up', () => {
    expect(axisScale(0, 1)).toEqual({ step: 1, top: 1 })
    expect(axisScale(2, 1)).toEqual({ step: 1, top: 2 })
    // 30 / 4 = 7.5 → a step of 10, three of them.
    expect(axisScale(30, 1)).toEqual({ step: 10, top: 30 })
    expect(axisScale(31, 1)).toEqual({ step: 10, top: 40 })
  })

  it('steps in whole riyals for halalas', () => {
    // Nothing earned: one riyal, not five zeros.
    expect(axisScale(0, 100)).toEqual({ step: 100, top: 100 })
    // SAR 33.35 → steps of SAR 10 up to SAR 40.
    expect(axisScale(3335, 100)).toEqual({ step: 1000, top: 4000 })
    // SAR 147.20 → 36.80 a quarter → steps of SAR 50 up to SAR 150.
    expect(axisScale(14_720, 100)).toEqual({ step: 5000, top: 15_000 })
  })
})
