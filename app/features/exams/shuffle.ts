import type { Question } from './schemas.ts'

// Shuffled versions of a test. Everything is derived from a seed string, so the same test and
// seed always print the same versions (a reprint matches the copies already handed out), and
// each version's answer key is computed from the very order that version prints.

export type Random = () => number

/** A deterministic generator in [0, 1) from any string (FNV-1a into sfc32). */
export function seededRandom(seed: string): Random {
  const hashes = [0x811c9dc5, 0x01000193, 0x9e3779b9, 0x85ebca6b].map((basis) => {
    let h = basis >>> 0
    for (let i = 0; i < seed.length; i++) {
      h ^= seed.charCodeAt(i)
      h = Math.imul(h, 0x01000193) >>> 0
    }
    return h
  })
  let [a, b, c, d] = hashes as [number, number, number, number]
  const next = () => {
    a >>>= 0
    b >>>= 0
    c >>>= 0
    d >>>= 0
    let t = (a + b) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    d = (d + 1) | 0
    t = (t + d) | 0
    c = (c + t) | 0
    return (t >>> 0) / 4294967296
  }
  // The first outputs of sfc32 still echo the seed: throw them away.
  for (let i = 0; i < 12; i++) next()
  return next
}

/** A Fisher–Yates permutation of 0…n-1. */
export function permutation(n: number, random: Random): number[] {
  const order = Array.from({ length: n }, (_, i) => i)
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[order[i], order[j]] = [order[j] as number, order[i] as number]
  }
  return order
}

const isIdentity = (order: readonly number[]) => order.every((v, i) => v === i)

/**
 * A permutation that moves something whenever it can: a matching column printed in its
 * original order, or a version identical to the test, would give the answers away.
 */
function movingPermutation(n: number, seed: string): number[] {
  for (let attempt = 0; attempt < 16; attempt++) {
    const order = permutation(n, seededRandom(attempt ? `${seed}#${attempt}` : seed))
    if (n < 2 || !isIdentity(order)) return order
  }
  // Sixteen identities in a row cannot happen for n ≥ 2 in practice; rotate by one to be sure.
  return Array.from({ length: n }, (_, i) => (i + 1) % n)
}

/** A question as one printed copy shows it: options in print order, the matching column shuffled. */
export type PrintedQuestion =
  | (Extract<Question, { type: 'multiple_choice' | 'checkbox' }> & { number: number })
  | (Extract<Question, { type: 'true_false' | 'essay' | 'fill_blank' }> & { number: number })
  | (Extract<Question, { type: 'matching' }> & {
      number: number
      /** The second column top to bottom, as indexes into `pairs`. */
      rightOrder: number[]
      /** For each first-column item, the number (1-based) of its match in the printed second column. */
      key: number[]
    })

export type PrintedVersion = {
  /** null for the test as written; 'A'…'D' for shuffled versions. */
  label: VersionLabel | null
  questions: PrintedQuestion[]
}

export const versionLabels = ['A', 'B', 'C', 'D'] as const
export type VersionLabel = (typeof versionLabels)[number]

function reorderOptions<Q extends Extract<Question, { type: 'multiple_choice' | 'checkbox' }>>(question: Q, order: number[]): Q {
  const options = order.map((i) => question.options[i] as string)
  if (question.type === 'multiple_choice') return { ...question, options, correct: order.indexOf(question.correct) }
  const correct = question.correct.map((c) => order.indexOf(c)).sort((a, b) => a - b)
  return { ...question, options, correct } as Q
}

function printMatching(question: Extract<Question, { type: 'matching' }>, seed: string) {
  const rightOrder = movingPermutation(question.pairs.length, seed)
  return { ...question, rightOrder, key: question.pairs.map((_, i) => rightOrder.indexOf(i) + 1) }
}

/**
 * The test as written: questions and options in the teacher's order; only the second column of
 * each matching question is shuffled (seeded by the test and the question's place).
 */
export function printedTest(questions: readonly Question[], seed: string): PrintedVersion {
  return {
    label: null,
    questions: questions.map((q, i) => {
      const number = i + 1
      if (q.type === 'matching') return { ...printMatching(q, `${seed}:m:${i}`), number }
      return { ...q, number }
    }),
  }
}

/**
 * Version A, B… of a test: the questions in a shuffled order, the answers of multiple-choice and
 * checkbox questions shuffled, each matching column shuffled again; numbered in the new order.
 * Versions of one seed differ from each other in question order whenever they can.
 */
export function printedVersions(questions: readonly Question[], seed: string, count: number): PrintedVersion[] {
  const labels = versionLabels.slice(0, Math.max(1, Math.min(count, versionLabels.length)))
  const seen: string[] = []
  return labels.map((label) => {
    let order = movingPermutation(questions.length, `${seed}:${label}:q`)
    // Another version already uses this order (few questions): try a few more seeds.
    for (let attempt = 1; attempt < 24 && seen.includes(order.join()) && questions.length > 2; attempt++)
      order = movingPermutation(questions.length, `${seed}:${label}:q#${attempt}`)
    seen.push(order.join())
    return {
      label,
      questions: order.map((source, position) => {
        const question = questions[source] as Question
        const number = position + 1
        const at = `${seed}:${label}:${source}`
        switch (question.type) {
          case 'multiple_choice':
          case 'checkbox':
            return { ...reorderOptions(question, movingPermutation(question.options.length, `${at}:o`)), number }
          case 'matching':
            return { ...printMatching(question, `${at}:m`), number }
          default:
            return { ...question, number }
        }
      }),
    }
  })
}
