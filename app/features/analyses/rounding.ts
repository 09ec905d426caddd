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
