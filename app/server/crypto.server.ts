import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'

/** A random secret for a cookie or a bearer token: 256 bits, URL-safe. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url')
}

/**
 * What the database keeps instead of a token or a code: an HMAC keyed with the server's
 * secret, so a copy of the database alone cannot test guesses of a six-digit code offline.
 */
export function keyedHash(secret: string, value: string): string {
  return createHmac('sha256', secret).update(value).digest('base64url')
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  if (left.length !== right.length) return false
  return timingSafeEqual(left, right)
}

/** Six digits from the operating system's secure generator. */
export function sixDigitCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0')
}
