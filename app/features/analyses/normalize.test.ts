import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { cleanText, hasArabic, normalizeLabel, normalizeName, normalizeText } from './normalize.ts'

describe('normalizeText', () => {
  it('removes tashkeel, superscript alef, tatweel and bidi marks', () => {
    expect(normalizeText('مُحَمَّدٌ')).toBe('محمد')
    expect(normalizeText('رحمٰن')).toBe('رحمن')
    expect(normalizeText('محـــمد')).toBe('محمد')
    expect(normalizeText('\u200Fعلي\u200E \u202Bأحمد\u202C')).toBe('علي احمد')
    expect(normalizeText('a\u200Cb\u200Dc\u202Ad\u202Ee')).toBe('abcde')
  })

  it('maps every alef with hamza or madda and alef wasla to a bare alef, and alef maqsura to yeh', () => {
    expect(normalizeText('أإآٱ')).toBe('اااا')
    expect(normalizeText('مصطفى')).toBe('مصطفي')
    // decomposed alef + madda is composed by NFKC first, then mapped
    expect(normalizeText('\u0627\u0653')).toBe('ا')
  })

  it('turns Arabic-Indic and Eastern Arabic-Indic digits into ASCII', () => {
    expect(normalizeText('٠١٢٣٤٥٦٧٨٩')).toBe('0123456789')
    expect(normalizeText('۰۱۲۳۴۵۶۷۸۹')).toBe('0123456789')
    expect(normalizeText('١٤٤٧/٠٣/٠١')).toBe('1447/03/01')
  })

  it('applies NFKC (presentation forms, full-width characters) and collapses white space', () => {
    expect(normalizeText('\uFEE3\uFEA4\uFEE4\uFEAA')).toBe('محمد')
    expect(normalizeText('ＩＤ１２')).toBe('ID12')
    expect(normalizeText('  اسم \t\n  الطالب\u00A0 ')).toBe('اسم الطالب')
    expect(normalizeText('')).toBe('')
  })

  it('keeps ta marbuta (only name matching maps it)', () => {
    expect(normalizeText('فاطمة')).toBe('فاطمة')
    expect(normalizeName('فاطمة')).toBe('فاطمه')
  })

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'أإآٱىةمحد ٠١۹\u064B\u0640\u200F aBc\t'.split('')) }), (text) => {
        expect(normalizeText(normalizeText(text))).toBe(normalizeText(text))
        expect(normalizeName(normalizeName(text))).toBe(normalizeName(text))
      }),
    )
  })
})

describe('normalizeLabel', () => {
  it('lower-cases Latin text for header and status comparison', () => {
    expect(normalizeLabel('  Student   NAME ')).toBe('student name')
    expect(normalizeLabel('الحالة')).toBe('الحالة')
  })
})

describe('cleanText', () => {
  it('drops the marks that only make spellings differ but keeps letters as written', () => {
    expect(cleanText(' مُحمّد  أَحمد   ')).toBe('محمد أحمد')
    expect(cleanText('فاطمة إبراهيم')).toBe('فاطمة إبراهيم')
    expect(cleanText('الصف ٨ / ۳')).toBe('الصف 8 / 3')
  })
})

describe('hasArabic', () => {
  it('tells Arabic text from Latin text and digits', () => {
    expect(hasArabic('عام')).toBe(true)
    expect(hasArabic('General')).toBe(false)
    expect(hasArabic('١٢')).toBe(false)
  })
})
