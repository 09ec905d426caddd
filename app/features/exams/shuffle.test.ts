import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Question } from './schemas.ts'
import { permutation, printedTest, printedVersions, seededRandom, type PrintedQuestion } from './shuffle.ts'
import { sampleExam } from '#tests/exams.ts'

const questions = sampleExam().questions

/** What a student must answer for each question, in words (so it survives any reordering). */
function answerInWords(q: PrintedQuestion | Question): string {
  switch (q.type) {
    case 'multiple_choice':
      return q.options[q.correct] as string
    case 'checkbox':
      return q.correct
        .map((i) => q.options[i])
        .sort()
        .join('|')
    case 'true_false':
      return String(q.correct)
    case 'matching':
      // Each first-column item with the second-column text at the number the key gives.
      if ('key' in q)
        return q.pairs.map((p, i) => `${p.left}→${q.pairs[q.rightOrder[(q.key[i] as number) - 1] as number]?.right}`).join('|')
      return q.pairs.map((p) => `${p.left}→${p.right}`).join('|')
    case 'fill_blank':
      return q.answers.join('|')
    case 'essay':
      return ''
  }
}

describe('seededRandom', () => {
  it('gives the same sequence for the same seed and another for another seed', () => {
    const a = seededRandom('exam-1:A')
    const b = seededRandom('exam-1:A')
    const c = seededRandom('exam-1:B')
    const first = Array.from({ length: 50 }, () => a())
    expect(Array.from({ length: 50 }, () => b())).toEqual(first)
    expect(Array.from({ length: 50 }, () => c())).not.toEqual(first)
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true)
  })

  it('spreads evenly enough for shuffling (every position of 4 options about a quarter of the time)', () => {
    const counts = [0, 0, 0, 0]
    for (let i = 0; i < 4000; i++) counts[permutation(4, seededRandom(`seed-${i}`)).indexOf(0)]! += 1
    for (const count of counts) expect(count).toBeGreaterThan(850)
  })

  it('makes permutations', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 0, max: 40 }), (seed, n) => {
        expect(permutation(n, seededRandom(seed)).toSorted((x, y) => x - y)).toEqual(Array.from({ length: n }, (_, i) => i))
      }),
    )
  })
})

describe('printedTest', () => {
  it('keeps the teacher’s order and answers, and shuffles only each matching column, the same way every time', () => {
    const test = printedTest(questions, 'exam-1')
    expect(test.label).toBeNull()
    expect(test.questions.map((q) => q.number)).toEqual([1, 2, 3, 4, 5, 6])
    expect(test.questions.map((q) => q.text)).toEqual(questions.map((q) => q.text))
    const matching = test.questions[4]
    if (matching?.type !== 'matching') throw new Error('expected matching')
    expect(matching.rightOrder).not.toEqual([0, 1, 2])
    expect(matching.rightOrder.toSorted()).toEqual([0, 1, 2])
    expect(answerInWords(matching)).toBe(answerInWords(questions[4] as Question))
    expect(printedTest(questions, 'exam-1')).toEqual(test)
  })
})

describe('printedVersions', () => {
  it('gives the same versions for the same seed', () => {
    expect(printedVersions(questions, 'exam-1', 4)).toEqual(printedVersions(questions, 'exam-1', 4))
    expect(printedVersions(questions, 'exam-1', 2)).toEqual(printedVersions(questions, 'exam-1', 4).slice(0, 2))
  })

  it('labels A to D and shuffles the questions differently per version and per seed', () => {
    const versions = printedVersions(questions, 'exam-1', 4)
    expect(versions.map((v) => v.label)).toEqual(['A', 'B', 'C', 'D'])
    const orders = versions.map((v) => v.questions.map((q) => q.text).join('\n'))
    expect(new Set(orders).size).toBe(4)
    expect(orders).not.toContain(questions.map((q) => q.text).join('\n'))
    expect(printedVersions(questions, 'exam-2', 2).map((v) => v.questions.map((q) => q.text))).not.toEqual(
      versions.slice(0, 2).map((v) => v.questions.map((q) => q.text)),
    )
    for (const v of versions) expect(v.questions.map((q) => q.number)).toEqual([1, 2, 3, 4, 5, 6])
  })

  it('moves the answers of multiple-choice and checkbox questions, and the key follows them', () => {
    for (const version of printedVersions(questions, 'exam-1', 4)) {
      for (const printed of version.questions) {
        const original = questions.find((q) => q.text === printed.text) as Question
        expect({ at: `${version.label} ${printed.type}`, answer: answerInWords(printed) }).toEqual({
          at: `${version.label} ${printed.type}`,
          answer: answerInWords(original),
        })
        const options = (q: PrintedQuestion | Question) => ('options' in q ? q.options : [])
        // The same options in another order (an order left as it was would be no shuffle at all).
        expect(options(printed).toSorted()).toEqual(options(original).toSorted())
        expect(options(printed).length === 0 || options(printed).join() !== options(original).join()).toBe(true)
      }
    }
  })

  it('keeps every answer key right for any test and seed', () => {
    const option = fc.string({ minLength: 1, maxLength: 6 })
    const question: fc.Arbitrary<Question> = fc.oneof(
      fc.record({
        type: fc.constant('multiple_choice' as const),
        text: fc.uuid(),
        marks: fc.constant(1),
        image: fc.constant(null),
        options: fc.uniqueArray(option, { minLength: 4, maxLength: 4 }),
        correct: fc.integer({ min: 0, max: 3 }),
      }),
      fc.uniqueArray(option, { minLength: 2, maxLength: 6 }).chain((options) =>
        fc.record({
          type: fc.constant('checkbox' as const),
          text: fc.uuid(),
          marks: fc.constant(1),
          image: fc.constant(null),
          options: fc.constant(options),
          correct: fc
            .uniqueArray(fc.integer({ min: 0, max: options.length - 1 }), { minLength: 1 })
            .map((c) => c.toSorted((a, b) => a - b)),
        }),
      ),
      fc.record({
        type: fc.constant('true_false' as const),
        text: fc.uuid(),
        marks: fc.constant(1),
        image: fc.constant(null),
        correct: fc.boolean(),
      }),
      fc.record({
        type: fc.constant('matching' as const),
        text: fc.uuid(),
        marks: fc.constant(1),
        image: fc.constant(null),
        pairs: fc.uniqueArray(fc.record({ left: option, right: option }), { minLength: 2, maxLength: 10, selector: (p) => p.left }),
      }),
    )
    fc.assert(
      fc.property(fc.array(question, { minLength: 1, maxLength: 12 }), fc.string(), fc.integer({ min: 2, max: 4 }), (qs, seed, count) => {
        const versions = printedVersions(qs, seed, count)
        expect(versions).toHaveLength(count)
        for (const version of versions) {
          expect(version.questions.map((q) => q.text).toSorted()).toEqual(qs.map((q) => q.text).toSorted())
          for (const printed of version.questions)
            expect(answerInWords(printed)).toBe(answerInWords(qs.find((q) => q.text === printed.text) as Question))
        }
      }),
      { numRuns: 200 },
    )
  })
})
