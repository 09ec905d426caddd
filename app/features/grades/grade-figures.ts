import { nameSortKey, percent, roundFraction, roundSqrtFraction } from '#app/features/analyses/index.ts'
import type { GradeBand } from './bands.ts'

/**
 * The figures of one group of scores (a subject, or a classroom in it), docs/grades.md "The
 * figures". Scores are whole numbers of 10^-scale units of the subject (41.25 → 4125 when the
 * subject's scores carry two decimals), so sums are exact and every average, percentage and
 * deviation is rounded once, exactly, half away from zero.
 */

/** A band's share of the group's students (percentage: two decimals; null for an empty group). */
export interface BandFigures {
  readonly key: string
  readonly count: number
  readonly percentage: number | null
}

/** The top or weak group: how many students and their average percent (null when empty). */
export interface PercentGroup {
  readonly count: number
  readonly average: number | null
}

export interface StudentScore {
  readonly name: string
  readonly score: number
}

/** A group's figures over the students with a score; absent students are only counted. Null: no score in the group. */
export interface ScoreFigures {
  /** Students with a score. */
  readonly students: number
  readonly absent: number
  /** Sum of the scores (exact; 0 without scores). */
  readonly total: number
  readonly average: number | null
  readonly highest: number | null
  readonly lowest: number | null
  readonly median: number | null
  /** Population standard deviation. */
  readonly stdDev: number | null
  /** Percent of the students whose percent is 50 or more. */
  readonly passRate: number | null
  readonly bands: readonly BandFigures[]
  readonly top: PercentGroup
  readonly weak: PercentGroup
  /** Top average − weak average, in percentage points. */
  readonly gap: number | null
  /** The five highest scores (ties by name), and the five lowest. */
  readonly highest5: readonly StudentScore[]
  readonly lowest5: readonly StudentScore[]
}

/** One scored student of a group. `order` (the record's position) breaks ties of score and name. */
export interface ScoredEntry {
  readonly units: number
  readonly name: string
  readonly order: number
}

/** What the figures of a subject's groups share: the unit of its scores, its max and the bands. */
export interface SubjectScale {
  /** Decimal places kept (0–6); a unit is 10^-scale. */
  readonly scale: number
  /** The subject's max, in units. */
  readonly maxUnits: number
  readonly bands: readonly GradeBand[]
}

/** Most decimals a score keeps: beyond them a score is rounded (a formula's 33.333333333…). */
export const maxScoreDecimals = 6

export class ScoreGroup {
  readonly scored: ScoredEntry[] = []
  absent = 0
}

const listed = 5

function bandIndex(units: number, scale: SubjectScale): number {
  const { bands, maxUnits } = scale
  // percent ≥ min ⇔ 100·units ≥ min·max, in whole units.
  for (let i = 0; i < bands.length - 1; i++) if (100 * units >= (bands[i] as GradeBand).min * maxUnits) return i
  return bands.length - 1
}

/** The first `listed` entries in the order `compare` gives, in one pass. */
function firstFew(entries: readonly ScoredEntry[], compare: (a: ScoredEntry, b: ScoredEntry) => number): ScoredEntry[] {
  const best: ScoredEntry[] = []
  for (const entry of entries) {
    if (best.length === listed && compare(entry, best[listed - 1] as ScoredEntry) >= 0) continue
    let at = best.length
    while (at > 0 && compare(entry, best[at - 1] as ScoredEntry) < 0) at--
    best.splice(at, 0, entry)
    if (best.length > listed) best.pop()
  }
  return best
}

const byName = (a: ScoredEntry, b: ScoredEntry) => {
  if (a.name === b.name) return a.order - b.order
  const x = nameSortKey(a.name)
  const y = nameSortKey(b.name)
  return x < y ? -1 : x > y ? 1 : a.order - b.order
}
const highestFirst = (a: ScoredEntry, b: ScoredEntry) => b.units - a.units || byName(a, b)
const lowestFirst = (a: ScoredEntry, b: ScoredEntry) => a.units - b.units || byName(a, b)

function sumOf(units: Float64Array, from: number, to: number): bigint {
  let sum = 0
  for (let i = from; i < to; i++) sum += units[i] as number
  if (Number.isSafeInteger(sum)) return BigInt(sum)
  let big = 0n
  for (let i = from; i < to; i++) big += BigInt(units[i] as number)
  return big
}

function sumOfSquares(units: Float64Array): bigint {
  const n = units.length
  const largest = units[n - 1] as number
  if (largest * largest * n <= Number.MAX_SAFE_INTEGER) {
    let sum = 0
    for (let i = 0; i < n; i++) sum += (units[i] as number) * (units[i] as number)
    return BigInt(sum)
  }
  let big = 0n
  for (let i = 0; i < n; i++) {
    const u = BigInt(units[i] as number)
    big += u * u
  }
  return big
}

function emptyFigures(absent: number, bands: readonly GradeBand[]): ScoreFigures {
  return {
    students: 0,
    absent,
    total: 0,
    average: null,
    highest: null,
    lowest: null,
    median: null,
    stdDev: null,
    passRate: null,
    bands: bands.map(({ key }) => ({ key, count: 0, percentage: null })),
    top: { count: 0, average: null },
    weak: { count: 0, average: null },
    gap: null,
    highest5: [],
    lowest5: [],
  }
}

/** The figures of a group of a subject (docs/grades.md): two decimals, half away from zero. */
export function scoreFigures(group: ScoreGroup, scale: SubjectScale): ScoreFigures {
  const { scored, absent } = group
  const n = scored.length
  if (n === 0) return emptyFigures(absent, scale.bands)

  const factor = 10 ** scale.scale
  const unit = 10n ** BigInt(scale.scale)
  const bigN = BigInt(n)
  const maxUnits = BigInt(scale.maxUnits)

  const units = new Float64Array(n)
  const bandCounts = Array.from(scale.bands, () => 0)
  let passed = 0
  for (let i = 0; i < n; i++) {
    const u = (scored[i] as ScoredEntry).units
    units[i] = u
    const band = bandIndex(u, scale)
    bandCounts[band] = (bandCounts[band] as number) + 1
    if (2 * u >= scale.maxUnits) passed++
  }
  units.sort()

  const total = sumOf(units, 0, n)
  const squares = sumOfSquares(units)
  const mid = n >> 1
  const median = n % 2 === 1 ? BigInt(units[mid] as number) * 2n : BigInt((units[mid - 1] as number) + (units[mid] as number))

  // k = max(1, round half up(0.27·n)); ties with the k-th highest (lowest) join the top (weak) group.
  const k = Math.max(1, Math.floor((27 * n + 50) / 100))
  const topFloor = units[n - k] as number
  let topStart = n - k
  while (topStart > 0 && units[topStart - 1] === topFloor) topStart--
  const weakCeiling = units[k - 1] as number
  let weakEnd = k
  while (weakEnd < n && units[weakEnd] === weakCeiling) weakEnd++
  const topCount = BigInt(n - topStart)
  const weakCount = BigInt(weakEnd)
  const topSum = sumOf(units, topStart, n)
  const weakSum = sumOf(units, 0, weakEnd)

  return {
    students: n,
    absent,
    total: Number(`${total}e-${scale.scale}`),
    average: roundFraction(total, bigN * unit),
    highest: (units[n - 1] as number) / factor,
    lowest: (units[0] as number) / factor,
    median: roundFraction(median, 2n * unit),
    stdDev: roundSqrtFraction(bigN * squares - total * total, bigN * bigN * unit * unit),
    passRate: percent(passed, n),
    bands: scale.bands.map(({ key }, i) => ({ key, count: bandCounts[i] as number, percentage: percent(bandCounts[i] as number, n) })),
    top: { count: n - topStart, average: roundFraction(100n * topSum, topCount * maxUnits) },
    weak: { count: weakEnd, average: roundFraction(100n * weakSum, weakCount * maxUnits) },
    gap: roundFraction(100n * (topSum * weakCount - weakSum * topCount), topCount * weakCount * maxUnits),
    highest5: firstFew(scored, highestFirst).map(({ name, units: u }) => ({ name, score: u / factor })),
    lowest5: firstFew(scored, lowestFirst).map(({ name, units: u }) => ({ name, score: u / factor })),
  }
}
