import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import type { RouteConfigEntry } from '@react-router/dev/routes'
import routes from '#app/routes.ts'
import { users } from '#app/platform/db/schema.ts'
import type { RequestContext } from '#app/platform/context.server.ts'
import { apiContracts } from '#server/http/api/index.ts'
import { apiTestApp } from '#tests/api-app.ts'
import { testContext, testServices } from '#tests/context.ts'
import { setupTestDatabase } from '#tests/db.ts'
import { silenceOutboxHints } from '#tests/factories.ts'
import { areaUser, type AreaUser } from '#tests/operators.ts'
import { operatorAccess } from './gate.server.ts'
import { routeAnswer } from '#tests/route-answer.ts'

// The gate (docs/operators.md): the operator area does not exist for anyone but an operator, and
// opens to an operator only with two-step verification on. The pages are read from app/routes.ts
// and the endpoints from the API's contracts, so one added later is checked here too.

let services: ReturnType<typeof testServices>
let app: ReturnType<typeof apiTestApp>
const testDb = setupTestDatabase(async (database) => {
  services = testServices(database)
  app = apiTestApp(services)
})
silenceOutboxHints()
let ctx: RequestContext
let teacher: AreaUser
let operator: AreaUser
let operatorWithout2fa: AreaUser
let deactivatedOperator: AreaUser
let operatorSignedInBefore2fa: AreaUser
beforeAll(async () => {
  ctx = testContext(testDb(), { env: services.env, mailer: services.mailer, files: services.files })
  teacher = await areaUser(ctx, { role: 'teacher' })
  operator = await areaUser(ctx)
  operatorWithout2fa = await areaUser(ctx, { twoFactor: false })
  deactivatedOperator = await areaUser(ctx)
  await ctx.db.update(users).set({ deactivatedAt: new Date() }).where(eq(users.id, deactivatedOperator.user.id))
  // Signed in (web and API) with the password alone; the factor turned on afterwards.
  operatorSignedInBefore2fa = await areaUser(ctx, { twoFactor: false })
  await new Promise((resolve) => setTimeout(resolve, 5))
  await ctx.db.update(users).set({ totpEnabledAt: new Date() }).where(eq(users.id, operatorSignedInBefore2fa.user.id))
})

type AreaRoute = { path: string; file: string }

/** Every route under `:lang/admin`, the layout included, with its full path. */
function areaRoutes(entries: RouteConfigEntry[], prefix = ''): AreaRoute[] {
  return entries.flatMap((entry) => {
    const path = entry.path ? (prefix ? `${prefix}/${entry.path}` : entry.path) : prefix
    const here = path === ':lang/admin' || path.startsWith(':lang/admin/') ? [{ path, file: entry.file }] : []
    return [...here, ...areaRoutes(entry.children ?? [], path)]
  })
}
const pages = areaRoutes(routes)

const SOME_ID = '00000000-0000-4000-8000-000000000000'
const concrete = (path: string, lang: string) => `/${path.replace(':lang', lang).replace(/:\w+/g, SOME_ID)}`

type RouteModule = {
  loader?: (args: unknown) => Promise<unknown>
  action?: (args: unknown) => Promise<unknown>
}

/** What a loader or action answered, thrown or returned: its status. */
const statusOf = async (run: () => Promise<unknown> | undefined) => (await routeAnswer(async () => run())).status

function call(mod: RouteModule, kind: 'loader' | 'action', path: string, lang: string, cookie: string) {
  const url = `http://localhost${concrete(path, lang)}`
  const form = new FormData()
  form.append('intent', 'anything')
  const request =
    kind === 'loader'
      ? new Request(url, { headers: { cookie } })
      : new Request(url, { method: 'POST', body: form, headers: { cookie, origin: 'http://localhost' } })
  const params = Object.fromEntries([...path.matchAll(/:(\w+)/g)].map(([, name]) => [name, name === 'lang' ? lang : SOME_ID]))
  return statusOf(() => mod[kind]?.({ request, params, context: ctx }))
}

describe('operatorAccess', () => {
  it('opens to an operator signed in with two-step verification, asks for it otherwise, and hides the area from everyone else', () => {
    const on = new Date('2026-11-01T10:00:00Z')
    const after = new Date('2026-11-01T10:05:00Z')
    const before = new Date('2026-11-01T09:55:00Z')
    const access = (user: { role: 'teacher' | 'operator'; totpEnabledAt: Date | null; deactivatedAt: Date | null }, openedAt: Date) =>
      operatorAccess({ user, openedAt })
    expect(access({ role: 'operator', totpEnabledAt: on, deactivatedAt: null }, after)).toBe('open')
    expect(access({ role: 'operator', totpEnabledAt: on, deactivatedAt: null }, on)).toBe('open')
    // Signed in with the password alone, before the factor was on: sign in again with it.
    expect(access({ role: 'operator', totpEnabledAt: on, deactivatedAt: null }, before)).toBe('sign-in-again')
    expect(access({ role: 'operator', totpEnabledAt: null, deactivatedAt: null }, after)).toBe('two-factor-required')
    expect(access({ role: 'operator', totpEnabledAt: on, deactivatedAt: after }, after)).toBe('not-found')
    expect(access({ role: 'teacher', totpEnabledAt: on, deactivatedAt: null }, after)).toBe('not-found')
    expect(operatorAccess(null)).toBe('not-found')
  })
})

describe('the operator area’s pages', () => {
  it('are found in the route config: the layout and its pages', () => {
    expect(pages.map((p) => p.path)).toContain(':lang/admin')
    expect(pages.map((p) => p.path)).toEqual(
      expect.arrayContaining([
        ':lang/admin',
        ':lang/admin/teachers',
        ':lang/admin/reviews',
        ':lang/admin/messages',
        ':lang/admin/messages/:messageId',
        ':lang/admin/audit',
      ]),
    )
  })

  it.each(pages)('$path answers 404 to a guest, a teacher and a deactivated operator, in both languages', async ({ path, file }) => {
    const mod = (await import(/* @vite-ignore */ `../../${file}`)) as RouteModule
    expect(mod.loader, `${file} has no loader`).toBeTypeOf('function')
    for (const lang of ['ar', 'en'])
      for (const who of ['', teacher.cookie, deactivatedOperator.cookie]) {
        expect(await call(mod, 'loader', path, lang, who)).toBe(404)
        // A route without an action answers its loader's status here (none to call: 404 stands for it).
        expect(mod.action ? await call(mod, 'action', path, lang, who) : 404).toBe(404)
      }
  })

  it.each(pages)('$path answers 403 to an operator without two-step verification', async ({ path, file }) => {
    const mod = (await import(/* @vite-ignore */ `../../${file}`)) as RouteModule
    expect(await call(mod, 'loader', path, 'ar', operatorWithout2fa.cookie)).toBe(403)
    expect(mod.action ? await call(mod, 'action', path, 'en', operatorWithout2fa.cookie) : 403).toBe(403)
  })

  it.each(pages)(
    '$path answers 403 to an operator whose session was opened before two-step verification was on',
    async ({ path, file }) => {
      const mod = (await import(/* @vite-ignore */ `../../${file}`)) as RouteModule
      expect(await call(mod, 'loader', path, 'en', operatorSignedInBefore2fa.cookie)).toBe(403)
      expect(mod.action ? await call(mod, 'action', path, 'ar', operatorSignedInBefore2fa.cookie) : 403).toBe(403)
    },
  )

  it('open to an operator with two-step verification', async () => {
    const layout = pages.find((p) => p.path === ':lang/admin')!
    const audit = pages.find((p) => p.path === ':lang/admin/audit')!
    for (const page of [layout, audit]) {
      const mod = (await import(/* @vite-ignore */ `../../${page.file}`)) as RouteModule
      expect(await call(mod, 'loader', page.path, 'ar', operator.cookie)).toBe(200)
    }
  })
})

describe('the operator area’s endpoints', () => {
  const endpoints = () => apiContracts().filter((c) => c.path.startsWith('/admin'))
  const request = (method: string, path: string, headers: Record<string, string>) =>
    app.request(`/api/v1${path.replace(/\{\w+\}/g, SOME_ID)}`, {
      method: method.toUpperCase(),
      headers: { ...headers, 'content-type': 'application/json', 'accept-language': 'en' },
      ...(method === 'get' ? {} : { body: '{}' }),
    })

  it('all declare the operator’s authentication', () => {
    expect(endpoints().length).toBeGreaterThanOrEqual(12)
    for (const contract of endpoints()) expect(contract.auth, `${contract.method} ${contract.path}`).toBe('operator')
  })

  it('answer 404 to a guest, a teacher and a deactivated operator, like a path that is not there', async () => {
    const all = [...endpoints().map((c) => [c.method, c.path] as const), ['get', '/admin/no-such-thing'] as const]
    for (const [method, path] of all)
      for (const headers of [{}, teacher.bearer, deactivatedOperator.bearer]) {
        const res = await request(method, path, headers)
        expect(res.status, `${method} ${path}`).toBe(404)
        expect(await res.json()).toEqual({ message: 'The requested resource was not found' })
      }
  })

  it('answer 403 to an operator without two-step verification, saying why', async () => {
    for (const { method, path } of endpoints()) {
      const res = await request(method, path, operatorWithout2fa.bearer)
      expect(res.status, `${method} ${path}`).toBe(403)
      expect(((await res.json()) as { message: string }).message).toMatch(/two-step verification/)
    }
    const arabic = await app.request('/api/v1/admin/audit', { headers: { ...operatorWithout2fa.bearer, 'accept-language': 'ar' } })
    expect(arabic.status).toBe(403)
    expect(((await arabic.json()) as { message: string }).message).toMatch(/التحقق بخطوتين/)
  })

  it('answer 403 to an operator whose token was issued before two-step verification was on, saying so', async () => {
    for (const { method, path } of endpoints()) {
      const res = await request(method, path, operatorSignedInBefore2fa.bearer)
      expect(res.status, `${method} ${path}`).toBe(403)
      expect(((await res.json()) as { message: string }).message).toMatch(/Sign in again/)
    }
  })

  it('a path that is not an endpoint is a 404 to an operator too', async () => {
    for (const who of [operator.bearer, operatorWithout2fa.bearer])
      expect((await request('get', '/admin/no-such-thing', who)).status).toBe(404)
  })

  it('never take a web session: an operator’s cookie is no token', async () => {
    const res = await app.request('/api/v1/admin/no-such-thing', { headers: { cookie: operator.cookie } })
    expect(res.status).toBe(404)
  })
})
