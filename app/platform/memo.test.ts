import { describe, expect, it } from 'vitest'
import { memoize } from './memo.server.ts'

describe('memoize', () => {
  it('answers from memory within its time, asks again after, per scope, and forgets failures', async () => {
    const scope = {}
    let calls = 0
    const load = async () => ++calls
    expect(await memoize(scope, 'k', 50, load)).toBe(1)
    expect(await memoize(scope, 'k', 50, load)).toBe(1)
    expect(await memoize({}, 'k', 50, load)).toBe(2)
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect(await memoize(scope, 'k', 50, load)).toBe(3)
    await expect(memoize(scope, 'bad', 1000, () => Promise.reject(new Error('down')))).rejects.toThrow('down')
    expect(await memoize(scope, 'bad', 1000, load)).toBe(4)
  })
})
