import { spawnSync } from 'node:child_process'
import { base32Decode, hotp, totpStep } from '../../app/features/accounts/totp.server.ts'
import { root, startServer, stopChild, type ServerProcess } from '../support/server-process.ts'
import { startAppServer } from './app-server.ts'
import { expect, type Page } from './fixtures.ts'
import { TEACHER_PASSWORD } from './teacher.ts'

// The operator area's journeys need an operator, and only the command line makes one
// (docs/operators.md): a server of their own, and `npm run admin -- users:grant-operator` run
// against its data as an operator would. The embedded database is held by the server's process,
// so on PGlite the server stops for the command and starts again on the same data folder
// (sessions survive: the session secret is kept there); on PostgreSQL it runs beside.

export type OperatorServer = {
  readonly url: string
  readonly outbox: string
  grantOperator(email: string): Promise<void>
  stop(): Promise<void>
}

export async function startOperatorServer(options: { port: number; name: string }): Promise<OperatorServer> {
  let server: ServerProcess = await startAppServer({ port: options.port, name: options.name, env: {} })
  const admin = (args: string[]) => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/admin.ts', ...args], {
      cwd: root,
      env: server.env,
      encoding: 'utf8',
    })
    expect(run.status, `npm run admin -- ${args.join(' ')}: ${run.stdout}${run.stderr}`).toBe(0)
    return run.stdout
  }
  return {
    url: server.url,
    outbox: server.outbox,
    async grantOperator(email) {
      if (server.databaseUrl) {
        admin(['users:grant-operator', email])
        return
      }
      await stopChild(server.child)
      admin(['users:grant-operator', email])
      server = await startServer({ name: options.name, port: options.port, database: 'pglite', dataDir: server.dataDir, stdio: 'inherit' })
    },
    stop: () => server.stop(),
  }
}

/** What an authenticator app shows for the key, `steps` periods from now. */
export const appCode = (key: string, steps = 0) => hotp(base32Decode(key)!, totpStep(new Date()) + steps)

const twoFactorWords = {
  ar: { start: 'إعداد', code: 'الرمز من التطبيق', turnOn: 'تفعيل', email: 'البريد الإلكتروني', login: 'تسجيل الدخول' },
  en: { start: 'Set up', code: 'Code from the app', turnOn: 'Turn on', email: 'Email', login: 'Log in' },
} as const

/** Turns on two-step verification from the profile, as two-factor.spec.ts does it; the page is left on the profile, still in the session it had. */
export async function enrolTwoFactor(page: Page, lang: 'ar' | 'en') {
  const words = twoFactorWords[lang]
  if (!page.url().includes('/profile')) await page.goto(`/${lang}/profile#two-factor`)
  const card = page.locator('#two-factor')
  await card.getByRole('button', { name: words.start, exact: true }).click()
  const key = (await card.locator('.totp-key').textContent()) ?? ''
  expect(key).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/)
  await card.getByLabel(words.code).fill(appCode(key))
  await card.getByRole('button', { name: words.turnOn, exact: true }).click()
  await expect(card.locator('.recovery-codes li')).toHaveCount(10)
  return key
}

/** From the logout page: signs out, then in with the password and the app's next code (the one used to enrol is spent). */
export async function signInAgainWithCode(page: Page, lang: 'ar' | 'en', email: string, key: string) {
  const words = twoFactorWords[lang]
  if (!page.url().includes('/logout')) await page.goto(`/${lang}/logout`)
  await page.locator('main form button[type="submit"]').click()
  await expect(page).toHaveURL(new RegExp(`/${lang}$`))
  await page.goto(`/${lang}/login`)
  await page.getByLabel(words.email).fill(email)
  await page.locator('input[name="password"]').fill(TEACHER_PASSWORD)
  await page.getByRole('button', { name: words.login, exact: true }).click()
  await expect(page).toHaveURL(new RegExp(`/${lang}/two-factor`))
  await page.locator('input[name="code"]').fill(appCode(key, 1))
  await page.locator('main form button[type="submit"]').click()
  await expect(page).not.toHaveURL(/two-factor/)
}

/**
 * An operator's way into the area once granted: two-step verification turned on, then signed in
 * again with the code (the area refuses a session opened with the password alone).
 */
export async function turnOnTwoFactor(page: Page, lang: 'ar' | 'en') {
  await page.goto(`/${lang}/profile#two-factor`)
  const email = ((await page.locator('.profile-identity p').textContent()) ?? '').trim()
  const key = await enrolTwoFactor(page, lang)
  await signInAgainWithCode(page, lang, email, key)
  return key
}
