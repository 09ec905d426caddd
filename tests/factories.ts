import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser'
import { afterEach, beforeEach, vi } from 'vitest'
import { activateAccount, registerUser } from '#app/features/accounts/index.server.ts'
import { registerSchema } from '#app/features/accounts/schemas.ts'
import type { Lang } from '#app/i18n/config.ts'
import { DomainError } from '#app/lib/errors.ts'
import type { RequestContext } from '#app/platform/context.server.ts'
import type { Mailer } from '#app/platform/mail.server.ts'
import { testContext } from './context.ts'
import type { TestDatabase } from './db.ts'

// Small factories for account tests: a context per test, users made through the domain
// functions, and the outbox read the way a teacher reads their mail.

/** A password that passes every rule and is on no common list. */
export const STRONG_PASSWORD = 'Sunrise-Falcon-42'

let sequence = 0
const unique = () => `${++sequence}${randomBytes(3).toString('hex')}`

/**
 * A request context with its own client address (so per-address limits of one test do not
 * reach the next), its own outbox folder and its own session secret.
 */
export function accountContext(database: TestDatabase, overrides: Partial<RequestContext> = {}): RequestContext {
  const n = ++sequence
  return testContext(database, { clientIp: `198.18.${(n >> 8) & 255}.${n & 255}`, ...overrides })
}

type RegistrationFields = { username: string; email: string; phone: string; password: string; terms: unknown }

/** A registration form as the page submits it, parsed by the shared schema. */
export function registration(overrides: Partial<RegistrationFields> = {}) {
  const id = unique()
  const password = overrides.password ?? STRONG_PASSWORD
  return registerSchema.parse({
    username: `teacher_${id}`,
    email: `teacher.${id}@school.sa`,
    phone: '0501234567',
    terms: 'on',
    ...overrides,
    password,
    password_confirmation: password,
  })
}

/**
 * A user made by registering (and, unless `activated: false`, activating with the code read
 * from the activation email). Activation adds the 'welcome' notification.
 */
export async function createUser(
  ctx: RequestContext,
  options: Partial<RegistrationFields> & { activated?: boolean; lang?: Lang; avatar?: Uint8Array } = {},
) {
  const { activated = true, lang = 'ar', avatar, ...fields } = options
  const input = registration(fields)
  const registered = await registerUser({ ...ctx, input: { ...input, lang, avatar } })
  if (!activated) return { user: registered, password: input.password }
  const code = await lastCodeSentTo(ctx, registered.email)
  const user = await activateAccount({ ...ctx, input: { email: registered.email, code } })
  return { user, password: input.password }
}

/** Keeps the outbox's "[outbox] … code for …" console hints out of the test output (other lines pass). */
export function silenceOutboxHints(): void {
  let spy: { mockRestore(): void } | undefined
  beforeEach(() => {
    const info = console.info.bind(console)
    spy = vi.spyOn(console, 'info').mockImplementation((...args: unknown[]) => {
      if (typeof args[0] === 'string' && args[0].startsWith('[outbox] ')) return
      info(...args)
    })
  })
  afterEach(() => spy?.mockRestore())
}

export type OutboxMail = ParsedMail & { file: string }

/** Every message in the context's outbox folder, oldest first. */
export async function readOutbox(ctx: Pick<RequestContext, 'env'>): Promise<OutboxMail[]> {
  const dir = ctx.env.MAIL_OUTBOX_DIR
  let files: string[]
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.eml'))
      .sort()
  } catch {
    return []
  }
  return Promise.all(files.map(async (file) => Object.assign(await simpleParser(readFileSync(path.join(dir, file))), { file })))
}

export function clearOutbox(ctx: Pick<RequestContext, 'env'>): void {
  rmSync(ctx.env.MAIL_OUTBOX_DIR, { recursive: true, force: true })
}

export function recipientsOf(mail: ParsedMail): string[] {
  const to: AddressObject[] = mail.to ? (Array.isArray(mail.to) ? mail.to : [mail.to]) : []
  return to.flatMap((group) => group.value.map((a) => a.address ?? ''))
}

export async function mailsTo(ctx: Pick<RequestContext, 'env'>, address: string): Promise<OutboxMail[]> {
  return (await readOutbox(ctx)).filter((mail) => recipientsOf(mail).includes(address))
}

export async function lastMailTo(ctx: Pick<RequestContext, 'env'>, address: string): Promise<OutboxMail> {
  const mail = (await mailsTo(ctx, address)).at(-1)
  if (!mail) throw new Error(`no mail to ${address} in the outbox`)
  return mail
}

/** The six-digit code on its own line of a code email's text part. */
export function codeIn(mail: ParsedMail): string {
  const code = /^(\d{6})$/m.exec(mail.text ?? '')?.[1]
  if (!code) throw new Error(`no code in the mail "${mail.subject}"`)
  return code
}

export async function lastCodeSentTo(ctx: Pick<RequestContext, 'env'>, address: string): Promise<string> {
  return codeIn(await lastMailTo(ctx, address))
}

/** A mailer whose server never answers, as when the mail relay is down. */
export function failingMailer(): Mailer {
  return {
    kind: 'smtp',
    send: () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), { code: 'ECONNREFUSED' })),
    close() {},
  }
}

/** The DomainError a call rejects with (fails the test if it resolves or throws something else). */
export async function domainErrorOf(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof DomainError) return error
    throw error
  }
  throw new Error('expected a DomainError, but the call succeeded')
}
