import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

// ASVS V15 (dependencies): scripts/check-dependencies.js on this project's lockfile, and on
// lockfiles made to break each of its rules. See docs/security.md.

const root = path.resolve(import.meta.dirname, '../../..')
const script = path.join(root, 'scripts/check-dependencies.js')

function run(args: string[], cwd = root) {
  const result = spawnSync(process.execPath, [script, ...args], { cwd, encoding: 'utf8' })
  return { status: result.status, out: `${result.stdout}${result.stderr}` }
}

const integrity = `sha512-${'A'.repeat(86)}==`
const pkg = { name: 'x', dependencies: { hono: '4.13.19' }, devDependencies: {} }
const lockOf = (packages: Record<string, Record<string, unknown>>, rootDeps: Record<string, string> = { hono: '4.13.19' }) => ({
  lockfileVersion: 3,
  packages: { '': { dependencies: rootDeps, devDependencies: {} }, 'node_modules/hono': { version: '4.13.19', integrity }, ...packages },
})

/** The script's answer for a made-up lockfile (and package.json, and .npmrc). */
function check(lock: unknown, manifest: unknown = pkg, npmrc?: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'hallil-deps-'))
  writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify(lock))
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest))
  if (npmrc !== undefined) writeFileSync(path.join(dir, '.npmrc'), npmrc)
  return run(['--lockfile', path.join(dir, 'package-lock.json'), '--package-json', path.join(dir, 'package.json')])
}

describe('the dependency check', () => {
  it('passes on this project: every locked package from the npm registry, sha512, pinned, none known to be malicious', () => {
    const result = run([])
    expect(result.out).toMatch(/^Dependencies: \d+ locked packages/)
    expect(result.status).toBe(0)
  })

  it('passes a well-formed lockfile', () => {
    expect(
      check(
        lockOf({
          'node_modules/a/node_modules/@s/b': { version: '1.0.0', integrity, resolved: 'https://registry.npmjs.org/@s/b/-/b-1.0.0.tgz' },
        }),
      ).status,
    ).toBe(0)
  })

  const broken: Array<[string, unknown, RegExp, unknown?, string?]> = [
    ['a missing integrity', lockOf({ 'node_modules/a': { version: '1.0.0' } }), /a@1\.0\.0: integrity is missing/],
    ['a sha1 integrity', lockOf({ 'node_modules/a': { version: '1.0.0', integrity: 'sha1-abc=' } }), /integrity is sha1, not sha512/],
    [
      'another registry',
      lockOf({ 'node_modules/a': { version: '1.0.0', integrity, resolved: 'https://evil.example/a/-/a-1.0.0.tgz' } }),
      /resolved from https:\/\/evil\.example/,
    ],
    [
      'a git dependency',
      lockOf({ 'node_modules/a': { version: '1.0.0', integrity, resolved: 'git+ssh://git@github.com/x/a.git#abc' } }),
      /resolved from git\+ssh/,
    ],
    [
      'a tarball under another name',
      lockOf({
        'node_modules/lodash': { version: '4.17.21', integrity, resolved: 'https://registry.npmjs.org/lodahs/-/lodahs-4.17.21.tgz' },
      }),
      /not https:\/\/registry\.npmjs\.org\/lodash\//,
    ],
    ['a linked package', lockOf({ 'node_modules/a': { link: true, resolved: '../a' } }), /a linked \(local\) package/],
    [
      'event-stream 3.3.6',
      lockOf({ 'node_modules/event-stream': { version: '3.3.6', integrity } }),
      /event-stream@3\.3\.6: known malicious/,
    ],
    [
      'any flatmap-stream',
      lockOf({ 'node_modules/flatmap-stream': { version: '0.1.2', integrity } }),
      /flatmap-stream@0\.1\.2: known malicious/,
    ],
    [
      'the compromised chalk',
      lockOf({ 'node_modules/x/node_modules/chalk': { version: '5.6.1', integrity } }),
      /chalk@5\.6\.1: known malicious/,
    ],
    ['the compromised debug', lockOf({ 'node_modules/debug': { version: '4.4.2', integrity } }), /debug@4\.4\.2: known malicious/],
    ['ua-parser-js 0.7.29', lockOf({ 'node_modules/ua-parser-js': { version: '0.7.29', integrity } }), /known malicious/],
    [
      '@solana/web3.js 1.95.6',
      lockOf({ 'node_modules/@solana/web3.js': { version: '1.95.6', integrity } }),
      /@solana\/web3\.js@1\.95\.6: known malicious/,
    ],
    [
      'an unexpected install script',
      lockOf({ 'node_modules/a': { version: '1.0.0', integrity, hasInstallScript: true } }),
      /a@1\.0\.0: runs an install script/,
    ],
    [
      'a lockfile behind package.json',
      lockOf({}, { hono: '4.13.18' }),
      /hono: package\.json asks for 4\.13\.19 but the lockfile has 4\.13\.18/,
    ],
    [
      'a range in package.json',
      lockOf({}, { hono: '^4.13.19' }),
      /"\^4\.13\.19" is not an exact registry version/,
      { dependencies: { hono: '^4.13.19' } },
    ],
    [
      'a URL in package.json',
      lockOf({}, { hono: 'https://evil.example/hono.tgz' }),
      /is not an exact registry version/,
      { dependencies: { hono: 'https://evil.example/hono.tgz' } },
    ],
    ['an old lockfile', { lockfileVersion: 1, dependencies: {} }, /lockfileVersion 2 or later/],
    [
      'a scope sent to another registry',
      lockOf({}),
      /\.npmrc: @hallil:registry is https:\/\/npm\.evil\.example/,
      pkg,
      '@hallil:registry=https://npm.evil.example/\n',
    ],
  ]
  for (const [name, lock, message, manifest, npmrc] of broken) {
    it(`fails on ${name}`, () => {
      const result = check(lock, manifest ?? pkg, npmrc)
      expect(result.status).toBe(1)
      expect(result.out).toMatch(message)
    })
  }
})
