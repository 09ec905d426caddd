import { hash, verify } from '@node-rs/argon2'
import { readFileSync } from 'node:fs'
import path from 'node:path'

// argon2id with OWASP's minimum: 19 MiB of memory, two passes, one lane.
// Algorithm.Argon2id is a const enum (2), which isolated modules cannot import.
const ARGON2ID = 2
const options = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const

export function hashPassword(password: string): Promise<string> {
  return hash(password, options)
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password)
  } catch {
    return false
  }
}

// Verified against when the email is unknown, so an answer takes as long either way.
let dummyHash: Promise<string> | undefined
export async function dummyVerify(password: string): Promise<false> {
  dummyHash ??= hashPassword('dummy-password-for-timing-Aa1')
  await verifyPassword(await dummyHash, password)
  return false
}

let common: Set<string> | undefined

const bundledList: string | undefined = import.meta.env
  ? Object.values(import.meta.glob<string>('./common-passwords.txt', { query: '?raw', import: 'default', eager: true }))[0]
  : undefined

/** True for the 10,000 most common passwords (Mark Burnett's list, public domain), ignoring case. */
export function isCommonPassword(password: string): boolean {
  if (!common) {
    // Bundled into the server build by Vite (a deployment needs no source folder); read from
    // the project folder where there is no bundler (the operator's command-line tools).
    const text = bundledList ?? readFileSync(path.resolve(process.cwd(), 'app/features/accounts/common-passwords.txt'), 'utf8')
    common = new Set(
      text
        .split(/\r?\n/)
        .map((line) => line.trim().toLowerCase())
        .filter(Boolean),
    )
  }
  return common.has(password.toLowerCase())
}
