import { spawnSync } from 'node:child_process'
import { base32Decode, hotp, totpStep } from '../../app/features/accounts/totp.server.ts'
import { root, startServer, stopChild, type ServerProcess } from '../support/server-process.ts'
import { expect, type Page } from './fixtures.ts'

// An operator for the operator area's journeys (docs/operators.md): an account made an operator
// with the command an operator of Hallil runs (`npm run admin -- users:grant-operator`), on a
// server of the spec's own. On PGlite one process holds the database, so the server is stopped
// for the command and started again on the same data folder and port; on PostgreSQL the command
// runs beside it. Then two-step verification is turned on from the profile, as the gate asks.

/** What an authenticator app shows for the key, `steps` periods from now. */
export const appCode = (key: string, steps = 0) => hotp(base32Decode(key)!, totpStep(new Date()) + steps)

/** Runs `npm run admin -- <args>` against the server's data; the server must not hold a PGlite database. */
function admin(server: ServerProcess, args: string[]) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/admin.ts', ...args], {
    cwd: root,
    env: { ...server.env, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  })
  expect(run.status, `admin ${args.join(' ')}: ${run.stderr || run.stdout}`).toBe(0)
}

/**
 * Grants the operator role to `email` and answers the server to use from now on (the same one on
 * PostgreSQL; on PGlite a new process on the same data folder, port and sessions).
 */
export async function grantOperator(server: ServerProcess, email: string): Promise<ServerProcess> {
  if (server.databaseUrl) {
    admin(server, ['users:grant-operator', email])
    return server
  }
  await stopChild(server.child)
  admin(server, ['users:grant-operator', email])
  return startServer({
    name: 'operator',
    port: server.port,
    database: 'pglite',
    dataDir: server.dataDir,
    env: { DATA_DIR: server.dataDir },
    stdio: 'inherit',
    startTimeoutMs: 60_000,
  })
}

/** Turns on two-step verification from the profile, as the operator area asks first. */
export async function turnOnTwoFactor(page: Page, lang: 'ar' | 'en') {
  const words = {
    ar: { setUp: 'إعداد', code: 'الرمز من التطبيق', activate: 'تفعيل', done: 'تم تفعيل التحقق بخطوتين' },
    en: { setUp: 'Set up', code: 'Code from the app', activate: 'Turn on', done: 'Two-step verification is on' },
  }[lang]
  await page.goto(`/${lang}/profile`)
  const card = page.locator('#two-factor')
  await card.getByRole('button', { name: words.setUp, exact: true }).click()
  const key = (await card.locator('.totp-key').textContent()) ?? ''
  expect(key).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/)
  await card.getByLabel(words.code).fill(appCode(key))
  await card.getByRole('button', { name: words.activate, exact: true }).click()
  await expect(card.getByText(words.done)).toBeVisible()
}
