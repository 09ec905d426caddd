// SSR throughput of the home page, /ar, against the same React tree rendered by react-dom/server
// alone (issue #8: goal ≥ 70% of the bare renderer's requests per second, p99 ≤ 50 ms).
//
// The app: the built server (`node server.js`, production React) on a fresh DATA_DIR — PGlite,
// or a fresh PostgreSQL database when DATABASE_URL is set — loaded by autocannon with 50
// connections for 10 s after a 3 s warm-up, without Accept-Encoding (no compression on either
// side), twice: as a guest, whom the guest page cache serves (server/http/page-cache.ts: the page is
// rendered at most every 15 s, each answer with its own CSP nonce), and as a visitor carrying a
// cookie the cache does not accept, so that every request goes through the router, the loaders
// and React — what every signed-in page costs.
//
// The baseline: the route modules cannot be imported without Vite (CSS and asset imports,
// `+types`, the virtual server build), so the baseline renders a React tree of the same size and
// shape instead of the same components: the app's /ar HTML is fetched once, parsed once at
// start-up into an element tree (tags, attributes as React props, text; inline scripts and
// styles as dangerouslySetInnerHTML), and each request builds that tree with
// React.createElement and renders it with renderToPipeableStream + onAllReady, the way
// app/entry.server.tsx does, from a plain node:http server in its own process with
// NODE_ENV=production. The difference between the two is what the app adds around React:
// Hono and its middleware (security headers, request log, CSP nonce, compression check),
// the session lookup, the router's matching and loaders, the database, and the real components'
// own work (hooks, translation lookups) above mere element creation.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import autocannon from 'autocannon'
import { freePort, root, startServer, stopChild, waitFor, type ServerProcess as AppServer } from '#tests/support/server-process.ts'

const CONNECTIONS = 50
const DURATION_S = 10
const WARMUP_S = 3

export interface LoadFigures {
  readonly requestsPerSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly requests: number
  readonly non2xx: number
  readonly errors: number
}

export interface SsrBenchResult {
  readonly database: string
  readonly appHtmlBytes: number
  readonly baselineHtmlBytes: number
  /** A guest: served by the guest page cache. */
  readonly app: LoadFigures
  /** Every request rendered (a cookie the cache does not accept). */
  readonly rendered: LoadFigures
  readonly baseline: LoadFigures
}

async function load(url: string, headers: Record<string, string> = {}): Promise<LoadFigures> {
  await autocannon({ url, connections: CONNECTIONS, duration: WARMUP_S, headers })
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers })
  return {
    requestsPerSecond: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  }
}

/**
 * The SSR figures on one server: `shared` is a PGlite server already started by the caller (it
 * stays up), otherwise a server on `database` is started here and stopped at the end.
 */
export async function benchSsrOn(options: { shared?: AppServer; database?: 'pglite' | 'postgres' }): Promise<SsrBenchResult> {
  const server =
    options.shared ?? (await startServer({ name: 'ssr', database: options.database ?? 'pglite', hostname: '127.0.0.1', snapshot: true }))
  const dir = mkdtempSync(path.join(tmpdir(), 'hallil-bench-ssr-'))
  try {
    const pageUrl = `${server.url}/ar`
    const res = await fetch(pageUrl)
    if (res.status !== 200) throw new Error(`GET /ar answered ${res.status}`)
    const html = await res.text()
    const htmlFile = path.join(dir, 'ar.html')
    writeFileSync(htmlFile, html)

    const baselinePort = await freePort()
    const baseline = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), '--baseline', htmlFile, String(baselinePort)],
      {
        cwd: root,
        env: { ...process.env, NODE_ENV: 'production' },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    )
    let stderr = ''
    baseline.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000)
    })
    try {
      const baselineUrl = `http://127.0.0.1:${baselinePort}/`
      try {
        await waitFor(baselineUrl, 30_000, baseline)
      } catch (error) {
        throw new Error(`baseline server: ${(error as Error).message}\n${stderr}`, { cause: error })
      }
      const baselineHtml = await (await fetch(baselineUrl)).text()
      const app = await load(pageUrl)
      const rendered = await load(pageUrl, { cookie: 'bench-render=1' })
      const bare = await load(baselineUrl)
      return {
        database: server.databaseUrl ? 'PostgreSQL' : 'PGlite',
        appHtmlBytes: Buffer.byteLength(html),
        baselineHtmlBytes: Buffer.byteLength(baselineHtml),
        app,
        rendered,
        baseline: bare,
      }
    } finally {
      await stopChild(baseline)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
    if (!options.shared) await server.stop()
  }
}

// ---- The baseline: HTML parsed once into a tree, rendered by React per request ----

interface ElementNode {
  readonly tag: string
  readonly attrs: ReadonlyArray<readonly [string, string | null]>
  readonly children: TreeNode[]
  /** Raw content of script and style elements. */
  raw?: string
}
type TreeNode = string | ElementNode

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr'])
const RAW = new Set(['script', 'style'])
const BOOLEAN = new Set([
  'async',
  'autofocus',
  'checked',
  'defer',
  'disabled',
  'hidden',
  'multiple',
  'nomodule',
  'novalidate',
  'open',
  'readonly',
  'required',
  'selected',
  'inert',
  'itemscope',
  'playsinline',
  'reversed',
])
const PROP_NAMES: Record<string, string> = {
  class: 'className',
  for: 'htmlFor',
  charset: 'charSet',
  'http-equiv': 'httpEquiv',
  crossorigin: 'crossOrigin',
  tabindex: 'tabIndex',
  readonly: 'readOnly',
  maxlength: 'maxLength',
  minlength: 'minLength',
  autocomplete: 'autoComplete',
  autofocus: 'autoFocus',
  inputmode: 'inputMode',
  enterkeyhint: 'enterKeyHint',
  srcset: 'srcSet',
  fetchpriority: 'fetchPriority',
  referrerpolicy: 'referrerPolicy',
  novalidate: 'noValidate',
  nomodule: 'noModule',
  colspan: 'colSpan',
  rowspan: 'rowSpan',
  datetime: 'dateTime',
  enctype: 'encType',
  accesskey: 'accessKey',
  contenteditable: 'contentEditable',
  spellcheck: 'spellCheck',
  itemprop: 'itemProp',
  itemscope: 'itemScope',
  itemtype: 'itemType',
  'xlink:href': 'xlinkHref',
  'xml:lang': 'xmlLang',
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp|#39);/gi, (_m, e: string) => {
    const lower = e.toLowerCase()
    if (lower.startsWith('#x')) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16))
    if (lower.startsWith('#')) return String.fromCodePoint(Number(lower.slice(1)))
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' } as Record<string, string>)[lower] ?? ''
  })
}

/** A small HTML parser, enough for the app's own server-rendered markup. Returns the <html> element. */
export function parseHtml(html: string): ElementNode {
  const top: ElementNode = { tag: '#root', attrs: [], children: [] }
  const stack: ElementNode[] = [top]
  const current = () => stack[stack.length - 1]!
  const attrPattern = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g
  let i = 0
  while (i < html.length) {
    if (html.startsWith('<!--', i)) {
      const end = html.indexOf('-->', i + 4)
      i = end < 0 ? html.length : end + 3
      continue
    }
    if (html.startsWith('<!', i)) {
      i = html.indexOf('>', i) + 1
      continue
    }
    if (html.startsWith('</', i)) {
      const end = html.indexOf('>', i)
      const tag = html
        .slice(i + 2, end)
        .trim()
        .toLowerCase()
      const at = stack.findLastIndex((n) => n.tag === tag)
      if (at > 0) stack.length = at
      i = end + 1
      continue
    }
    if (html[i] === '<' && /[a-zA-Z]/.test(html[i + 1] ?? '')) {
      // The tag's end: the first '>' outside quotes.
      let j = i + 1
      let quote = ''
      for (; j < html.length; j++) {
        const ch = html[j]!
        if (quote) {
          if (ch === quote) quote = ''
        } else if (ch === '"' || ch === "'") quote = ch
        else if (ch === '>') break
      }
      const inner = html.slice(i + 1, j)
      const name = /^[^\s/>]+/.exec(inner)![0]
      const tag = name.toLowerCase()
      const attrs: Array<[string, string | null]> = []
      const rest = inner.slice(name.length).replace(/\/\s*$/, '')
      for (const m of rest.matchAll(attrPattern)) attrs.push([m[1]!, m[2] ?? m[3] ?? m[4] ?? null])
      const node: ElementNode = {
        tag: name,
        attrs: attrs.map(([k, v]) => [k, v === null ? null : decodeEntities(v)] as const),
        children: [],
      }
      current().children.push(node)
      i = j + 1
      if (RAW.has(tag)) {
        const close = html.toLowerCase().indexOf(`</${tag}`, i)
        node.raw = html.slice(i, close < 0 ? html.length : close)
        i = close < 0 ? html.length : html.indexOf('>', close) + 1
      } else if (!VOID.has(tag) && !inner.endsWith('/')) {
        stack.push(node)
      }
      continue
    }
    const next = html.indexOf('<', i + 1)
    const text = html.slice(i, next < 0 ? html.length : next)
    current().children.push(decodeEntities(text))
    i = next < 0 ? html.length : next
  }
  const htmlNode = top.children.find((n): n is ElementNode => typeof n !== 'string' && n.tag.toLowerCase() === 'html')
  if (!htmlNode) throw new Error('no <html> element in the page')
  return htmlNode
}

function styleObject(style: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const decl of style.split(';')) {
    const colon = decl.indexOf(':')
    if (colon < 0) continue
    const name = decl.slice(0, colon).trim()
    if (!name) continue
    out[name.startsWith('--') ? name : name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())] = decl.slice(colon + 1).trim()
  }
  return out
}

/** The element tree of a parsed node, made with React.createElement (called per request). */
function toElement(createElement: typeof import('react').createElement, node: TreeNode, key?: number): import('react').ReactNode {
  if (typeof node === 'string') return node
  const props: Record<string, unknown> = {}
  if (key !== undefined) props.key = key
  for (const [name, value] of node.attrs) {
    const lower = name.toLowerCase()
    const prop = PROP_NAMES[lower] ?? name
    if (lower === 'style') props.style = styleObject(value ?? '')
    else if (BOOLEAN.has(lower)) props[prop] = true
    else if (lower === 'value' && node.tag === 'input') props.defaultValue = value ?? ''
    else if (lower === 'checked') props.defaultChecked = true
    else props[prop] = value ?? ''
  }
  if (node.raw !== undefined) {
    if (node.raw) props.dangerouslySetInnerHTML = { __html: node.raw }
    return createElement(node.tag, props)
  }
  if (node.tag.toLowerCase() === 'textarea') {
    props.defaultValue = node.children.filter((c) => typeof c === 'string').join('')
    return createElement(node.tag, props)
  }
  const children = node.children.map((c, i) => toElement(createElement, c, i))
  return createElement(node.tag, props, ...(children.length ? [children] : []))
}

/** In the child: serve the parsed page with React alone on `port`. */
async function serveBaseline(htmlFile: string, port: number) {
  const { createElement } = await import('react')
  const { renderToPipeableStream } = await import('react-dom/server')
  const tree = parseHtml(readFileSync(htmlFile, 'utf8'))
  const server = http.createServer((_req, res) => {
    const { pipe } = renderToPipeableStream(toElement(createElement, tree), {
      onAllReady() {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
        pipe(res)
      },
      onShellError() {
        res.statusCode = 500
        res.end()
      },
    })
  })
  server.keepAliveTimeout = 65_000
  server.listen(port, '127.0.0.1')
  process.on('SIGTERM', () => process.exit(0))
  process.on('SIGINT', () => process.exit(0))
}

if (process.argv[2] === '--baseline' && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await serveBaseline(process.argv[3]!, Number(process.argv[4]))
}
