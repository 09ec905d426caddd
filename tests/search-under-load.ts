import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { and, asc, eq, sql } from 'drizzle-orm'
import type { ServerBuild } from 'react-router'
import type { AppServices } from '#app/platform/context.server.ts'
import { analysisEntries } from '#app/platform/db/schema.ts'
import { createHttpApp } from '#server/http/http.ts'
import { absenceWorkbook } from './support/absence-workbook.ts'
import { subscribedTeacher, teacher } from './exams.ts'

// Issue #15's done-means for analyses, shared by the test (server/http/api/analyses-search.under-load.test.ts)
// and `npm run bench`: a 100,000-row absence workbook uploaded through the real HTTP server, then
// student searches on it, one at a time and eight at once, while /healthz and another teacher's
// profile are asked for every 50 ms. Over real sockets, so a blocked event loop shows as latency.

const noPages = { assets: { version: 'test', url: '', entry: { module: '', imports: [] }, routes: {} } } as unknown as ServerBuild

export type SearchUnderLoad = {
  rows: number
  fileBytes: number
  uploadStatus: number
  uploadMs: number
  /** Probes while the upload ran. */
  uploadHealthzMs: number[]
  uploadProfileMs: number[]
  /** One search at a time, each for another student. */
  searchMs: number[]
  /** Eight searches at once, each its own time; and the probes while they ran. */
  concurrentSearchMs: number[]
  concurrentHealthzMs: number[]
  /** For each search: whether every student found has the name searched for, and at least one was. */
  searchesFound: boolean[]
}

export async function measureSearchUnderLoad(
  services: AppServices,
  options: { rows?: number; searches?: number } = {},
): Promise<SearchUnderLoad> {
  const rows = options.rows ?? 100_000
  const ctx = {
    env: services.env,
    db: services.database.db,
    logger: services.logger,
    mailer: services.mailer,
    files: services.files,
    requestId: 'load',
    cspNonce: 'n',
    clientIp: '203.0.113.9',
    buildVersion: 'test',
  }
  const uploader = await subscribedTeacher(ctx)
  const other = await teacher(ctx)
  const app = createHttpApp({ services, getBuild: () => noPages, mode: 'production' })
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise<void>((resolve) => server.once('listening', () => resolve()))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'accept-language': 'en' })

  const timed = async (list: number[], url: string, headers?: Record<string, string>) => {
    const t0 = performance.now()
    const res = await fetch(url, { headers })
    await res.arrayBuffer()
    list.push(performance.now() - t0)
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`)
  }
  /** Probes /healthz (and the other teacher's profile) every 50 ms until `work` settles. */
  async function probed<T>(work: () => Promise<T>, healthz: number[], profile: number[]): Promise<T> {
    const state = { isDone: false }
    const probes = (async () => {
      while (!state.isDone) {
        await Promise.all([timed(healthz, `${base}/healthz`), timed(profile, `${base}/api/v1/auth/profile`, auth(other.token))])
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    })()
    try {
      return await work()
    } finally {
      state.isDone = true
      await probes
    }
  }

  try {
    const workbook = absenceWorkbook({ rows })
    // A small upload first, as a running server has its worker thread started.
    const upload = (data: Uint8Array) => {
      const form = new FormData()
      form.set('file', new Blob([new Uint8Array(data)]), 'absence.xlsx')
      return fetch(`${base}/api/v1/analyses/absence`, { method: 'POST', headers: auth(uploader.token), body: form })
    }
    await (await upload(absenceWorkbook({ rows: 200 }).data)).arrayBuffer()

    const uploadHealthzMs: number[] = []
    const uploadProfileMs: number[] = []
    const t0 = performance.now()
    const { status: uploadStatus, id } = await probed(
      async () => {
        const res = await upload(workbook.data)
        const body = (await res.json()) as { data?: { id: string } }
        return { status: res.status, id: body.data?.id ?? '' }
      },
      uploadHealthzMs,
      uploadProfileMs,
    )
    const uploadMs = performance.now() - t0
    if (uploadStatus !== 201) throw new Error(`the ${rows}-row workbook was refused: ${uploadStatus}`)

    // Names to look for, spread over the class list: each student's first three words.
    const count = options.searches ?? 16
    const names = await services.database.db
      .select({ name: sql<string>`${analysisEntries.data}->>'name'` })
      .from(analysisEntries)
      .where(and(eq(analysisEntries.analysisId, id), eq(analysisEntries.part, 0), sql`${analysisEntries.position} % 37 = 5`))
      .orderBy(asc(analysisEntries.position))
      .limit(count + 8)
    const terms = names.map(({ name }) => name.split(' ').slice(0, 3).join(' '))
    const searchesFound: boolean[] = []
    const search = async (term: string, list: number[]) => {
      const s0 = performance.now()
      const res = await fetch(`${base}/api/v1/analyses/${id}/students?q=${encodeURIComponent(term)}`, { headers: auth(uploader.token) })
      const body = (await res.json()) as { data?: Array<{ name: string }> }
      list.push(performance.now() - s0)
      const found = body.data ?? []
      searchesFound.push(res.status === 200 && found.length > 0 && found.every((s) => s.name.startsWith(term)))
    }
    // Warm the path once (the first query plans and reads its index).
    await search(terms[0] ?? '', [])
    searchesFound.length = 0
    const searchMs: number[] = []
    for (const term of terms.slice(0, count)) await search(term, searchMs)
    const concurrentSearchMs: number[] = []
    const concurrentHealthzMs: number[] = []
    await probed(() => Promise.all(terms.slice(count, count + 8).map((term) => search(term, concurrentSearchMs))), concurrentHealthzMs, [])
    return {
      rows,
      fileBytes: workbook.data.length,
      uploadStatus,
      uploadMs,
      uploadHealthzMs,
      uploadProfileMs,
      searchMs,
      concurrentSearchMs,
      concurrentHealthzMs,
      searchesFound,
    }
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
}
