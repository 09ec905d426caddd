import { describe, expect, it } from 'vitest'
import { dummyVerify, hashPassword, isCommonPassword, verifyPassword } from './passwords.server.ts'

describe('password hashes', () => {
  it('are argon2id with 19 MiB, two passes and one lane, salted per hash', async () => {
    const first = await hashPassword('Sunrise-Falcon-42')
    const second = await hashPassword('Sunrise-Falcon-42')
    const format = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/
    expect(first).toMatch(format)
    const phc = format.exec(first)
    expect(phc?.slice(1, 4).map(Number)).toEqual([19_456, 2, 1])
    expect(Buffer.from(phc?.[4] ?? '', 'base64').length).toBeGreaterThanOrEqual(16)
    expect(first).not.toContain('Sunrise-Falcon-42')
    expect(second).not.toBe(first)
  })

  it('verify the right password only', async () => {
    const stored = await hashPassword('Sunrise-Falcon-42')
    expect(await verifyPassword(stored, 'Sunrise-Falcon-42')).toBe(true)
    expect(await verifyPassword(stored, 'sunrise-falcon-42')).toBe(false)
    expect(await verifyPassword(stored, '')).toBe(false)
  })

  it('answer false for a stored value that is not a hash', async () => {
    expect(await verifyPassword('not-a-hash', 'Sunrise-Falcon-42')).toBe(false)
    expect(await verifyPassword('', 'Sunrise-Falcon-42')).toBe(false)
    expect(await verifyPassword('$argon2id$v=19$m=19456,t=2,p=1$broken', 'Sunrise-Falcon-42')).toBe(false)
  })

  it('dummyVerify spends the time and answers false', async () => {
    await expect(dummyVerify('dummy-password-for-timing-Aa1')).resolves.toBe(false)
    await expect(dummyVerify('anything')).resolves.toBe(false)
  })
})

describe('isCommonPassword', () => {
  it.each(['password', '123456', 'qwerty', 'letmein', 'password1', 'PASSWORD', 'QwErTy', 'Password1', 'LetMeIn'])(
    'knows %s, whatever its case',
    (password) => {
      expect(isCommonPassword(password)).toBe(true)
    },
  )

  it.each(['Sunrise-Falcon-42', 'kL9#vQ2!mZ7$xT4p', 'نورة1234Aa'])('does not refuse %s', (password) => {
    expect(isCommonPassword(password)).toBe(false)
  })

  it('does not match an empty password or a line ending', () => {
    expect(isCommonPassword('')).toBe(false)
    expect(isCommonPassword('password\r')).toBe(false)
  })
})
