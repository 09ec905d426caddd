import { describe, expect, test } from 'vitest'
import { balancedRows, LINE_CAPACITIES, lineSizes } from './balanced-rows.ts'

describe('balancedRows', () => {
  test('the reports’ counts break evenly, never one card alone on the last line', () => {
    expect(balancedRows(8, 6)).toEqual([4, 4])
    expect(balancedRows(7, 6)).toEqual([4, 3])
    expect(balancedRows(8, 3)).toEqual([3, 3, 2])
    expect(balancedRows(7, 2)).toEqual([1, 2, 2, 2])
    expect(balancedRows(6, 4)).toEqual([3, 3])
    expect(balancedRows(3, 2)).toEqual([1, 2])
  })

  test('one card is one line; none is none', () => {
    expect(balancedRows(1, 4)).toEqual([1])
    expect(balancedRows(0, 4)).toEqual([])
  })

  test('for every count up to 24 and every capacity: all cards placed, no line over capacity, the last line never alone', () => {
    for (const capacity of LINE_CAPACITIES) {
      for (let count = 2; count <= 24; count++) {
        const rows = balancedRows(count, capacity)
        expect(rows.reduce((a, b) => a + b, 0)).toBe(count)
        expect(Math.max(...rows)).toBeLessThanOrEqual(capacity)
        expect(rows.at(-1), `${count} cards, ${capacity} a line`).toBeGreaterThanOrEqual(2)
        // As few lines as fit.
        expect(rows.length).toBe(Math.ceil(count / capacity))
      }
    }
  })

  test('lineSizes gives each card the size of its line under each capacity', () => {
    expect(lineSizes(3)).toEqual([
      { 2: 1, 3: 3, 4: 3, 6: 3 },
      { 2: 2, 3: 3, 4: 3, 6: 3 },
      { 2: 2, 3: 3, 4: 3, 6: 3 },
    ])
  })
})
