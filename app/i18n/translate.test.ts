import { describe, expect, it } from 'vitest'
import { createTranslator } from './translate.ts'

const messages = {
  demo: {
    hello: 'مرحباً {name}',
    months: { zero: 'بدون', one: 'شهر واحد', two: 'شهران', few: '{count} أشهر', many: '{count} شهراً', other: '{count} شهر' },
    list: ['a', 'b'],
  },
}

describe('createTranslator', () => {
  const { t, tm } = createTranslator('ar', messages)

  it('fills placeholders', () => {
    expect(t('demo.hello', { name: 'سارة' })).toBe('مرحباً سارة')
  })

  it('chooses the Arabic plural form by count', () => {
    expect(t('demo.months', { count: 0 })).toBe('بدون')
    expect(t('demo.months', { count: 1 })).toBe('شهر واحد')
    expect(t('demo.months', { count: 2 })).toBe('شهران')
    expect(t('demo.months', { count: 3 })).toBe('3 أشهر')
    expect(t('demo.months', { count: 10 })).toBe('10 أشهر')
    expect(t('demo.months', { count: 11 })).toBe('11 شهراً')
    expect(t('demo.months', { count: 12 })).toBe('12 شهراً')
    expect(t('demo.months', { count: 100 })).toBe('100 شهر')
  })

  it('uses a written zero form in English too, whose plural rules call 0 "other"', () => {
    const english = createTranslator('en', {
      demo: {
        unread: { zero: 'No unread notifications', one: 'One unread notification', other: '{count} unread notifications' },
        pages: { one: '1 page', other: '{count} pages' },
      },
    })
    expect(english.t('demo.unread', { count: 0 })).toBe('No unread notifications')
    expect(english.t('demo.unread', { count: 1 })).toBe('One unread notification')
    expect(english.t('demo.unread', { count: 2 })).toBe('2 unread notifications')
    expect(english.t('demo.pages', { count: 0 })).toBe('0 pages')
  })

  it('formats numbers with Latin digits in Arabic', () => {
    expect(t('demo.months', { count: 1500 })).toBe('1,500 شهر')
  })

  it('returns the key of a missing message so it is visible and testable', () => {
    expect(t('demo.missing')).toBe('demo.missing')
  })

  it('returns structured messages', () => {
    expect(tm<string[]>('demo.list')).toEqual(['a', 'b'])
  })

  it('uses English plural rules for English', () => {
    const en = createTranslator('en', { d: { n: { one: '{count} month', other: '{count} months' } } })
    expect(en.t('d.n', { count: 1 })).toBe('1 month')
    expect(en.t('d.n', { count: 4 })).toBe('4 months')
  })
})
