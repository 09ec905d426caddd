// The dependencies' supply chain, checked offline (the registry's audit is not reachable from
// here): package-lock.json is in step with package.json, every package comes from
// registry.npmjs.org under its own name with a sha512 integrity, none is a version known to be
// malicious or compromised, only allowed packages run install scripts, and (with --installed)
// node_modules holds what the lockfile says. docs/security.md, V15.
//
//   node scripts/check-dependencies.js [--installed] [--lockfile path] [--package-json path]
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'

const REGISTRY = 'https://registry.npmjs.org/'

/**
 * Versions published by attackers or by hijacked maintainer accounts ('*': every version of a
 * package that was malicious from the start). A snapshot from public advisories; add to it when
 * one is published (GitHub Advisory Database, type "malware").
 */
export const DENY_LIST = [
  { name: 'event-stream', versions: ['3.3.6'], reason: 'flatmap-stream backdoor (2018)' },
  { name: 'flatmap-stream', versions: '*', reason: 'malicious package (2018)' },
  { name: 'eslint-scope', versions: ['3.7.2'], reason: 'hijacked account, stole npm tokens (2018)' },
  { name: 'eslint-config-eslint', versions: ['5.0.2'], reason: 'hijacked account (2018)' },
  { name: 'ua-parser-js', versions: ['0.7.29', '0.8.0', '1.0.0'], reason: 'hijacked account, miner and password stealer (2021)' },
  { name: 'coa', versions: ['2.0.3', '2.0.4', '2.1.1', '2.1.3', '3.0.1', '3.1.3'], reason: 'hijacked account (2021)' },
  { name: 'rc', versions: ['1.2.9', '1.3.9', '2.3.9'], reason: 'hijacked account (2021)' },
  { name: 'colors', versions: ['1.4.1', '1.4.2', '1.4.44-liberty-2'], reason: 'sabotaged by its author: endless loop (2022)' },
  { name: 'faker', versions: ['6.6.6'], reason: 'sabotaged by its author (2022)' },
  {
    name: 'node-ipc',
    versions: ['9.2.2', '10.1.1', '10.1.2', '10.1.3', '11.0.0', '11.1.0'],
    reason: 'protestware: overwrites files or pulls in peacenotwar (2022)',
  },
  { name: 'peacenotwar', versions: '*', reason: 'protestware (2022)' },
  { name: '@lottiefiles/lottie-player', versions: ['2.0.5', '2.0.6', '2.0.7'], reason: 'hijacked account, wallet drainer (2024)' },
  { name: '@solana/web3.js', versions: ['1.95.6', '1.95.7'], reason: 'hijacked account, key stealer (2024)' },
  { name: 'xrpl', versions: ['2.14.2', '4.2.1', '4.2.2', '4.2.3', '4.2.4'], reason: 'backdoored release, key stealer (2025)' },
  { name: 'rand-user-agent', versions: ['1.0.110', '2.0.83', '2.0.84'], reason: 'backdoored releases (2025)' },
  // July 2025: phished maintainer tokens ("Scavenger").
  {
    name: 'eslint-config-prettier',
    versions: ['8.10.1', '9.1.1', '10.1.6', '10.1.7'],
    reason: 'phished maintainer, Windows malware (2025)',
  },
  { name: 'eslint-plugin-prettier', versions: ['4.2.2', '4.2.3'], reason: 'phished maintainer (2025)' },
  { name: 'synckit', versions: ['0.11.9'], reason: 'phished maintainer (2025)' },
  { name: '@pkgr/core', versions: ['0.2.8'], reason: 'phished maintainer (2025)' },
  { name: 'napi-postinstall', versions: ['0.3.1'], reason: 'phished maintainer (2025)' },
  { name: 'is', versions: ['3.3.1', '5.0.0'], reason: 'hijacked account (2025)' },
  // August 2025: "s1ngularity", nx releases that stole credentials.
  {
    name: 'nx',
    versions: ['20.9.0', '20.10.0', '20.11.0', '20.12.0', '21.5.0', '21.6.0', '21.7.0', '21.8.0'],
    reason: 's1ngularity credential stealer (2025)',
  },
  // September 2025: the chalk/debug maintainer's account (a crypto-wallet hijacker in the browser).
  { name: 'chalk', versions: ['5.6.1'], reason: 'qix account compromise (2025)' },
  { name: 'debug', versions: ['4.4.2'], reason: 'qix account compromise (2025)' },
  { name: 'ansi-styles', versions: ['6.2.2'], reason: 'qix account compromise (2025)' },
  { name: 'ansi-regex', versions: ['6.2.1'], reason: 'qix account compromise (2025)' },
  { name: 'strip-ansi', versions: ['7.1.1'], reason: 'qix account compromise (2025)' },
  { name: 'supports-color', versions: ['10.2.1'], reason: 'qix account compromise (2025)' },
  { name: 'wrap-ansi', versions: ['9.0.1'], reason: 'qix account compromise (2025)' },
  { name: 'slice-ansi', versions: ['7.1.1'], reason: 'qix account compromise (2025)' },
  { name: 'color-convert', versions: ['3.1.1'], reason: 'qix account compromise (2025)' },
  { name: 'color-name', versions: ['2.0.1'], reason: 'qix account compromise (2025)' },
  { name: 'color-string', versions: ['2.1.1'], reason: 'qix account compromise (2025)' },
  { name: 'color', versions: ['5.0.1'], reason: 'qix account compromise (2025)' },
  { name: 'is-arrayish', versions: ['0.3.3'], reason: 'qix account compromise (2025)' },
  { name: 'simple-swizzle', versions: ['0.2.3'], reason: 'qix account compromise (2025)' },
  { name: 'error-ex', versions: ['1.3.3'], reason: 'qix account compromise (2025)' },
  { name: 'has-ansi', versions: ['6.0.1'], reason: 'qix account compromise (2025)' },
  { name: 'supports-hyperlinks', versions: ['4.1.1'], reason: 'qix account compromise (2025)' },
  { name: 'chalk-template', versions: ['1.1.1'], reason: 'qix account compromise (2025)' },
  { name: 'backslash', versions: ['0.2.1'], reason: 'qix account compromise (2025)' },
  { name: 'proto-tinker-wc', versions: ['0.1.87'], reason: 'qix-wave compromise (2025)' },
  { name: 'duckdb', versions: ['1.3.3'], reason: 'compromised release (2025)' },
  { name: '@duckdb/node-api', versions: ['1.3.3'], reason: 'compromised release (2025)' },
  { name: '@duckdb/node-bindings', versions: ['1.3.3'], reason: 'compromised release (2025)' },
  // September 2025: the "Shai-Hulud" worm (self-spreading through stolen npm tokens).
  { name: '@ctrl/tinycolor', versions: ['4.1.1', '4.1.2'], reason: 'Shai-Hulud worm (2025)' },
]

/** Packages that may run install scripts (a script runs with the installing user's rights). */
export const INSTALL_SCRIPTS_ALLOWED = ['esbuild']

const exactVersion = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/

/** The package name of a lockfile path: `node_modules/a/node_modules/@s/b` → `@s/b`. */
export function nameOfPath(lockPath) {
  const at = lockPath.lastIndexOf('node_modules/')
  return at === -1 ? lockPath : lockPath.slice(at + 'node_modules/'.length)
}

/** The problems of a lockfile and its package.json, one sentence each; empty when all is well. */
export function checkDependencies({ lock, pkg, installedRoot }) {
  const problems = []
  if (!lock || typeof lock !== 'object' || !lock.packages)
    return ['package-lock.json has no "packages" (lockfileVersion 2 or later is needed)']
  if (!(lock.lockfileVersion >= 2)) problems.push(`package-lock.json is lockfileVersion ${lock.lockfileVersion}; 2 or later is needed`)

  // In step with package.json, and every direct dependency pinned to one registry version.
  const root = lock.packages[''] ?? {}
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) {
    const declared = pkg[field] ?? {}
    const locked = root[field] ?? {}
    for (const [name, spec] of Object.entries(declared)) {
      if (locked[name] !== spec)
        problems.push(`${name}: package.json asks for ${spec} but the lockfile has ${locked[name] ?? 'nothing'} (run npm install)`)
      if (!exactVersion.test(String(spec)))
        problems.push(`${name}: "${spec}" is not an exact registry version (no ranges, git, file, URL or alias specifiers)`)
    }
    for (const name of Object.keys(locked))
      if (!(name in declared)) problems.push(`${name}: in the lockfile's ${field} but not in package.json (run npm install)`)
  }

  const denied = new Map(DENY_LIST.map((d) => [d.name, d]))
  for (const [lockPath, entry] of Object.entries(lock.packages)) {
    if (lockPath === '') continue
    if (entry.link) {
      problems.push(`${lockPath}: a linked (local) package`)
      continue
    }
    const name = entry.name ?? nameOfPath(lockPath)
    const where = `${name}@${entry.version}`
    if (!entry.version || !exactVersion.test(entry.version)) problems.push(`${lockPath}: no registry version (${entry.version ?? 'none'})`)
    const unscoped = name.split('/').pop()
    const tarball = `${REGISTRY}${name}/-/${unscoped}-${entry.version}.tgz`
    // Without `resolved` (omit-lockfile-registry-resolved), npm fetches from the configured
    // registry, which checkNpmrc keeps to registry.npmjs.org; with it, it must be that tarball.
    if (entry.resolved !== undefined && entry.resolved !== tarball)
      problems.push(`${where}: resolved from ${entry.resolved}, not ${tarball}`)
    if (!/^sha512-[A-Za-z0-9+/]{86}==$/.test(entry.integrity ?? ''))
      problems.push(`${where}: integrity is ${entry.integrity ? entry.integrity.split('-')[0] : 'missing'}, not sha512`)
    const deny = denied.get(name)
    if (deny && (deny.versions === '*' || deny.versions.includes(entry.version)))
      problems.push(`${where}: known malicious (${deny.reason})`)
    if (entry.hasInstallScript && !INSTALL_SCRIPTS_ALLOWED.includes(name))
      problems.push(`${where}: runs an install script and is not in INSTALL_SCRIPTS_ALLOWED`)
    if (installedRoot) {
      const manifest = path.join(installedRoot, lockPath, 'package.json')
      if (!existsSync(manifest)) {
        if (!entry.optional && !entry.dev && !entry.peer) problems.push(`${where}: not installed in node_modules`)
      } else {
        const installed = JSON.parse(readFileSync(manifest, 'utf8'))
        if (installed.version !== entry.version)
          problems.push(`${lockPath}: node_modules has ${installed.version}, the lockfile ${entry.version}`)
      }
    }
  }
  return problems
}

/** The project's .npmrc (if any) must not point npm, or a scope, at another registry. */
export function checkNpmrc(text) {
  const problems = []
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*((?:@[^:]+:)?registry)\s*=\s*(\S+)/.exec(line)
    if (m && m[2].replace(/\/?$/, '/') !== REGISTRY) problems.push(`.npmrc: ${m[1]} is ${m[2]}, not ${REGISTRY}`)
  }
  return problems
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)
if (isMain) {
  const args = process.argv.slice(2)
  const option = (flag, fallback) => {
    const at = args.indexOf(flag)
    return at === -1 ? fallback : args[at + 1]
  }
  const lockFile = option('--lockfile', 'package-lock.json')
  const pkgFile = option('--package-json', 'package.json')
  const lock = JSON.parse(readFileSync(lockFile, 'utf8'))
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'))
  const npmrc = path.join(path.dirname(path.resolve(lockFile)), '.npmrc')
  const problems = [
    ...checkDependencies({ lock, pkg, installedRoot: args.includes('--installed') ? path.dirname(path.resolve(lockFile)) : undefined }),
    ...(existsSync(npmrc) ? checkNpmrc(readFileSync(npmrc, 'utf8')) : []),
  ]
  if (problems.length) {
    console.error(`Dependency problems (${problems.length}):\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    process.exit(1)
  }
  console.log(
    `Dependencies: ${Object.keys(lock.packages).length - 1} locked packages from ${REGISTRY}, sha512 each, none on the deny-list.`,
  )
}
