import { spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, test } from './fixtures.ts'

// Start-up refuses bad configuration with a message naming the variable (no browser needed).
test('a bad value stops start-up and is named', { tag: '@once' }, () => {
  const run = spawnSync(process.execPath, ['server.js'], {
    env: {
      ...process.env,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'hallil-start-')),
      PORT: 'eighty',
      PAYMENT_GATEWAY: 'paypal',
      DATABASE_URL: '',
    },
    encoding: 'utf8',
    timeout: 20_000,
  })
  expect(run.status).toBe(1)
  expect(run.stderr).toContain('PORT')
  expect(run.stderr).toContain('PAYMENT_GATEWAY')
})

test('production refuses to start without its secrets', { tag: '@once' }, () => {
  const run = spawnSync(process.execPath, ['server.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'hallil-start-')),
      SESSION_SECRET: '',
      APP_URL: '',
      DATABASE_URL: '',
    },
    encoding: 'utf8',
    timeout: 20_000,
  })
  expect(run.status).toBe(1)
  expect(run.stderr).toMatch(/SESSION_SECRET is required in production/)
})
