import { createCipheriv, createDecipheriv, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'

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

/**
 * A secret the server must read back later (a second factor's key), sealed with AES-256-GCM
 * under a key derived from the server's secret and the purpose: a copy of the database alone
 * does not give it away. Changing SESSION_SECRET makes sealed values unreadable.
 */
export function seal(secret: string, purpose: string, plain: Uint8Array): string {
  const key = createHmac('sha256', secret).update(`seal:${purpose}`).digest()
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(Buffer.from(purpose))
  const body = Buffer.concat([cipher.update(plain), cipher.final()])
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')
}

/** The plain value of `seal`, or null when it was sealed under another secret or purpose, or altered. */
export function unseal(secret: string, purpose: string, sealed: string): Uint8Array | null {
  const raw = Buffer.from(sealed, 'base64url')
  if (raw.length < 29) return null
  try {
    const key = createHmac('sha256', secret).update(`seal:${purpose}`).digest()
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12))
    decipher.setAAD(Buffer.from(purpose))
    decipher.setAuthTag(raw.subarray(12, 28))
    return new Uint8Array(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]))
  } catch {
    return null
  }
}
