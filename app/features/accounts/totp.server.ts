import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP) with node:crypto only: the
// second factor an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…)
// computes from the secret it scanned. Hallil uses SHA-1, 6 digits, 30 seconds: what every app reads.

export const TOTP_PERIOD_SECONDS = 30
export const TOTP_DIGITS = 6
/** A code is accepted one step either side of now (±30 s), for clocks that drift a little. */
export const TOTP_WINDOW = 1

export type TotpAlgorithm = 'sha1' | 'sha256' | 'sha512'

/** RFC 4226: the HMAC of the 8-byte counter, dynamically truncated to `digits` digits. */
export function hotp(key: Uint8Array, counter: number, digits = TOTP_DIGITS, algorithm: TotpAlgorithm = 'sha1'): string {
  const message = Buffer.alloc(8)
  message.writeBigUInt64BE(BigInt(counter))
  const mac = createHmac(algorithm, key).update(message).digest()
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f
  const binary =
    (((mac[offset] ?? 0) & 0x7f) << 24) | ((mac[offset + 1] ?? 0) << 16) | ((mac[offset + 2] ?? 0) << 8) | (mac[offset + 3] ?? 0)
  return String(binary % 10 ** digits).padStart(digits, '0')
}

/** The time step (RFC 6238's T) of a moment, counted from the Unix epoch. */
export function totpStep(at: Date, period = TOTP_PERIOD_SECONDS): number {
  return Math.floor(at.getTime() / 1000 / period)
}

export function totp(key: Uint8Array, at: Date, options: { digits?: number; period?: number; algorithm?: TotpAlgorithm } = {}): string {
  return hotp(key, totpStep(at, options.period), options.digits, options.algorithm)
}

/**
 * The time step a six-digit code belongs to, within TOTP_WINDOW steps of `at`, or null. The
 * caller keeps the last step used, so one code cannot be used twice.
 */
export function matchTotp(key: Uint8Array, code: string, at: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null
  const now = totpStep(at)
  let found: number | null = null
  // Every candidate is compared, in constant time, whichever matches.
  for (let step = now - TOTP_WINDOW; step <= now + TOTP_WINDOW; step++) {
    if (timingSafeEqual(Buffer.from(hotp(key, step)), Buffer.from(code)) && found === null) found = step
  }
  return found
}

/** 160 random bits, the size RFC 4226 recommends for SHA-1. */
export function newTotpKey(): Uint8Array {
  return new Uint8Array(randomBytes(20))
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/** RFC 4648 base32, the form authenticator apps take a secret in (no padding by default). */
export function base32Encode(bytes: Uint8Array, { padding = false } = {}): string {
  let out = ''
  let buffer = 0
  let bits = 0
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31]
  if (padding) while (out.length % 8 !== 0) out += '='
  return out
}

/** Reads base32 whatever its case, spaces or padding; null when it is not base32. */
export function base32Decode(text: string): Uint8Array | null {
  const clean = text.replace(/[\s=]/g, '').toUpperCase()
  const out: number[] = []
  let buffer = 0
  let bits = 0
  for (const char of clean) {
    const value = BASE32.indexOf(char)
    if (value < 0) return null
    buffer = ((buffer << 5) | value) & 0xffff
    bits += 5
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 0xff)
      bits -= 8
    }
  }
  return new Uint8Array(out)
}

/** The otpauth:// address an authenticator app reads from the QR code (Key Uri Format). */
export function otpauthUri({ issuer, account, key }: { issuer: string; account: string; key: Uint8Array }): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`
  const query = new URLSearchParams({
    secret: base32Encode(key),
    issuer,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_PERIOD_SECONDS),
  })
  return `otpauth://totp/${label}?${query.toString()}`
}
