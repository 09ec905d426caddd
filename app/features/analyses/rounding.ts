/**
 * Rounding half away from zero as a person rounds decimals, not as binary floats happen to fall:
 * 1.005 → 1.01 (Math.round(1.005 * 100) / 100 gives 1), 100·2/3 → 66.67. Each number is taken
 * as the decimal it prints as (its shortest round-trip form) and the arithmetic is exact.
 */

interface Decimal {
  /** value = digits / 10^scale */
  readonly digits: bigint
  readonly scale: number
}

const decimalForm = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/

function toDecimal(value: number): Decimal {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`)
  const match = decimalForm.exec(String(value))
  if (!match) throw new RangeError(`unexpected number form: ${value}`)
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match
  let digits = BigInt(`${sign}${whole}${fraction}`)
  let scale = fraction.length - Number(exponent)
  if (scale < 0) {
    digits *= 10n ** BigInt(-scale)
    scale = 0
  }
  return { digits, scale }
}

/** numerator/denominator (integers, denominator ≠ 0) rounded half away from zero to an integer. */
function divideRounded(numerator: bigint, denominator: bigint): bigint {
  if (denominator < 0n) {
    numerator = -numerator
    denominator = -denominator
  }
  const quotient = numerator / denominator // truncates toward zero
  const remainder = numerator % denominator
  const twice = remainder < 0n ? -2n * remainder : 2n * remainder
  if (twice < denominator) return quotient
  return numerator < 0n ? quotient - 1n : quotient + 1n
}

function fromScaled(scaled: bigint, decimals: number): number {
  // Parsed as decimal text: the double nearest the exact decimal, however many digits.
  return Number(`${scaled}e-${decimals}`)
}

function checkDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 10) throw new RangeError(`decimals must be 0–10, not ${decimals}`)
}

/** `value` rounded half away from zero to `decimals` places, as its decimal form would round. */
export function roundHalfAway(value: number, decimals = 2): number {
  checkDecimals(decimals)
  const { digits, scale } = toDecimal(value)
  if (scale <= decimals) return value || 0
  return fromScaled(divideRounded(digits, 10n ** BigInt(scale - decimals)), decimals)
}

function roundDecimalRatio(n: Decimal, d: Decimal, decimals: number): number {
  if (d.digits === 0n) throw new RangeError('division by zero')
  // (n.digits / 10^n.scale) / (d.digits / 10^d.scale) · 10^decimals, in integers
  const top = n.digits * 10n ** BigInt(d.scale + decimals)
  const bottom = d.digits * 10n ** BigInt(n.scale)
  return fromScaled(divideRounded(top, bottom), decimals)
}

/** numerator ÷ denominator, exactly, rounded half away from zero to `decimals` places. */
export function roundRatio(numerator: number, denominator: number, decimals = 2): number {
  checkDecimals(decimals)
  if (denominator === 0) throw new RangeError('division by zero')
  const factor = 10 ** decimals
  // Integer counts (every rate of the absence analysis) stay in exact double arithmetic.
  if (Number.isSafeInteger(numerator) && Number.isSafeInteger(denominator) && Number.isSafeInteger(numerator * factor * 2)) {
    const scaled = numerator * factor
    const remainder = scaled % denominator
    let quotient = (scaled - remainder) / denominator
    if (Math.abs(remainder) * 2 >= Math.abs(denominator)) quotient += Math.sign(scaled) * Math.sign(denominator)
    return quotient / factor || 0
  }
  return roundDecimalRatio(toDecimal(numerator), toDecimal(denominator), decimals)
}

/** 100 · part / whole, rounded half away from zero to `decimals` places (two in the API). */
export function percent(part: number, whole: number, decimals = 2): number {
  if (Number.isSafeInteger(part) && Number.isSafeInteger(part * 100)) return roundRatio(part * 100, whole, decimals)
  checkDecimals(decimals)
  if (whole === 0) throw new RangeError('division by zero')
  const p = toDecimal(part)
  return roundDecimalRatio({ digits: p.digits * 100n, scale: p.scale }, toDecimal(whole), decimals)
}

function checkFraction(denominator: bigint): void {
  if (denominator === 0n) throw new RangeError('division by zero')
}

/** numerator ÷ denominator of big integers, exactly, rounded half away from zero to `decimals` places. */
export function roundFraction(numerator: bigint, denominator: bigint, decimals = 2): number {
  checkDecimals(decimals)
  checkFraction(denominator)
  return fromScaled(divideRounded(numerator * 10n ** BigInt(decimals), denominator), decimals) || 0
}

/** ⌊√n⌋ of a non-negative big integer (Newton's method from a float estimate). */
function integerSqrt(n: bigint): bigint {
  if (n < 2n) return n
  let x = BigInt(Math.floor(Math.sqrt(Number(n))))
  // The float estimate is within a few units for any size; Newton's steps from above settle it.
  if (x * x > n || (x + 1n) * (x + 1n) <= n) {
    x = n
    let y = (x + 1n) / 2n
    while (y < x) {
      x = y
      y = (x + n / x) / 2n
    }
  }
  return x
}

/**
 * √(numerator ÷ denominator), exactly, rounded half away from zero to `decimals` places (a
 * standard deviation from its exact variance): 0.015625 → 0.13, where a float sqrt of a float
 * variance may fall either side of the half.
 */
export function roundSqrtFraction(numerator: bigint, denominator: bigint, decimals = 2): number {
  checkDecimals(decimals)
  checkFraction(denominator)
  if (numerator < 0n !== denominator < 0n && numerator !== 0n) throw new RangeError('square root of a negative number')
  const n = numerator < 0n ? -numerator : numerator
  const d = denominator < 0n ? -denominator : denominator
  // round(x) = ⌊(⌊2x⌋ + 1) / 2⌋ for x ≥ 0, and ⌊2x⌋ = ⌊√⌊4·n·10^(2·decimals) / d⌋⌋.
  const twice = integerSqrt((4n * n * 10n ** BigInt(2 * decimals)) / d)
  return fromScaled((twice + 1n) / 2n, decimals)
}

/**
 * How many decimals the number has as it prints (41.25 → 2, 7 → 0, 1e-7 → 7). Fast for the
 * short decimals of scores and marks; exact for any finite number.
 */
export function decimalPlaces(value: number): number {
  if (Number.isInteger(value)) return 0
  let factor = 10
  for (let places = 1; places <= 6; places++, factor *= 10) if (Math.round(value * factor) / factor === value) return places
  return toDecimal(value).scale
}
