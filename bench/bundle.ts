// Compressed JavaScript per public page (issue #8: goal ≤ 100 KB): the HTML each page is served
// with, from the running built server, names the modules a browser fetches before the page is
// interactive — `<script src>`, `<link rel="modulepreload">`, the inline module script's
// `import(...)` and the modules a React page loads after its first paint — and the sum of their
// brotli sizes (the .br files scripts/precompress.js writes beside build/client's assets; brotli
// quality 11 through node:zlib where one is missing) is the
// figure. Modules loaded later by a lazy import are not counted. Stylesheets are summed the same
// way and shown beside it. The files are the server's own: tests/support/server-process.ts runs it from a
// snapshot of build/, so a rebuild in the shared checkout meanwhile does not mix two builds.
import { existsSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { brotliCompressSync, constants } from 'node:zlib'
import { DEFERRED_MODULES_ID } from '#app/document/paint-first.server.ts'
import type { ServerProcess as AppServer } from '#tests/support/server-process.ts'

// The content pages (sent to guests without React, docs/decisions/010) and the public pages with
// forms (React pages: instant validation with the server's schemas).
export const PUBLIC_PAGES = [
  '/ar',
  '/en',
  '/ar/packages',
  '/ar/about-us',
  '/ar/common-questions',
  '/ar/privacy-policy',
  '/ar/terms',
  '/ar/rates',
  '/ar/contact-us',
  '/ar/login',
  '/ar/SignIn',
  '/ar/forget-password',
]

export interface BundleBenchResult {
  readonly page: string
  readonly jsFiles: number
  readonly jsBrotliBytes: number
  readonly jsRawBytes: number
  readonly cssBrotliBytes: number
}

function brotliSize(clientDir: string, asset: string): { raw: number; br: number } {
  const file = path.join(clientDir, asset)
  if (!existsSync(file)) throw new Error(`${asset} is not in the server's build/client (a build was in progress when it was copied?)`)
  const raw = statSync(file).size
  if (existsSync(`${file}.br`)) return { raw, br: statSync(`${file}.br`).size }
  return { raw, br: brotliCompressSync(readFileSync(file), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length }
}

const attr = (tag: string, name: string) =>
  new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i')
    .exec(tag)
    ?.slice(1)
    .find((v) => v !== undefined)

/** The /assets paths of the scripts and stylesheets a page's HTML asks for. */
export function assetsOf(html: string, base: string): { scripts: string[]; styles: string[] } {
  const scripts = new Set<string>()
  const styles = new Set<string>()
  const local = (href: string | undefined) => {
    if (!href) return null
    const url = new URL(href, base)
    return url.origin === new URL(base).origin && url.pathname.startsWith('/assets/') ? url.pathname : null
  }
  for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) {
    const src = local(attr(tag, 'src'))
    if (src) scripts.add(src)
  }
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = (attr(tag, 'rel') ?? '').toLowerCase().split(/\s+/)
    const href = local(attr(tag, 'href'))
    if (!href) continue
    if (rel.includes('modulepreload')) scripts.add(href)
    else if (rel.includes('stylesheet')) styles.add(href)
  }
  // A React page's modules wait in an inert script until after the first paint (decision 013):
  // they are fetched all the same, so they count.
  for (const [tag] of html.matchAll(new RegExp(`<script\\b[^>]*id="${DEFERRED_MODULES_ID}"[^>]*>`, 'g'))) {
    for (const href of (attr(tag, 'data-preload') ?? '').split(' ')) {
      const src = local(href)
      if (src) scripts.add(src)
    }
  }
  // The site's stylesheet is written into the page (decision 013); its file's size is shown.
  for (const [tag] of html.matchAll(/<style\b[^>]*>/gi)) {
    const href = local(attr(tag, 'data-href'))
    if (href) styles.add(href)
  }
  const moduleBody = new RegExp(
    `<script\\b[^>]*(?:type\\s*=\\s*["']?module["']?|id="${DEFERRED_MODULES_ID}")[^>]*>([\\s\\S]*?)<\\/script>`,
    'gi',
  )
  for (const [, body] of html.matchAll(moduleBody)) {
    for (const m of body!.matchAll(/(?:import\s*\(\s*|import\s+[^'"]*?from\s*|import\s*)["']([^"']+\.js)["']/g)) {
      const src = local(m[1])
      if (src) scripts.add(src)
    }
  }
  return { scripts: [...scripts], styles: [...styles] }
}

export async function benchBundle(server: AppServer): Promise<BundleBenchResult[]> {
  const results: BundleBenchResult[] = []
  for (const page of PUBLIC_PAGES) {
    const res = await fetch(`${server.url}${page}`)
    if (res.status !== 200) throw new Error(`GET ${page} answered ${res.status}`)
    const { scripts, styles } = assetsOf(await res.text(), server.url)
    if (scripts.length === 0) throw new Error(`${page}: no /assets scripts found in the HTML`)
    let jsBrotliBytes = 0
    let jsRawBytes = 0
    for (const s of scripts) {
      const size = brotliSize(server.clientDir, s)
      jsBrotliBytes += size.br
      jsRawBytes += size.raw
    }
    const cssBrotliBytes = styles.reduce((sum, s) => sum + brotliSize(server.clientDir, s).br, 0)
    results.push({ page, jsFiles: scripts.length, jsBrotliBytes, jsRawBytes, cssBrotliBytes })
  }
  return results
}
