import { describe, expect, it } from 'vitest'
import { base32Decode, base32Encode, hotp, matchTotp, newTotpKey, otpauthUri, totp, totpStep, type TotpAlgorithm } from './totp.server.ts'

const ascii = (text: string) => new Uint8Array(Buffer.from(text, 'ascii'))

describe('HOTP (RFC 4226, appendix D)', () => {
  it('gives the published values for counters 0 to 9', () => {
    const key = ascii('12345678901234567890')
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489']
    expect(expected.map((_, counter) => hotp(key, counter))).toEqual(expected)
  })
})

describe('TOTP (RFC 6238, appendix B)', () => {
  // The RFC's seeds: the ASCII digits repeated to the hash's size.
  const keys: Record<TotpAlgorithm, Uint8Array> = {
    sha1: ascii('12345678901234567890'),
    sha256: ascii('12345678901234567890123456789012'),
    sha512: ascii('1234567890123456789012345678901234567890123456789012345678901234'),
  }
  const vectors: Array<[number, string, TotpAlgorithm]> = [
    [59, '94287082', 'sha1'],
    [59, '46119246', 'sha256'],
    [59, '90693936', 'sha512'],
    [1111111109, '07081804', 'sha1'],
    [1111111109, '68084774', 'sha256'],
    [1111111109, '25091201', 'sha512'],
    [1111111111, '14050471', 'sha1'],
    [1111111111, '67062674', 'sha256'],
    [1111111111, '99943326', 'sha512'],
    [1234567890, '89005924', 'sha1'],
    [1234567890, '91819424', 'sha256'],
    [1234567890, '93441116', 'sha512'],
    [2000000000, '69279037', 'sha1'],
    [2000000000, '90698825', 'sha256'],
    [2000000000, '38618901', 'sha512'],
    [20000000000, '65353130', 'sha1'],
    [20000000000, '77737706', 'sha256'],
    [20000000000, '47863826', 'sha512'],
  ]

  it.each(vectors)('at %i s gives %s with %s', (seconds, code, algorithm) => {
    expect(totp(keys[algorithm], new Date(seconds * 1000), { digits: 8, algorithm })).toBe(code)
  })

  it('counts steps of 30 seconds from the epoch (T = 0x23523EC at 1111111109 s)', () => {
    expect(totpStep(new Date(1111111109 * 1000))).toBe(0x23523ec)
    expect(totpStep(new Date(59_999))).toBe(1)
    expect(totpStep(new Date(60_000))).toBe(2)
  })
})

describe('matchTotp', () => {
  const key = ascii('12345678901234567890')
  const at = new Date(1111111109 * 1000)
  const step = totpStep(at)
  const codeAt = (s: number) => hotp(key, s)

  it('accepts the code of this step and one step either side, and says which step it was', () => {
    expect(codeAt(step)).toBe('081804')
    expect(matchTotp(key, codeAt(step), at)).toBe(step)
    expect(matchTotp(key, codeAt(step - 1), at)).toBe(step - 1)
    expect(matchTotp(key, codeAt(step + 1), at)).toBe(step + 1)
  })

  it('refuses a code two steps away, another key’s code, and anything that is not six digits', () => {
    expect(matchTotp(key, codeAt(step - 2), at)).toBeNull()
    expect(matchTotp(key, codeAt(step + 2), at)).toBeNull()
    expect(matchTotp(ascii('another key of twenty'), codeAt(step), at)).toBeNull()
    for (const bad of ['', '08180', '0818044', '08a804', ' 081804', '٠٨١٨٠٤']) expect(matchTotp(key, bad, at)).toBeNull()
  })
})

describe('base32 (RFC 4648, section 10)', () => {
  it.each([
    ['', ''],
    ['f', 'MY======'],
    ['fo', 'MZXQ===='],
    ['foo', 'MZXW6==='],
    ['foob', 'MZXW6YQ='],
    ['fooba', 'MZXW6YTB'],
    ['foobar', 'MZXW6YTBOI======'],
  ])('%j ↔ %s', (plain, encoded) => {
    expect(base32Encode(ascii(plain), { padding: true })).toBe(encoded)
    expect(Buffer.from(base32Decode(encoded)!).toString('ascii')).toBe(plain)
    expect(Buffer.from(base32Decode(encoded.replace(/=/g, '').toLowerCase())!).toString('ascii')).toBe(plain)
  })

  it('refuses what is not base32, and round-trips random keys', () => {
    expect(base32Decode('MZXW1')).toBeNull()
    expect(base32Decode('MZ!W6')).toBeNull()
    for (let i = 0; i < 20; i++) {
      const key = newTotpKey()
      expect(key).toHaveLength(20)
      expect(base32Decode(base32Encode(key))).toEqual(key)
    }
  })
})

describe('otpauthUri', () => {
  it('names the issuer and account and carries the key in base32, as authenticator apps read it', () => {
    const uri = otpauthUri({ issuer: 'Hallil', account: 'noura@school.sa', key: ascii('12345678901234567890') })
    expect(uri).toBe(
      'otpauth://totp/Hallil:noura%40school.sa?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Hallil&algorithm=SHA1&digits=6&period=30',
    )
  })
})
