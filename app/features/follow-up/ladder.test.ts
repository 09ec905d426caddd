import { describe, expect, it } from 'vitest'
import { ladderPresets, ladderProblem, presetOf, stepOf } from './ladder.ts'
import { studentKey } from './student-key.ts'

describe('stepOf on the standard ladder (3, 5, 10, 15, 25)', () => {
  const steps = ladderPresets.standard
  it.each([
    [0, null],
    [2, null],
    [3, 0],
    [4, 0],
    [5, 1],
    [9, 1],
    [10, 2],
    [15, 3],
    [24, 3],
    [25, 4],
    [180, 4],
  ])('%i unexcused days → step %s', (days, step) => {
    expect(stepOf(days, steps)).toBe(step)
  })
})

describe('stepOf on the short preset (10, 15, 20)', () => {
  it.each([
    [9, null],
    [10, 0],
    [19, 1],
    [20, 2],
  ])('%i unexcused days → step %s', (days, step) => {
    expect(stepOf(days, ladderPresets.short)).toBe(step)
  })
  it('ends with the referral, not the change of enrolment', () => {
    expect(ladderPresets.short.map((s) => s.document)).toEqual(['firstWarning', 'secondWarning', 'counsellorReferral'])
  })
})

describe('ladderProblem and presetOf', () => {
  it('accepts both presets and names them', () => {
    expect(ladderProblem(ladderPresets.standard)).toBeNull()
    expect(ladderProblem(ladderPresets.short)).toBeNull()
    expect(presetOf(ladderPresets.standard)).toBe('standard')
    expect(presetOf(ladderPresets.short)).toBe('short')
  })
  it('refuses steps out of order, out of range, unnamed or too many', () => {
    expect(ladderProblem([])).toBe('count')
    expect(
      ladderProblem([
        { days: 5, name: null, document: 'firstWarning' },
        { days: 5, name: null, document: 'secondWarning' },
      ]),
    ).toBe('ascending')
    expect(ladderProblem([{ days: 0, name: null, document: 'firstWarning' }])).toBe('days')
    expect(ladderProblem([{ days: 2.5, name: null, document: 'firstWarning' }])).toBe('days')
    expect(ladderProblem([{ days: 3, name: '  ', document: 'firstWarning' }])).toBe('name')
    const nine = Array.from({ length: 9 }, (_, i) => ({ days: i + 1, name: null, document: 'firstWarning' as const }))
    expect(ladderProblem(nine)).toBe('count')
  })
  it('calls an edited ladder no preset', () => {
    expect(presetOf([{ ...ladderPresets.standard[0]!, days: 4 }, ...ladderPresets.standard.slice(1)])).toBeNull()
    expect(presetOf(ladderPresets.standard.map((s) => ({ ...s, name: 'x' })))).toBeNull()
  })
})

describe('studentKey', () => {
  it('recognises a student by ID whatever the classroom', () => {
    const a = studentKey({ studentId: '1100000001', name: 'سارة علي', grade: 'الأول', classroom: '1' })
    const b = studentKey({ studentId: '1100000001', name: 'ساره علي', grade: 'الأول', classroom: '2' })
    expect(a).toBe(b)
  })
  it('without an ID, by the normalised name, grade and classroom', () => {
    const a = studentKey({ studentId: null, name: 'أحمد  محمد', grade: 'الأول', classroom: '1' })
    expect(studentKey({ studentId: '', name: 'احمد محمد', grade: 'الأول', classroom: '1' })).toBe(a)
    expect(studentKey({ studentId: null, name: 'احمد محمد', grade: 'الأول', classroom: '2' })).not.toBe(a)
  })
})
