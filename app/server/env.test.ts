import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { EnvError, loadEnv } from './env.server.ts'

const tmp = () => mkdtempSync(path.join(tmpdir(), 'hallil-env-'))

describe('loadEnv', () => {
  it('runs on the embedded defaults with nothing set', () => {
    const dir = tmp()
    const env = loadEnv({ DATA_DIR: dir })
    expect(env.PORT).toBe(3000)
    expect(env.APP_URL).toBe('http://localhost:3000')
    expect(env.DATABASE_URL).toBeUndefined()
    expect(env.MAIL_OUTBOX_DIR).toBe(path.join(dir, 'outbox'))
    expect(env.PAYMENT_GATEWAY).toBe('sandbox')
    expect(env.VAT_RATE_BP).toBe(1500)
    expect(env.isProduction).toBe(false)
  })

  it('generates a session secret once and keeps it in the data folder', () => {
    const dir = tmp()
    const first = loadEnv({ DATA_DIR: dir }).SESSION_SECRET
    expect(first).toMatch(/^[0-9a-f]{64}$/)
    expect(readFileSync(path.join(dir, 'session-secret'), 'utf8').trim()).toBe(first)
    expect(loadEnv({ DATA_DIR: dir }).SESSION_SECRET).toBe(first)
  })

  it('names every bad variable', () => {
    const attempt = () =>
      loadEnv({ DATA_DIR: tmp(), PORT: 'eighty', DATABASE_URL: 'mysql://x', SMTP_URL: 'http://mail', PAYMENT_GATEWAY: 'paypal' })
    expect(attempt).toThrow(EnvError)
    for (const name of ['PORT', 'DATABASE_URL', 'SMTP_URL', 'PAYMENT_GATEWAY']) expect(attempt).toThrow(name)
  })

  it('requires secrets and the seller VAT number in production', () => {
    expect(() => loadEnv({ DATA_DIR: tmp(), NODE_ENV: 'production' })).toThrow(/SESSION_SECRET[\s\S]*APP_URL[\s\S]*SELLER_VAT_NUMBER/)
    const env = loadEnv({
      DATA_DIR: tmp(),
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(40),
      APP_URL: 'https://hallil.example/',
      SELLER_VAT_NUMBER: '310122393500003',
    })
    expect(env.isProduction).toBe(true)
    expect(env.APP_URL).toBe('https://hallil.example')
  })

  it('refuses a VAT number that is not 15 digits starting and ending with 3', () => {
    expect(() => loadEnv({ DATA_DIR: tmp(), SELLER_VAT_NUMBER: '12345' })).toThrow(/SELLER_VAT_NUMBER/)
  })
})
