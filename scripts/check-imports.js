// One way for imports to flow: routes and server → features → infrastructure (platform, document, lib,
// i18n, ui). A feature is used from outside only through index.ts, index.server.ts, schemas.ts or
// kind.ts (an analysis tool's pure record, which the analyses' worker is bundled from).
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

const root = process.cwd()
const infrastructure = ['app/platform', 'app/document', 'app/lib', 'app/i18n', 'app/ui']
const problems = []

function* walk(dir) {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry)
    if (statSync(full).isDirectory()) yield* walk(full)
    else if (/\.(ts|tsx)$/.test(entry)) yield full
  }
}

/** The import target as a path from the project root, or null for packages. */
function resolveTarget(file, spec) {
  if (spec.startsWith('#app/')) return `app/${spec.slice(5)}`
  if (spec.startsWith('#server/')) return `server/${spec.slice(8)}`
  if (spec.startsWith('#tests/')) return `tests/${spec.slice(7)}`
  if (spec.startsWith('.'))
    return path
      .relative(root, path.resolve(path.dirname(file), spec))
      .split(path.sep)
      .join('/')
  return null
}

const featureOf = (p) => /^app\/features\/([^/]+)/.exec(p)?.[1]

for (const dir of ['app', 'server']) {
  for (const full of walk(path.join(root, dir))) {
    const file = path.relative(root, full).split(path.sep).join('/')
    const source = readFileSync(full, 'utf8')
    const isTest = /\.test\.tsx?$/.test(file)
    for (const match of source.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/g)) {
      const spec = match[1]
      const target = resolveTarget(full, spec)
      if (!target) continue
      const fromFeature = featureOf(file)
      const toFeature = featureOf(target)
      if (target.startsWith('app/routes/') && !file.startsWith('app/routes/') && !isTest)
        problems.push(`${file}: imports a route module (${spec})`)
      if (infrastructure.some((d) => file.startsWith(`${d}/`)) && toFeature && !isTest)
        problems.push(`${file}: infrastructure must not import a feature (${spec})`)
      if (toFeature && toFeature !== fromFeature) {
        const rest = target.slice(`app/features/${toFeature}/`.length)
        if (!/^(index(\.server)?|schemas|kind)(\.tsx?)?$/.test(rest))
          problems.push(`${file}: use the ${toFeature} feature through its index (or schemas), not ${spec}`)
      }
      if (target.startsWith('tests/') && !isTest) problems.push(`${file}: production code imports test helpers (${spec})`)
      // zod's chained API takes all of zod's core into any browser chunk it reaches; a module the
      // client can load builds its schemas with #app/lib/zod-mini.ts.
      const isServerOnly = file.startsWith('server/') || /\.server\.tsx?$/.test(file) || isTest
      if (/^app\/lib\/zod(\.ts)?$/.test(target) && !isServerOnly)
        problems.push(`${file}: zod's chained API (${spec}) is for server-only modules; use #app/lib/zod-mini.ts`)
    }
  }
}

if (problems.length) {
  console.error(`Import boundaries broken (${problems.length}):\n${problems.map((p) => `  - ${p}`).join('\n')}`)
  process.exit(1)
}
console.log('import boundaries: ok')
