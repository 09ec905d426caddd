import { describe, expect, it } from 'vitest'
import { addToast, TOAST_LIMIT, type ToastItem } from './toaster.tsx'

describe('toasts', () => {
  it('keeps at most twenty, dropping the oldest', () => {
    let list: ToastItem[] = []
    for (let i = 0; i < 25; i++) list = addToast(list, { id: String(i), kind: 'info', message: `m${i}` })
    expect(list).toHaveLength(TOAST_LIMIT)
    expect(list[0]?.id).toBe('5')
    expect(list.at(-1)?.id).toBe('24')
  })
})
