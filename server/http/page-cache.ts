// The guest page cache: a public page (home, packages, about, questions, contact, privacy,
// terms) looks the same to every visitor who is not signed in, so its HTML is rendered at most
// once per `ttlMs` per process and served from memory in between — the way a shared cache in
// front of the server would hold it, but without handing one CSP nonce to many visitors: every
// answer gets its own nonce, written over the one the page was rendered with.
//
// Only a plain GET of the page itself (no query string, not the `.data` of a client
// navigation) from a visitor with no cookie but the language one is served from here; the page
// is kept only when it answered 200 with HTML and set no cookie. The listings the pages show are
// already kept as long by their loaders (PUBLIC_LIST_TTL_MS), so no page is older than before.

export interface GuestPageCacheOptions {
  /** How long a rendered page is served before it is rendered again. 0 turns the cache off. */
  readonly ttlMs: number
  /** Paths that may be kept: the public pages, e.g. `/ar`, `/en/packages`. */
  readonly paths: ReadonlySet<string>
  /** Cookie names a guest may carry and still get the shared page (the language choice). */
  readonly harmlessCookies: ReadonlySet<string>
  readonly now?: () => number
}

interface Entry {
  readonly expires: number
  readonly status: number
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly html: string
  /** The nonce the page was rendered with: replaced by each answer's own. */
  readonly nonce: string
}

export interface GuestPageCache {
  /** Whether this request may be answered from the cache. */
  accepts(request: Request): boolean
  /** The page for a request `accepts` took: from memory, or rendered (once for concurrent requests) and kept. */
  serve(request: Request, nonce: string, render: () => Promise<Response>): Promise<Response>
  /** Drops every page (tests; an operator's change that must show at once). */
  clear(): void
}

const cookieNames = (header: string) =>
  header
    .split(';')
    .map((part) => part.split('=')[0]!.trim())
    .filter(Boolean)

export function createGuestPageCache(options: GuestPageCacheOptions): GuestPageCache {
  const now = options.now ?? Date.now
  const entries = new Map<string, Entry>()
  const rendering = new Map<string, Promise<Entry | null>>()

  const keyOf = (request: Request) => new URL(request.url).pathname

  function accepts(request: Request): boolean {
    if (options.ttlMs <= 0 || request.method !== 'GET') return false
    const url = new URL(request.url)
    if (url.search || !options.paths.has(url.pathname)) return false
    const cookie = request.headers.get('cookie')
    if (cookie && cookieNames(cookie).some((name) => !options.harmlessCookies.has(name))) return false
    return true
  }

  const keepable = (response: Response) =>
    response.status === 200 &&
    (response.headers.get('content-type') ?? '').startsWith('text/html') &&
    !response.headers.has('set-cookie') &&
    !/no-store|private/i.test(response.headers.get('cache-control') ?? '')

  function answer(entry: Entry, nonce: string, hit: boolean): Response {
    const headers = new Headers(entry.headers as Array<[string, string]>)
    headers.set('X-Page-Cache', hit ? 'hit' : 'miss')
    return new Response(entry.html.replaceAll(entry.nonce, nonce), { status: entry.status, headers })
  }

  /** Renders the page; keeps it when it may be kept. `entry` null: `response` is the untouched answer. */
  async function renderAndKeep(
    key: string,
    nonce: string,
    render: () => Promise<Response>,
  ): Promise<{ entry: Entry | null; response: Response }> {
    const response = await render()
    if (!keepable(response)) return { entry: null, response }
    const html = await response.text()
    const headers = [...response.headers].filter(([name]) => name !== 'content-length')
    const entry: Entry = { expires: now() + options.ttlMs, status: response.status, headers, html, nonce }
    entries.set(key, entry)
    return { entry, response }
  }

  async function serve(request: Request, nonce: string, render: () => Promise<Response>): Promise<Response> {
    const key = keyOf(request)
    const found = entries.get(key)
    if (found && found.expires > now()) return answer(found, nonce, true)
    if (found) entries.delete(key)

    const inFlight = rendering.get(key)
    if (inFlight) {
      const entry = await inFlight.catch(() => null)
      // The other render could not be kept (an error page, a cookie): render this one too.
      return entry ? answer(entry, nonce, true) : render()
    }

    const work = renderAndKeep(key, nonce, render)
    rendering.set(
      key,
      work.then(({ entry }) => entry),
    )
    try {
      const { entry, response } = await work
      // A page rendered for this request carries this request's nonce already.
      return entry ? answer(entry, nonce, false) : response
    } finally {
      rendering.delete(key)
    }
  }

  return { accepts, serve, clear: () => entries.clear() }
}
