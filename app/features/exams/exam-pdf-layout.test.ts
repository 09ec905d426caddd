import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import type { Lang } from '#app/i18n/config.ts'
import { embeddedFonts } from '#app/platform/pdf.server.ts'
import { examPrintData, renderExamPdf, type ExamPrintKind } from './exam-pdf.server.ts'
import { examSchema } from './schemas.ts'
import { examRecordOf, sampleExamBody } from '#tests/exams.ts'

// Where things land on the printed page, read back from the PDF as poppler reads it: the header
// block's lines must not run into each other, the date must stay on one line, and a matching
// question's second column must sit beside its numbers, in both languages, for the test, its key
// and its shuffled versions.

type Box = { text: string; xMin: number; yMin: number; xMax: number; yMax: number }
type Page = { lines: Array<Box & { words: Box[] }>; words: Box[] }

const unescape = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')
const boxOf = (attributes: string, text: string): Box => {
  const at = (name: string) => Number(new RegExp(`${name}="([\\d.-]+)"`).exec(attributes)?.[1])
  return { text: unescape(text), xMin: at('xMin'), yMin: at('yMin'), xMax: at('xMax'), yMax: at('yMax') }
}

/** Each page's lines and words with their boxes, in points from the page's top left (`pdftotext -bbox-layout`). */
function layoutOf(pdf: Uint8Array): Page[] {
  const xml = execFileSync('/usr/bin/pdftotext', ['-bbox-layout', '-', '-'], { input: pdf }).toString('utf8')
  return [...xml.matchAll(/<page [^>]*>([\s\S]*?)<\/page>/g)].map(([, page = '']) => {
    const lines = [...page.matchAll(/<line ([^>]*)>([\s\S]*?)<\/line>/g)].map(([, attributes = '', body = '']) => {
      const words = [...body.matchAll(/<word ([^>]*)>([^<]*)<\/word>/g)].map(([, a = '', text = '']) => boxOf(a, text))
      return { ...boxOf(attributes, words.map((w) => w.text).join(' ')), words }
    })
    return { lines, words: lines.flatMap((l) => l.words) }
  })
}

// poppler writes an Arabic word's letters in the order they stand on the page, right to left.
const onPage = (word: string) => (/\p{Script=Arabic}/u.test(word) ? [...word].toReversed().join('') : word)

// Boxes that merely touch (a word and the punctuation after it, a line's descent and the next
// line's ascent) are not an overlap: 0.5 pt is a sixth of a millimetre.
const TOUCH = 0.5
const overlaps = (a: Box, b: Box) =>
  Math.min(a.xMax, b.xMax) - Math.max(a.xMin, b.xMin) > TOUCH && Math.min(a.yMax, b.yMax) - Math.max(a.yMin, b.yMin) > TOUCH
const sameRow = (a: Box, b: Box) => Math.min(a.yMax, b.yMax) - Math.max(a.yMin, b.yMin) > 0.5 * Math.min(a.yMax - a.yMin, b.yMax - b.yMin)

function overlapping(boxes: Box[]) {
  const pairs: string[] = []
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => overlaps(a, b) && pairs.push(`«${a.text}» × «${b.text}»`)))
  return pairs
}

// The longest values a teacher realistically types: a 60-character title, a school name that
// wraps, a two-word subject and grade, the date with the year's longest month names, 90 minutes.
const long = {
  ar: {
    title: 'اختبار نهاية الفصل الدراسي الأول في مادة العلوم للصف الخامس.',
    school_name: 'مدرسة الأمير عبدالعزيز بن مساعد بن جلوي الابتدائية لتحفيظ القرآن الكريم بالرياض',
    subject: 'العلوم والتقنية',
    grade: 'الصف الخامس الابتدائي',
    date: '2025-11-10',
    duration_minutes: 90,
    info: 'أجب عن جميع الأسئلة الآتية.',
    questions: [
      {
        type: 'matching',
        text: 'صل كل مادة بصيغتها الكيميائية:',
        marks: 3,
        pairs: [
          { left: 'الماء', right: 'H2O' },
          { left: 'ثاني أكسيد الكربون', right: 'CO2' },
          { left: 'ملح الطعام', right: 'كلوريد الصوديوم' },
        ],
      },
      {
        type: 'multiple_choice',
        text: 'أي الكواكب أقرب إلى الشمس؟',
        marks: 1,
        options: ['عطارد', 'الزهرة', 'الأرض', 'المريخ'],
        correct: 0,
      },
    ],
  },
  en: {
    title: 'End of first term examination in Science for Grade 5 classes',
    school_name: 'Prince Abdulaziz bin Musaed bin Jalawi Primary School for Quran Memorisation, Riyadh',
    subject: 'Science and Technology',
    grade: 'Grade 5 (Primary)',
    date: '2025-12-10',
    duration_minutes: 90,
    info: 'Answer all the questions.',
    questions: [
      {
        type: 'matching',
        text: 'Match each word with its meaning in Arabic:',
        marks: 3,
        pairs: [
          { left: 'Heart', right: 'القلب' },
          { left: 'Lungs', right: 'الرئتان' },
          { left: 'Stomach', right: 'Digests food' },
        ],
      },
      {
        type: 'multiple_choice',
        text: 'Which planet is closest to the Sun?',
        marks: 1,
        options: ['Mercury', 'Venus', 'Earth', 'Mars'],
        correct: 0,
      },
    ],
  },
} as const
const expectedDate = { ar: '10 نوفمبر 2025م — 19 جمادى الأولى 1447هـ', en: '10 December 2025 — 19 Jumada II 1447 AH' }
// The word that starts the student's name line, just under the header block's rule.
const nameLine = { ar: 'اسم', en: "Student's" }
const kinds: Array<[string, ExamPrintKind, number]> = [
  ['test', { answers: false, versions: null }, 1],
  ['key', { answers: true, versions: null }, 1],
  ['versions', { answers: false, versions: 2 }, 4],
]

const examIn = (lang: Lang, overrides: Record<string, unknown> = {}) =>
  examRecordOf(examSchema.parse(sampleExamBody({ ...long[lang], ...overrides })))
const render = (lang: Lang, kind: ExamPrintKind) => renderExamPdf(examIn(lang), { lang, ...kind, images: new Map() })

// Each PDF is rendered once and read by every test that needs it.
const rendered = new Map<string, Uint8Array>()
const pdfOf = (lang: Lang, kind: ExamPrintKind) => {
  const key = `${lang} ${JSON.stringify(kind)}`
  if (!rendered.has(key)) rendered.set(key, render(lang, kind))
  return rendered.get(key) as Uint8Array
}

/** The header block of every document in the PDF: its words and lines above the student's name line. */
function headersOf(lang: Lang, kind: ExamPrintKind) {
  return layoutOf(pdfOf(lang, kind)).flatMap((page) => {
    const top = page.words.find((w) => w.text === onPage(nameLine[lang]))
    if (!top) return []
    const inHeader = (b: Box) => b.yMax <= top.yMin + TOUCH
    return [{ words: page.words.filter(inHeader), lines: page.lines.filter(inHeader) }]
  })
}

describe('the printed header block', () => {
  it('writes the date on one line, Gregorian then Umm al-Qura, with each calendar’s era', () => {
    const field = (lang: Lang, date?: string) => {
      const { data } = examPrintData(examIn(lang, date ? { date } : {}), { lang, answers: false, versions: null, images: new Map() })
      return data.header.fields.find((f) => f.label === { ar: 'التاريخ', en: 'Date' }[lang])?.value
    }
    expect(examIn('ar').title).toHaveLength(60)
    expect(examIn('en').title).toHaveLength(60)
    expect(field('ar')).toBe(expectedDate.ar)
    expect(field('en')).toBe(expectedDate.en)
    expect(field('ar', '2025-10-12')).toBe('12 أكتوبر 2025م — 20 ربيع الآخر 1447هـ')
    expect(field('en', '2025-10-12')).toBe('12 October 2025 — 20 Rabiʻ II 1447 AH')
  })

  for (const lang of ['ar', 'en'] as const) {
    for (const [name, kind, documents] of kinds) {
      it(`${lang} ${name}: no two words or lines of the header overlap`, () => {
        const headers = headersOf(lang, kind)
        // Every document (the test, the key, each version and its key) opens with the header.
        expect(headers).toHaveLength(documents)
        for (const header of headers) {
          expect(header.words.length).toBeGreaterThan(25)
          expect(overlapping(header.words), 'words').toEqual([])
          expect(overlapping(header.lines), 'lines').toEqual([])
        }
      })

      it(`${lang} ${name}: the date is one line, in the size of the other values`, () => {
        for (const header of headersOf(lang, kind)) {
          // Its two years stand on one line, as tall as the duration's figure: the same font and size.
          const year = header.words.find((w) => w.text.includes('2025'))
          const hijriYear = header.words.find((w) => w.text.includes('1447'))
          const minutes = header.words.find((w) => w.text === '90')
          if (!year || !hijriYear || !minutes) throw new Error('the date or the duration is missing from the header')
          expect(sameRow(year, hijriYear), `${year.text} and ${hijriYear.text} on one line`).toBe(true)
          for (const figure of [year, hijriYear])
            expect(Math.abs(figure.yMax - figure.yMin - (minutes.yMax - minutes.yMin)), `height of ${figure.text}`).toBeLessThan(0.2)
        }
        // In reading order too: one line, as the teacher reads it.
        const text = execFileSync('/usr/bin/pdftotext', ['-layout', '-', '-'], { input: pdfOf(lang, kind) })
          .toString('utf8')
          .replace(/[\u202A-\u202E]/g, '')
        const pattern = expectedDate[lang]
          .split(' ')
          .map((w) => w.replace(/(\d+)/, '$1\\s*'))
          .join('\\s*')
        expect(text.match(new RegExp(pattern, 'g'))).toHaveLength(documents)
      })
    }
  }

  it('prints an English test without Arabic in Plex only: the ʻ of Rabiʻ II is not borrowed from the Arabic face', () => {
    const exam = examIn('en', { date: '2025-10-12', questions: [long.en.questions[1]] })
    const pdf = renderExamPdf(exam, { lang: 'en', answers: true, versions: null, images: new Map() })
    expect(embeddedFonts(pdf).filter((font) => !font.startsWith('IBMPlexSansArabic-'))).toEqual([])
  })
})

describe('a matching question’s second column', () => {
  // Each value of column B follows its numbered square after the cell's padding (2 × 1.2 mm) and
  // the square's own margin around its figure: about 12 pt. 20 pt (7 mm, two letters) allows for
  // the fonts' side bearings; a value pushed to the far side of its column is 60 pt away or more.
  const NEAR = 20
  for (const lang of ['ar', 'en'] as const) {
    for (const [name, kind, documents] of kinds) {
      it(`${lang} ${name}: each value sits beside its number, whatever its own direction`, () => {
        const pages = layoutOf(pdfOf(lang, kind))
        const values = long[lang].questions[0].pairs.map((p) => p.right)
        let seen = 0
        for (const page of pages) {
          for (const value of values) {
            const pieces = value.split(' ').map(onPage)
            for (const first of page.words.filter((w) => w.text === pieces[0])) {
              const row = page.words.filter((w) => sameRow(w, first))
              const words = row.filter((w) => pieces.includes(w.text))
              const box = { xMin: Math.min(...words.map((w) => w.xMin)), xMax: Math.max(...words.map((w) => w.xMax)) }
              const figures = row.filter((w) => /^\d+$/.test(w.text))
              // The number is the nearest figure on the reading side of the value: the right in Arabic.
              const gap =
                lang === 'ar'
                  ? Math.min(...figures.filter((f) => f.xMin >= box.xMax - TOUCH).map((f) => f.xMin - box.xMax))
                  : Math.min(...figures.filter((f) => f.xMax <= box.xMin + TOUCH).map((f) => box.xMin - f.xMax))
              expect(gap, `${value}: ${gap.toFixed(1)} pt from its number`).toBeLessThan(NEAR)
              seen++
            }
          }
        }
        // Every value in every document: the test or its key, or each version and its key.
        expect(seen).toBe(values.length * documents)
      })
    }
  }
})
