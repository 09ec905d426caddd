import { describe, expect, it } from 'vitest'
import { seal, unseal } from './crypto.server.ts'

const secret = 's'.repeat(48)
const plain = new Uint8Array(Buffer.from('12345678901234567890'))

describe('seal', () => {
  it('gives back the value only under the same secret and purpose, and a different ciphertext each time', () => {
    const sealed = seal(secret, 'totp-key', plain)
    expect(sealed).not.toContain(Buffer.from(plain).toString('base64url'))
    expect(unseal(secret, 'totp-key', sealed)).toEqual(plain)
    expect(seal(secret, 'totp-key', plain)).not.toBe(sealed)
    expect(unseal('t'.repeat(48), 'totp-key', sealed)).toBeNull()
    expect(unseal(secret, 'another-purpose', sealed)).toBeNull()
  })

  it('refuses a sealed value that was altered or cut short', () => {
    const sealed = Buffer.from(seal(secret, 'totp-key', plain), 'base64url')
    for (const at of [0, 12, 20, 30, sealed.length - 1]) {
      const altered = Buffer.from(sealed)
      altered[at] = (altered[at] ?? 0) ^ 1
      expect(unseal(secret, 'totp-key', altered.toString('base64url'))).toBeNull()
    }
    expect(unseal(secret, 'totp-key', sealed.subarray(0, 28).toString('base64url'))).toBeNull()
    expect(unseal(secret, 'totp-key', '')).toBeNull()
  })
})
