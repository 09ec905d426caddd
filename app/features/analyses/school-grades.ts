import { normalizeName } from './normalize.ts'

/**
 * School order of grades and classrooms (docs/absence.md, "Order"): grades first to twelfth, whatever
 * way they are written (الأول الابتدائي … الثالث الثانوي, الصف السابع, Grade 7, First
 * intermediate, 7th grade), unknown grade names after them by name, then classrooms by number.
 */

const arabicOrdinals = new Map<string, number>([
  ['اول', 1],
  ['اولي', 1],
  ['ثاني', 2],
  ['ثانيه', 2],
  ['ثالث', 3],
  ['ثالثه', 3],
  ['رابع', 4],
  ['رابعه', 4],
  ['خامس', 5],
  ['خامسه', 5],
  ['سادس', 6],
  ['سادسه', 6],
  ['سابع', 7],
  ['ثامن', 8],
  ['تاسع', 9],
  ['عاشر', 10],
])
const englishOrdinals = new Map<string, number>([
  ['first', 1],
  ['second', 2],
  ['third', 3],
  ['fourth', 4],
  ['fifth', 5],
  ['sixth', 6],
  ['seventh', 7],
  ['eighth', 8],
  ['ninth', 9],
  ['tenth', 10],
  ['eleventh', 11],
  ['twelfth', 12],
  ['1st', 1],
  ['2nd', 2],
  ['3rd', 3],
  ['4th', 4],
  ['5th', 5],
  ['6th', 6],
  ['7th', 7],
  ['8th', 8],
  ['9th', 9],
  ['10th', 10],
  ['11th', 11],
  ['12th', 12],
])
/** Stage → [grades before it, grades in it]. */
const stages = new Map<string, readonly [number, number]>([
  ['ابتدائي', [0, 6]],
  ['ابتدائيه', [0, 6]],
  ['primary', [0, 6]],
  ['elementary', [0, 6]],
  ['متوسط', [6, 3]],
  ['متوسطه', [6, 3]],
  ['intermediate', [6, 3]],
  ['middle', [6, 3]],
  ['ثانوي', [9, 3]],
  ['ثانويه', [9, 3]],
  ['secondary', [9, 3]],
  ['high', [9, 3]],
])
const separators = /[\s\-_/\\,.()]+/

const withoutArticle = (word: string) => (word.startsWith('ال') && word.length > 3 ? word.slice(2) : word)

function computeRank(text: string): number | null {
  const words = normalizeName(text).toLowerCase().split(separators).filter(Boolean)
  let ordinal: number | null = null
  let stage: readonly [number, number] | undefined
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string
    const bare = withoutArticle(word)
    stage ??= stages.get(bare) ?? stages.get(word)
    if (ordinal !== null) continue
    if (words[i + 1] === 'عشر' && (bare === 'حادي' || bare === 'ثاني')) ordinal = bare === 'حادي' ? 11 : 12
    else if (/^\d{1,2}$/.test(word)) ordinal = Number(word)
    else ordinal = arabicOrdinals.get(bare) ?? englishOrdinals.get(word) ?? null
  }
  if (ordinal === null || ordinal < 1) return null
  if (stage) return ordinal <= stage[1] ? stage[0] + ordinal : null
  return ordinal <= 12 ? ordinal : null
}

const ranks = new Map<string, number | null>()

/** 1–12 for a recognised grade (first primary = 1, first intermediate = 7, third secondary = 12), else null. */
export function gradeRank(text: string): number | null {
  let rank = ranks.get(text)
  if (rank === undefined) {
    rank = computeRank(text)
    if (ranks.size > 10_000) ranks.clear()
    ranks.set(text, rank)
  }
  return rank
}

/** The classroom's number (`2`, `٢`, `2/أ`), or null when it does not start with one. */
export function classroomNumber(text: string): number | null {
  const match = /^\d+/.exec(normalizeName(text))
  return match ? Number(match[0]) : null
}

/**
 * The key names sort by: code-point order of normalised, lower-cased text is alphabetical for
 * Arabic (one alef, ى → ي, ة → ه) and for Latin, and the same on every machine (unlike a
 * locale's collation). Precompute it when sorting many names.
 */
export function nameSortKey(text: string): string {
  return normalizeName(text).toLowerCase()
}

function compareText(a: string, b: string): number {
  const x = nameSortKey(a)
  const y = nameSortKey(b)
  return x < y ? -1 : x > y ? 1 : 0
}

/** Order of names (students, unknown grades): alphabetical on the normalised text. */
export function compareNames(a: string, b: string): number {
  return compareText(a, b)
}

/** School order of two grades: recognised grades first to twelfth, then the others by name. */
export function compareGrades(a: string, b: string): number {
  const x = gradeRank(a)
  const y = gradeRank(b)
  if (x !== y) return x === null ? 1 : y === null ? -1 : x - y
  return compareText(a, b)
}

/** Classrooms by grade in school order, then by classroom number (numerically), then by name. */
export function compareClassrooms(a: { grade: string; classroom: string }, b: { grade: string; classroom: string }): number {
  const byGrade = compareGrades(a.grade, b.grade)
  if (byGrade !== 0) return byGrade
  const x = classroomNumber(a.classroom)
  const y = classroomNumber(b.classroom)
  if (x !== y) return x === null ? 1 : y === null ? -1 : x - y
  return compareText(a.classroom, b.classroom)
}
