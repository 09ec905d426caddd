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
      PAYMENT_GATEWAY: 'sandbox',
    })
    expect(env.isProduction).toBe(true)
    expect(env.APP_URL).toBe('https://hallil.example')
  })

  it('limits idle sessions to 7 days and exports to 120 an hour unless told otherwise, within bounds', () => {
    expect(loadEnv({ DATA_DIR: tmp() })).toMatchObject({ SESSION_IDLE_DAYS: 7, EXPORTS_PER_HOUR: 120 })
    expect(loadEnv({ DATA_DIR: tmp(), SESSION_IDLE_DAYS: '2', EXPORTS_PER_HOUR: '30' })).toMatchObject({
      SESSION_IDLE_DAYS: 2,
      EXPORTS_PER_HOUR: 30,
    })
    // An idle limit longer than the 30-day lifetime would mean nothing; none at all is not offered.
    for (const days of ['0', '31', '1.5', 'never'])
      expect(() => loadEnv({ DATA_DIR: tmp(), SESSION_IDLE_DAYS: days })).toThrow(/SESSION_IDLE_DAYS/)
    for (const count of ['0', '-1', 'lots']) expect(() => loadEnv({ DATA_DIR: tmp(), EXPORTS_PER_HOUR: count })).toThrow(/EXPORTS_PER_HOUR/)
  })

  it('allows 1,000 sheets in an uploaded workbook unless told otherwise, within bounds', () => {
    expect(loadEnv({ DATA_DIR: tmp() }).ANALYSIS_MAX_SHEETS).toBe(1000)
    expect(loadEnv({ DATA_DIR: tmp(), ANALYSIS_MAX_SHEETS: '50' }).ANALYSIS_MAX_SHEETS).toBe(50)
    for (const count of ['0', '-1', '1.5', '10001', 'all'])
      expect(() => loadEnv({ DATA_DIR: tmp(), ANALYSIS_MAX_SHEETS: count })).toThrow(/ANALYSIS_MAX_SHEETS/)
  })

  it('refuses a VAT number that is not 15 digits starting and ending with 3', () => {
    expect(() => loadEnv({ DATA_DIR: tmp(), SELLER_VAT_NUMBER: '12345' })).toThrow(/SELLER_VAT_NUMBER/)
  })
})

describe('loadEnv: payment gateway', () => {
  const production = {
    NODE_ENV: 'production',
    SESSION_SECRET: 'x'.repeat(40),
    APP_URL: 'https://hallil.example',
    SELLER_VAT_NUMBER: '310122393500003',
  }
  const moyasarKeys = {
    MOYASAR_SECRET_KEY: 'sk_live_abc',
    MOYASAR_PUBLISHABLE_KEY: 'pk_live_abc',
    MOYASAR_WEBHOOK_SECRET: 'a-long-random-webhook-secret',
  }

  it('defaults Moyasar to its public API and leaves the keys unset', () => {
    const env = loadEnv({ DATA_DIR: tmp() })
    expect(env.MOYASAR_API_URL).toBe('https://api.moyasar.com')
    expect(env.MOYASAR_SECRET_KEY).toBeUndefined()
    expect(env.MOYASAR_PUBLISHABLE_KEY).toBeUndefined()
    expect(env.MOYASAR_WEBHOOK_SECRET).toBeUndefined()
  })

  it('reads the Moyasar keys and API address', () => {
    const env = loadEnv({ DATA_DIR: tmp(), PAYMENT_GATEWAY: 'moyasar', ...moyasarKeys, MOYASAR_API_URL: 'http://127.0.0.1:4010/' })
    expect(env.PAYMENT_GATEWAY).toBe('moyasar')
    expect(env.MOYASAR_SECRET_KEY).toBe('sk_live_abc')
    expect(env.MOYASAR_PUBLISHABLE_KEY).toBe('pk_live_abc')
    expect(env.MOYASAR_WEBHOOK_SECRET).toBe('a-long-random-webhook-secret')
    expect(env.MOYASAR_API_URL).toBe('http://127.0.0.1:4010')
  })

  it('requires PAYMENT_GATEWAY to be chosen in production', () => {
    expect(() => loadEnv({ DATA_DIR: tmp(), ...production })).toThrow(/PAYMENT_GATEWAY is required in production/)
    expect(loadEnv({ DATA_DIR: tmp(), ...production, PAYMENT_GATEWAY: 'sandbox' }).PAYMENT_GATEWAY).toBe('sandbox')
    expect(loadEnv({ DATA_DIR: tmp(), ...production, PAYMENT_GATEWAY: 'moyasar', ...moyasarKeys }).PAYMENT_GATEWAY).toBe('moyasar')
  })

  it('still defaults to the sandbox outside production', () => {
    expect(loadEnv({ DATA_DIR: tmp(), NODE_ENV: 'development' }).PAYMENT_GATEWAY).toBe('sandbox')
    expect(loadEnv({ DATA_DIR: tmp(), NODE_ENV: 'test' }).PAYMENT_GATEWAY).toBe('sandbox')
  })

  it('refuses PAYMENT_GATEWAY=moyasar without its keys, naming each missing one', () => {
    const attempt = (extra: Record<string, string>) => () =>
      loadEnv({ DATA_DIR: tmp(), ...production, PAYMENT_GATEWAY: 'moyasar', ...extra })
    for (const key of ['MOYASAR_SECRET_KEY', 'MOYASAR_PUBLISHABLE_KEY', 'MOYASAR_WEBHOOK_SECRET'])
      expect(attempt({})).toThrow(`${key} is required when PAYMENT_GATEWAY=moyasar`)
    const oneMissing = attempt({ MOYASAR_SECRET_KEY: 'sk_live_abc', MOYASAR_PUBLISHABLE_KEY: 'pk_live_abc' })
    expect(oneMissing).toThrow(EnvError)
    expect(oneMissing).toThrow('MOYASAR_WEBHOOK_SECRET')
    expect(oneMissing).not.toThrow('MOYASAR_SECRET_KEY')
    // Outside production too: the gateway could not take a single payment.
    expect(() => loadEnv({ DATA_DIR: tmp(), PAYMENT_GATEWAY: 'moyasar' })).toThrow(
      /MOYASAR_SECRET_KEY[\s\S]*MOYASAR_PUBLISHABLE_KEY[\s\S]*MOYASAR_WEBHOOK_SECRET/,
    )
  })

  it('refuses swapped Moyasar keys, so the secret key never reaches a browser', () => {
    const attempt = () =>
      loadEnv({
        DATA_DIR: tmp(),
        PAYMENT_GATEWAY: 'moyasar',
        ...moyasarKeys,
        MOYASAR_SECRET_KEY: 'pk_live_abc',
        MOYASAR_PUBLISHABLE_KEY: 'sk_live_abc',
      })
    expect(attempt).toThrow(/MOYASAR_SECRET_KEY must be the secret key/)
    expect(attempt).toThrow(/MOYASAR_PUBLISHABLE_KEY must be the publishable key/)
  })

  it('refuses an API address that is not http(s)', () => {
    expect(() => loadEnv({ DATA_DIR: tmp(), MOYASAR_API_URL: 'ftp://api.moyasar.com' })).toThrow(/MOYASAR_API_URL/)
  })
})

describe('PAYMENT_METHODS', () => {
  it('offers every method by default and a chosen few when set', () => {
    expect(loadEnv({ DATA_DIR: tmp() }).PAYMENT_METHODS).toEqual(['mada', 'creditcard', 'applepay', 'stcpay'])
    expect(loadEnv({ DATA_DIR: tmp(), PAYMENT_METHODS: 'mada, stcpay' }).PAYMENT_METHODS).toEqual(['mada', 'stcpay'])
    expect(() => loadEnv({ DATA_DIR: tmp(), PAYMENT_METHODS: 'mada,paypal' })).toThrow(/PAYMENT_METHODS/)
  })
})
