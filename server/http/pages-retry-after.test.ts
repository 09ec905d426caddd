import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { ServerBuild } from 'react-router'
import { describe, expect, it } from 'vitest'
import * as contactPage from '#app/routes/contact-us.tsx'
import * as loginPage from '#app/routes/login.tsx'
import { testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { createHttpApp } from './http.ts'

// A page's 429 (a form sent before React takes over, or without it, and its `.data` twin under
// React) tells the browser how long to wait, as the API's does. The page routes are the real
// modules; the document is a stand-in that shows the status and headers React Router chose.
const route = (id: string, routePath: string, module: unknown, parentId?: string) => ({ id, path: routePath, parentId, module })
const pagesBuild = {
  mode: 'production',
  basename: '/',
  publicPath: '/',
  assetsBuildDirectory: 'build/client',
  future: {},
  ssr: true,
  isSpaMode: false,
  prerender: [],
  routeDiscovery: { mode: 'initial' },
  entry: { module: { default: (_request: Request, status: number, headers: Headers) => new Response('<p>page</p>', { status, headers }) } },
  assets: {
    version: 't',
    url: '/m.js',
    entry: { module: '/e.js', imports: [] },
    routes: Object.fromEntries(
      ['root', 'routes/login', 'routes/contact-us'].map((id) => [
        id,
        {
          id,
          parentId: id === 'root' ? undefined : 'root',
          module: `/${id}.js`,
          hasLoader: true,
          hasAction: id !== 'root',
          hasClientLoader: false,
          hasClientAction: false,
          hasErrorBoundary: false,
          imports: [],
        },
      ]),
    ),
  },
  routes: {
    root: route('root', '', { default: () => null }),
    'routes/login': route('routes/login', ':lang/login', loginPage, 'root'),
    'routes/contact-us': route('routes/contact-us', ':lang/contact-us', contactPage, 'root'),
  },
} as unknown as ServerBuild

let app: ReturnType<typeof createHttpApp>
setupTestDatabase(async (db) => {
  app = createHttpApp({ services: testServices(db), getBuild: () => pagesBuild, mode: 'production' })
})

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  // React Router itself refuses an action whose Origin is not the request's own.
  headers: { origin: 'http://localhost', 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
})

describe('a page answering 429', () => {
  it('sends Retry-After with the login form’s refusal, as a document and as data', async () => {
    const attempt = { email: 'noura.teacher@school.sa', password: 'Not-the-password-1' }
    let last: Response | undefined
    for (let i = 0; i < 11; i++) last = await app.request('/en/login', form(attempt))
    expect(last?.status).toBe(429)
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0)
    const data = await app.request('/en/login.data', form(attempt))
    expect(Number(data.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  it('sends Retry-After with the contact form’s refusal', async () => {
    const message = { type: 'other', name: 'Huda', email: 'huda@family.sa', message: 'A question about the grades report.' }
    let last: Response | undefined
    for (let i = 0; i < 6; i++) last = await app.request('/ar/contact-us', form(message))
    expect(last?.status).toBe(429)
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})

describe('page routes', () => {
  it('that may answer 429 (a form run through runForm, or a 429 of their own) keep its Retry-After', () => {
    const dir = path.resolve('app/routes')
    const missing = readdirSync(dir)
      .filter((name) => name.endsWith('.tsx') && !name.endsWith('.test.tsx'))
      .filter((name) => {
        const source = readFileSync(path.join(dir, name), 'utf8')
        const isPage = /export default function/.test(source)
        const mayRefuse = /runForm\(|status: 429|uploadFailure\(/.test(source)
        return isPage && mayRefuse && !/export \{ keepRetryAfter as headers \}/.test(source)
      })
    expect(missing).toEqual([])
  })
})
